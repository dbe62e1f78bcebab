package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// Steps about how the calls of one model turn are scheduled (LA-TOOL-01).

// registerScheduleSteps defines the steps whose methods are in this file.
func (w *world) registerScheduleSteps(sc stepDefiner) {
	sc.Step(`^list\(\) soon shows "([^"]*)" with status "([^"]*)"$`, w.listSoon)
	sc.Step(`^while "([^"]*)" is held at the latch "([^"]*)", "([^"]*)" starts as the adapter's concurrency policy says$`, w.scheduledAsStated)
}

// quietWindow is how long a sequential implementation is given to start a
// call it must not start while an earlier one is held: an absence can only
// be observed over a window. It costs that long only in the scenarios that
// assert an absence.
const quietWindow = 300 * time.Millisecond

// startedCall reports the record that shows a call of tool started: the
// fake's tools/call for an MCP tool ("mcp__p__a"), the host's execute for
// a host tool.
func startedCall(rs []record.Record, tool string) bool {
	if server, raw, ok := splitToolName(tool); ok {
		return len(toolCalls(rs, server, raw)) > 0
	}
	for _, r := range hostRecordsOf(rs, "execute") {
		var req adapter.ExecuteRequest
		_ = json.Unmarshal(r.Params, &req)
		if req.Tool == tool {
			return true
		}
	}
	return false
}

// splitToolName splits "mcp__server__tool".
func splitToolName(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", "", false
	}
	return strings.Cut(rest, "__")
}

// heldAtLatch reports whether something waits at latch.
func heldAtLatch(rs []record.Record, latch string) bool {
	for _, r := range rs {
		if r.Kind == record.KindLatch && r.Method == latch && !r.Aborted {
			return true
		}
	}
	return false
}

// scheduledAsStated: Then while "mcp__p__a" is held at the latch "a",
// "mcp__p__b" starts as the adapter's concurrency policy says — under
// "sequential" it does not start before the latch is released, under
// "parallel" it starts while the first call is held.
func (w *world) scheduledAsStated(ctx context.Context, first, latch, second string) error {
	policy := w.info.Concurrency
	if policy != "sequential" && policy != "parallel" {
		return fmt.Errorf("the adapter declares the capability %q but states the concurrency %q; want sequential or parallel", adapter.CapConcurrencyPolicy, policy)
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	if _, err := w.log.Wait(sctx, func(rs []record.Record) bool { return startedCall(rs, first) && heldAtLatch(rs, latch) }); err != nil {
		return w.expect(false, fmt.Sprintf("%s starts and waits at the latch %q", first, latch), "it did not: %v", err)
	}
	defer w.rec.Release(latch)
	if policy == "parallel" {
		_, err := w.log.Wait(sctx, func(rs []record.Record) bool { return startedCall(rs, second) })
		return w.expect(err == nil, fmt.Sprintf("%s starts while %s is held (the adapter says parallel)", second, first), "it did not start in time")
	}
	qctx, qcancel := context.WithTimeout(ctx, quietWindow)
	defer qcancel()
	_, err := w.log.Wait(qctx, func(rs []record.Record) bool { return startedCall(rs, second) })
	if err := w.expect(err != nil, fmt.Sprintf("%s does not start while %s is held (the adapter says sequential)", second, first), "it started"); err != nil {
		return err
	}
	w.rec.Release(latch)
	_, err = w.log.Wait(sctx, func(rs []record.Record) bool { return startedCall(rs, second) })
	return w.expect(err == nil, fmt.Sprintf("%s starts once %s is released", second, first), "it never started")
}

// listSoon: Then list() soon shows "p" with status "stale" — an
// implementation learns of a notification or a lost connection
// asynchronously, so list() is asked again, with a growing pause, until it
// shows the status or a step timeout passes.
func (w *world) listSoon(ctx context.Context, name, status string) error {
	if err := w.needCapability(adapter.CapListNormalize); err != nil {
		return err
	}
	if err := w.need(adapter.OpList); err != nil {
		return err
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	var last adapter.ServerStatus
	var found bool
	err := poll(sctx, nil, func() (bool, error) {
		l, err := w.agent.List(sctx)
		if err != nil {
			return false, fmt.Errorf("list() failed: %w", err)
		}
		last, found = entryOf(l, name)
		return found && string(last.Status) == status, nil
	})
	if err != nil && sctx.Err() == nil {
		return err
	}
	return w.expect(err == nil, fmt.Sprintf("list() shows %q with status %s", name, status), "found=%v status=%q until the step timed out", found, last.Status)
}
