package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// host answers the implementation's calls back into its host for one
// scenario: the scripted model, the approval handler and the event sink.
// Every call is recorded in the world's log, so that it is ordered with
// what the fakes observed.
type host struct {
	log *record.Log

	mu        sync.Mutex
	turns     []adapter.ModelResponse // scripted model answers, in order
	requests  []adapter.ModelRequest
	approvals []adapter.ApprovalRequest
	denied    []string // capability names the approval handler denies
	hang      []string // capability names the handler waits on until cancelled
	cancelled []string // capability names whose approval was cancelled
	events    []adapter.Event
}

var _ adapter.Host = (*host)(nil)

// Model answers with the next scripted turn, or final text once the script
// is used up.
func (h *host) Model(ctx context.Context, req adapter.ModelRequest) (adapter.ModelResponse, error) {
	h.mu.Lock()
	h.requests = append(h.requests, req)
	resp := adapter.ModelResponse{Text: "done"}
	if len(h.turns) > 0 {
		resp, h.turns = h.turns[0], h.turns[1:]
	}
	h.mu.Unlock()
	params, _ := json.Marshal(req)
	h.log.Append(record.Record{Kind: record.KindHost, Method: "model", Params: params})
	return resp, nil
}

// Approve allows everything except the capabilities scripted to be
// denied, or to wait until the approval is cancelled (its signal).
func (h *host) Approve(ctx context.Context, req adapter.ApprovalRequest) (adapter.Decision, error) {
	h.mu.Lock()
	h.approvals = append(h.approvals, req)
	deny := slices.Contains(h.denied, req.Name)
	hang := slices.Contains(h.hang, req.Name)
	h.mu.Unlock()
	params, _ := json.Marshal(req)
	h.log.Append(record.Record{Kind: record.KindHost, Method: "approval", Server: req.Server, Params: params})
	if hang {
		<-ctx.Done()
		h.mu.Lock()
		h.cancelled = append(h.cancelled, req.Name)
		h.mu.Unlock()
		h.log.Append(record.Record{Kind: record.KindHost, Method: "approval-cancelled", Server: req.Server, Params: params})
		return adapter.Deny, ctx.Err()
	}
	if deny {
		return adapter.Deny, nil
	}
	return adapter.Allow, nil
}

// Event records an event.
func (h *host) Event(ctx context.Context, ev adapter.Event) {
	h.mu.Lock()
	h.events = append(h.events, ev)
	h.mu.Unlock()
}

// script adds scripted model turns.
func (h *host) script(turns ...adapter.ModelResponse) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.turns = append(h.turns, turns...)
}

// deny makes the approval handler deny a capability.
func (h *host) deny(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.denied = append(h.denied, name)
}

// modelRequests returns the model requests so far.
func (h *host) modelRequests() []adapter.ModelRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.requests)
}

// approvalRequests returns the approval requests so far.
func (h *host) approvalRequests() []adapter.ApprovalRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.approvals)
}

// errorEvents returns the error events about server alias.
func (h *host) errorEvents(alias string) []adapter.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []adapter.Event
	for _, e := range h.events {
		if e.Type == "error" && e.Server == alias {
			out = append(out, e)
		}
	}
	return out
}

// mcpTools returns the sorted MCP tool names of a model request.
func mcpTools(req adapter.ModelRequest) []string {
	var names []string
	for _, t := range req.Tools {
		if strings.HasPrefix(t.Name, "mcp__") {
			names = append(names, t.Name)
		}
	}
	slices.Sort(names)
	return names
}

// describeRequests summarizes the MCP tools of model requests for failure
// messages.
func describeRequests(reqs []adapter.ModelRequest) string {
	if len(reqs) == 0 {
		return "the model received no request"
	}
	var parts []string
	for i, r := range reqs {
		parts = append(parts, fmt.Sprintf("request %d: %v", i+1, mcpTools(r)))
	}
	return strings.Join(parts, "; ")
}
