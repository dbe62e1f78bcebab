package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Steps about the events an implementation emits (LA-EVT).

// registerEventSteps defines the steps whose methods are in this file.
func (w *world) registerEventSteps(sc stepDefiner) {
	sc.Step(`^the agent emitted a tool_progress event for the call of "([^"]*)" with progress ([\d.]+)(?:, total ([\d.]+) and message "([^"]*)"|( and no total or message))$`, w.progressEvent)
	sc.Step(`^a tool_progress event for "([^"]*)" arrives through (run\(\)|subscribe\(\)) while the call is still running$`, w.progressWhileRunning)
	sc.Step(`^each progress notification "([^"]*)" sent became exactly one tool_progress event for "([^"]*)" (through run\(\) and through subscribe\(\)|through subscribe\(\)), in the order sent$`, w.progressOnce)
}

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

// progressOnce: Then each progress notification "docs" sent became exactly
// one tool_progress event for "mcp__docs__search" through run() and through
// subscribe(), in the order sent — in each sink named, the events of the
// tool's calls are the notifications the fake sent, one for one: none
// repeated, merged or lost (interpretation A-40).
func (w *world) progressOnce(name, tool, sinks string) error {
	type step struct {
		progress float64
		total    *float64
		message  *string
	}
	show := func(ss []step) string { // what an adapter sends is capped
		var parts []string
		for i, s := range ss {
			if i == 20 {
				parts = append(parts, fmt.Sprintf("… %d more", len(ss)-i))
				break
			}
			p := fmt.Sprintf("%g", s.progress)
			if s.total != nil {
				p += fmt.Sprintf("/%g", *s.total)
			}
			if s.message != nil {
				p += fmt.Sprintf(" %q", safetext.Cap(*s.message, 60))
			}
			parts = append(parts, p)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	var sent []step
	for _, r := range sentBy(w.log.Records(), name, "notifications/progress") {
		var p struct {
			Progress float64  `json:"progress"`
			Total    *float64 `json:"total"`
			Message  *string  `json:"message"`
		}
		if err := json.Unmarshal(r.Params, &p); err != nil {
			return fmt.Errorf("a progress notification %q sent does not decode: %w", name, err)
		}
		sent = append(sent, step{p.Progress, p.Total, p.Message})
	}
	if err := w.expect(len(sent) > 0, fmt.Sprintf("%q sent progress notifications", name), "it sent none"); err != nil {
		return err
	}
	ids := w.callIDs(tool)
	got := map[string][]step{}
	for _, ev := range w.host.allEvents() {
		if ev.Type == "tool_progress" && ev.Name == tool && ids[ev.ID] && ev.Progress != nil {
			got[ev.Via] = append(got[ev.Via], step{*ev.Progress, ev.Total, ev.Message})
		}
	}
	for _, via := range []string{"run", "subscribe"} {
		if !strings.Contains(sinks, via+"()") {
			continue
		}
		ok := len(got[via]) == len(sent)
		for i := 0; ok && i < len(sent); i++ {
			g, s := got[via][i], sent[i]
			ok = g.progress == s.progress && reflect.DeepEqual(g.total, s.total) && reflect.DeepEqual(g.message, s.message)
		}
		if err := w.expect(ok, fmt.Sprintf("through %s() the %d notifications %q sent, once each, in order: %s", via, len(sent), name, show(sent)),
			"%d events: %s", len(got[via]), show(got[via])); err != nil {
			return err
		}
	}
	return nil
}
