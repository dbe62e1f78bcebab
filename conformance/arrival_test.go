package conformance

import (
	"context"
	"slices"
	"testing"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// TestCallbacksAreRecordedAsTheyArrive: callbacks that arrive in one
// order (an adapter process's stdout) and are served in another (one
// goroutine each) are in the log in the order they arrived, take their
// scripted turns in that order, and are late only if they arrived after
// close() returned.
func TestCallbacksAreRecordedAsTheyArrive(t *testing.T) {
	w := &world{log: record.NewLog()}
	w.host = &host{log: w.log}
	w.host.script(adapter.ModelResponse{Text: "first"}, adapter.ModelResponse{Text: "second"})
	v := &hostView{w: w, h: w.host, agent: "agent 1"}
	bg := context.Background()

	hook := v.Arrived(bg, adapter.CallHook, adapter.HookEvent{Type: "tool:start", ID: "c1", Name: "mcp__p__a"})
	event := v.Arrived(bg, adapter.CallEvent, adapter.Event{Type: "tool_progress", ID: "c1"})
	model1 := v.Arrived(bg, adapter.CallModel, adapter.ModelRequest{System: "one"})
	model2 := v.Arrived(bg, adapter.CallModel, adapter.ModelRequest{System: "two"})
	approve := v.Arrived(bg, adapter.CallApprove, adapter.ApprovalRequest{Name: "mcp_connect", Server: "p"})
	v.AgentClosed()
	late := v.Arrived(bg, adapter.CallEvent, adapter.Event{Type: "tool_progress", ID: "c2"})

	// Served last to first.
	v.Event(late, adapter.Event{Type: "tool_progress", ID: "c2"})
	if d, err := v.Approve(approve, adapter.ApprovalRequest{Name: "mcp_connect", Server: "p"}); d != adapter.Allow || err != nil {
		t.Errorf("an approval that arrived before close() returned, served after: %v %v; want allow", d, err)
	}
	r2, _ := v.Model(model2, adapter.ModelRequest{System: "two"})
	r1, _ := v.Model(model1, adapter.ModelRequest{System: "one"})
	v.Event(event, adapter.Event{Type: "tool_progress", ID: "c1"})
	if err := v.Hook(hook, adapter.HookEvent{Type: "tool:start", ID: "c1", Name: "mcp__p__a"}); err != nil {
		t.Error(err)
	}

	var got []string
	for _, r := range w.log.Records() {
		got = append(got, r.Method)
	}
	if want := []string{"hook", "event", "model", "model", "approval", "after-close"}; !slices.Equal(got, want) {
		t.Errorf("the log\n  Expected: %v\n  Actual:   %v", want, got)
	}
	if r1.Text != "first" || r2.Text != "second" {
		t.Errorf("the model requests got %q and %q: want the turns in the order the requests arrived", r1.Text, r2.Text)
	}
	if evs := w.host.allEvents(); len(evs) != 1 || evs[0].ID != "c1" {
		t.Errorf("events %+v: want the one before close() only", evs)
	}
	if _, _, lates, _ := w.obs.snapshot(); len(lates) != 1 {
		t.Errorf("late callbacks %q: want the event that arrived after close()", lates)
	}
}
