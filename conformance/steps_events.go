package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// Steps about the events an implementation emits (LA-EVT).

// progressEvent: Then the agent emitted a tool_progress event for the call
// of "X" with progress 1, total 3 and message "step" | with progress 2 and
// no total or message
func (w *world) progressEvent(tool, progress, total, message, none string) error {
	p, err := strconv.ParseFloat(progress, 64)
	if err != nil {
		return err
	}
	ids := w.callIDs(tool)
	evs := w.host.allEvents()
	match := func(ev adapter.Event) bool {
		if ev.Type != "tool_progress" || ev.Name != tool || !ids[ev.ID] || ev.Progress == nil || *ev.Progress != p {
			return false
		}
		if none != "" {
			return ev.Total == nil && ev.Message == nil
		}
		t, _ := strconv.ParseFloat(total, 64)
		return ev.Total != nil && *ev.Total == t && ev.Message != nil && *ev.Message == message
	}
	for _, ev := range evs {
		if match(ev) {
			return w.expect(true, "", "")
		}
	}
	want := fmt.Sprintf("a tool_progress event with the id of a call of %s (%v), name %s, progress %s", tool, keys(ids), tool, progress)
	if none != "" {
		want += ", no total and no message"
	} else {
		want += fmt.Sprintf(", total %s and message %q", total, message)
	}
	return w.expect(false, want, "%s", describeEvents(evs))
}

// keys lists a set.
func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// describeEvents summarizes events for failures.
func describeEvents(evs []adapter.Event) string {
	if len(evs) == 0 {
		return "no event"
	}
	var parts []string
	for _, ev := range evs {
		b, _ := json.Marshal(struct {
			adapter.Event
			Data json.RawMessage `json:"data,omitempty"`
		}{Event: ev})
		parts = append(parts, string(b))
	}
	return strings.Join(parts, "; ")
}

// progressWhileRunning: Then a tool_progress event for "X" arrives through
// run() | subscribe() while the call is still running — the call is held
// at a latch that only a later step releases, so an implementation that
// holds progress back until the call ends never delivers it in time.
func (w *world) progressWhileRunning(ctx context.Context, tool, via string) error {
	v := strings.TrimSuffix(via, "()")
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	_, err := w.log.Wait(sctx, func(rs []record.Record) bool {
		for _, r := range hostRecordsOf(rs, "event") {
			var ev adapter.Event
			_ = json.Unmarshal(r.Params, &ev)
			if ev.Type == "tool_progress" && ev.Name == tool && ev.Via == v {
				return true
			}
		}
		return false
	})
	if err != nil {
		return w.expect(false, fmt.Sprintf("a tool_progress event for %s through %s while the call runs", tool, via), "none came in time: %s", describeEvents(w.host.allEvents()))
	}
	if w.bg != nil {
		select {
		case <-w.bg.done:
			return w.expect(false, "the call is still running when its progress arrives", "%s had already ended", w.bg.what)
		default:
		}
	}
	return w.expect(true, "", "")
}
