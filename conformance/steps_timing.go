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

// Steps about time: the manual clock, background operations, aborts and
// how long actions took.

// registerTimingSteps defines the steps whose methods are in this file.
func (w *world) registerTimingSteps(sc stepDefiner) {
	sc.Step(`^the agent's clock is under the host's control$`, w.manualClock)
	sc.Step(`^the clock advances (\d+) (seconds?|milliseconds?)$`, w.clockAdvances)
	sc.Step(`^the host aborts the background operation$`, w.aborts)
	sc.Step(`^the host waits until the agent is idle$`, w.awaitsIdle)
	sc.Step(`^"([^"]*)" receives its handshake$`, w.receivesHandshake)
	sc.Step(`^the background operation ends(?: within (\d+) seconds?)?(?: with an? "([^"]*)"(?: or "([^"]*)")? error)?$`, w.bgEnds)
	sc.Step(`^the background operation is still running$`, w.bgStillRunning)
	sc.Step(`^that took less than (\d+) (seconds?|milliseconds?)$`, w.tookLessThan)
}

// timingState is the slice of the world this file's steps own: the
// operations they started, running beside the other steps.
type timingState struct {
	bg  *background // a send running in the background
	bg2 *background // a second one, beside it
}

// manualClock: Given the agent's clock is under the host's control
func (w *world) manualClock() error {
	w.opts.ManualClock = true
	return nil
}

// clockAdvances: When the clock advances 29 seconds
func (w *world) clockAdvances(ctx context.Context, n int, unit string) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpAdvanceClock); err != nil {
		return err
	}
	d := time.Duration(n) * time.Second
	if strings.HasPrefix(unit, "millisecond") {
		d = time.Duration(n) * time.Millisecond
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	err := w.agent.AdvanceClock(sctx, d)
	if err != nil {
		return fmt.Errorf("advancing the agent's clock: %w", err)
	}
	return nil
}

// stillRunningGrace is how long "is still running" watches the background
// operation for an end that must not come: a conforming implementation
// never ends it, so the wait always runs out; one that ends early is
// caught within it.
const stillRunningGrace = 250 * time.Millisecond

// bgStillRunning: Then the background operation is still running
func (w *world) bgStillRunning() error {
	if w.bg == nil {
		return fmt.Errorf("no operation runs in the background")
	}
	t := time.NewTimer(stillRunningGrace)
	defer t.Stop()
	select {
	case <-w.bg.done:
		return w.expect(false, w.bg.what+" is still running", "it ended: %v", w.bg.err)
	case <-t.C:
		return w.expect(true, "", "")
	}
}

// bgWait waits for the background operation to end within d.
func (w *world) bgWait(d time.Duration) (bool, error) {
	if w.bg == nil {
		return false, fmt.Errorf("no operation runs in the background")
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-w.bg.done:
		w.last = &outcome{what: w.bg.what, err: w.bg.err, mark: w.log.Len()}
		return true, nil
	case <-t.C:
		return false, nil
	}
}

// bgEnds: Then the background operation ends [within N seconds] [with a "K" [or "K2"] error]
func (w *world) bgEnds(secs, kind1, kind2 string) error {
	d := w.run.opts.StepTimeout
	if secs != "" {
		d = w.budget(time.Duration(atoi(secs)) * time.Second)
	}
	ended, err := w.bgWait(d)
	if err != nil {
		return err
	}
	what := w.bg.what
	if !ended {
		return w.expect(false, fmt.Sprintf("%s ends within %v", what, d), "it is still running")
	}
	if adapter.IsFailure(w.bg.err) {
		return w.bg.err
	}
	if kind1 == "" {
		return w.expect(true, "", "")
	}
	err = w.bg.err
	return w.expect(err != nil && (kindIs(err, kind1) || (kind2 != "" && kindIs(err, kind2))),
		fmt.Sprintf("%s fails with a %s error", what, strings.Trim(kind1+" or "+kind2, " or")), "%v", err)
}

// aborts: When the host aborts the background operation
func (w *world) aborts() error {
	if w.bg == nil {
		return fmt.Errorf("no operation runs in the background")
	}
	w.bg.cancel()
	return nil
}

// awaitsIdle: When the host waits until the agent is idle
func (w *world) awaitsIdle(ctx context.Context) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpAwaitIdle); err != nil {
		return err
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	if err := w.agent.AwaitIdle(sctx); err != nil {
		if adapter.IsFailure(err) {
			return err
		}
		return fmt.Errorf("the agent did not become idle: %w", err)
	}
	return nil
}

// tookLessThan: Then that took less than 10 seconds
func (w *world) tookLessThan(n int, unit string) error {
	if w.last == nil || w.last.took == 0 {
		return fmt.Errorf("the last action was not timed")
	}
	limit := time.Duration(n) * time.Second
	if strings.HasPrefix(unit, "millisecond") {
		limit = time.Duration(n) * time.Millisecond
	}
	limit = w.budget(limit)
	return w.expect(w.last.took < limit, fmt.Sprintf("%s took less than %v", w.last.what, limit), "it took %v", w.last.took.Round(time.Millisecond))
}

// receivesHandshake: When "p" receives its handshake — waits for it.
func (w *world) receivesHandshake(ctx context.Context, name string) error {
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	_, err := w.log.Wait(sctx, func(rs []record.Record) bool { return len(requestsOf(rs, name, handshakeMethods...)) > 0 })
	if err != nil {
		return fmt.Errorf("%q never received a handshake: %w", name, err)
	}
	return nil
}

// hostRecords counts host records of method about capability name.
func hostRecords(rs []record.Record, method, name string) int {
	n := 0
	for _, r := range hostRecordsOf(rs, method) {
		var a adapter.ApprovalRequest
		_ = json.Unmarshal(r.Params, &a)
		if a.Name == name {
			n++
		}
	}
	return n
}

// hostRecordsOf returns the host's records of one method ("model",
// "approval", "event", "hook", "validate", "execute", ...).
func hostRecordsOf(rs []record.Record, method string) []record.Record {
	var out []record.Record
	for _, r := range rs {
		if r.Kind == record.KindHost && r.Method == method {
			out = append(out, r)
		}
	}
	return out
}
