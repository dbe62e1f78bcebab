package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// host answers the implementation's calls back into its host for one
// scenario: the scripted model, the approval handler, the event sink, the
// hooks and the host-defined tools. Every call is recorded in the world's
// log, so that it is ordered with what the fakes observed.
type host struct {
	log *record.Log

	mu        sync.Mutex
	turns     []modelTurn // scripted model answers, in order
	calls     int         // scripted tool calls so far, for their ids
	requests  []adapter.ModelRequest
	finals    []string // the final texts the model answered with
	approvals []adapter.ApprovalRequest
	denied    []string // capability names the approval handler denies
	hang      []string // capability names the handler waits on until cancelled
	failing   []string // capability names the handler fails for
	cancelled []string // capability names whose approval was cancelled
	hooks     []adapter.HookEvent
	// onHook, when set, runs inside every hook call: what a scenario's
	// hook does (e.g. call register()).
	onHook func(ctx context.Context, h adapter.HookEvent)
	// tools are the host-defined tools, by name.
	tools map[string]*hostTool
	// oauth is the host's OAuth side (hostoauth.go), under its own lock.
	oauth hostOAuth
	// permits are a Blade permission callback's answers by tool name,
	// permitDefault its answer for others ("ask" when empty), and
	// permissions the requests it got.
	permits       map[string]string
	permitDefault string
	permissions   []adapter.PermissionRequest
	// inproc serves Blade in-process tool handlers (steps_blade_inprocess.go).
	inproc inProcessHost
}

// modelTurn computes one scripted model answer from the request it
// answers: most turns are fixed, some read the tool results so far (the
// context reference the model was given).
type modelTurn func(ctx context.Context, req adapter.ModelRequest) (adapter.ModelResponse, error)

// hostTool is a tool the scenario defines on the host side.
type hostTool struct {
	def adapter.CustomTool
	// validator checks input for a "standard" schema's validate().
	validator *jsonschema.Resolved
	// result is what execute() returns: a JSON string or {content, isError}.
	result json.RawMessage
	// latch, when set, is where execute() waits until the runner releases
	// it.
	latch string
	// validations and executions count the calls.
	validations, executions int
}

var _ adapter.Host = (*host)(nil)

var _ adapter.ArrivalRecorder = (*host)(nil)

// Every callback has two parts: what it does as it arrives (it is recorded
// in the log, takes its scripted turn, counts), and what serves it, which
// may wait. A callback the implementation makes in process arrives when it
// is made; one from an adapter process arrives when the runner reads it
// ([adapter.ArrivalRecorder]), so that the log orders callbacks as the
// implementation made them even though each is served in a goroutine of
// its own.

// servedKey is the context key of what serves an arrived callback.
type servedKey struct{}

// Arrived implements [adapter.ArrivalRecorder].
func (h *host) Arrived(ctx context.Context, cb adapter.Callback, req any) context.Context {
	return context.WithValue(ctx, servedKey{}, h.arrive(req))
}

// arrive does what a callback does as it arrives and returns what serves
// it: a func(context.Context) (T, error) with the callback's result type
// T.
func (h *host) arrive(req any) any {
	switch r := req.(type) {
	case adapter.ModelRequest:
		return h.arriveModel(r)
	case adapter.ApprovalRequest:
		return h.arriveApprove(r)
	case adapter.Event:
		return h.arriveEvent(r)
	case adapter.HookEvent:
		return h.arriveHook(r)
	case adapter.ValidateRequest:
		return h.arriveValidate(r)
	case adapter.ExecuteRequest:
		return h.arriveExecute(r)
	case adapter.AuthorizeRequest:
		return h.arriveAuthorize(r)
	case adapter.ProviderCall:
		return h.arriveProvider(r)
	case adapter.PermissionRequest:
		return h.arrivePermission(r)
	case adapter.InProcessToolRequest:
		return h.arriveInProcessTool(r)
	}
	return nil
}

// serve serves a callback: with what arrived for it when ctx carries that,
// and otherwise by arriving now.
func serve[T any](ctx context.Context, arrive func() any) (T, error) {
	k, ok := ctx.Value(servedKey{}).(func(context.Context) (T, error))
	if !ok {
		k, ok = arrive().(func(context.Context) (T, error))
	}
	if !ok {
		var zero T
		return zero, fmt.Errorf("the runner cannot serve a %T callback", zero)
	}
	return k(ctx)
}

// answer serves a callback whose answer is known as it arrives.
func answer[T any](v T, err error) func(context.Context) (T, error) {
	return func(context.Context) (T, error) { return v, err }
}

// Model answers with the next scripted turn, or final text once the script
// is used up.
func (h *host) Model(ctx context.Context, req adapter.ModelRequest) (adapter.ModelResponse, error) {
	return serve[adapter.ModelResponse](ctx, func() any { return h.arriveModel(req) })
}

func (h *host) arriveModel(req adapter.ModelRequest) func(context.Context) (adapter.ModelResponse, error) {
	h.mu.Lock()
	h.requests = append(h.requests, req)
	var turn modelTurn
	if len(h.turns) > 0 {
		turn, h.turns = h.turns[0], h.turns[1:]
	}
	h.mu.Unlock()
	params, _ := json.Marshal(req)
	h.log.Append(record.Record{Kind: record.KindHost, Method: "model", Params: params})
	return func(ctx context.Context) (adapter.ModelResponse, error) {
		resp := adapter.ModelResponse{Text: "done"}
		if turn != nil {
			var err error
			if resp, err = turn(ctx, req); err != nil {
				return resp, err
			}
		}
		if len(resp.ToolCalls) == 0 {
			add(h, &h.finals, resp.Text)
		}
		return resp, nil
	}
}

// Approve allows everything except the capabilities scripted to be
// denied, or to wait until the approval is cancelled (its signal).
func (h *host) Approve(ctx context.Context, req adapter.ApprovalRequest) (adapter.Decision, error) {
	return serve[adapter.Decision](ctx, func() any { return h.arriveApprove(req) })
}

func (h *host) arriveApprove(req adapter.ApprovalRequest) func(context.Context) (adapter.Decision, error) {
	h.mu.Lock()
	h.approvals = append(h.approvals, req)
	deny := slices.Contains(h.denied, req.Name)
	hang := slices.Contains(h.hang, req.Name)
	fail := slices.Contains(h.failing, req.Name)
	h.mu.Unlock()
	params, _ := json.Marshal(req)
	h.log.Append(record.Record{Kind: record.KindHost, Method: "approval", Server: req.Server, Params: params})
	switch {
	case hang:
		return func(ctx context.Context) (adapter.Decision, error) {
			<-ctx.Done()
			h.mu.Lock()
			h.cancelled = append(h.cancelled, req.Name)
			h.mu.Unlock()
			h.log.Append(record.Record{Kind: record.KindHost, Method: "approval-cancelled", Server: req.Server, Params: params})
			return adapter.Deny, ctx.Err()
		}
	case fail:
		return answer(adapter.Deny, errors.New("the scenario's approval handler fails"))
	case deny:
		return answer(adapter.Deny, nil)
	}
	return answer(adapter.Allow, nil)
}

// Permission is the scenario's Blade permission callback: it answers as
// scripted, "ask" by default.
func (h *host) Permission(ctx context.Context, req adapter.PermissionRequest) (string, error) {
	return serve[string](ctx, func() any { return h.arrivePermission(req) })
}

func (h *host) arrivePermission(req adapter.PermissionRequest) func(context.Context) (string, error) {
	params, _ := json.Marshal(req)
	h.log.Append(record.Record{Kind: record.KindHost, Method: "permission", Params: params})
	h.mu.Lock()
	defer h.mu.Unlock()
	h.permissions = append(h.permissions, req)
	if d, ok := h.permits[req.ToolName]; ok {
		return answer(d, nil)
	}
	if h.permitDefault != "" {
		return answer(h.permitDefault, nil)
	}
	return answer("ask", nil)
}

// Event records an event, in the world's log too, so that it is ordered
// with what the fakes observed.
func (h *host) Event(ctx context.Context, ev adapter.Event) {
	_, _ = serve[struct{}](ctx, func() any { return h.arriveEvent(ev) })
}

// The log is the only record of events (allEvents): an adapter may send
// thousands of them, and each as large as a line.
func (h *host) arriveEvent(ev adapter.Event) func(context.Context) (struct{}, error) {
	params, _ := json.Marshal(ev)
	h.log.Append(record.Record{Kind: record.KindHost, Method: "event", Params: params})
	return answer(struct{}{}, nil)
}

// Hook records a hook call and runs the scenario's hook action.
func (h *host) Hook(ctx context.Context, ev adapter.HookEvent) error {
	_, err := serve[struct{}](ctx, func() any { return h.arriveHook(ev) })
	return err
}

func (h *host) arriveHook(ev adapter.HookEvent) func(context.Context) (struct{}, error) {
	h.mu.Lock()
	h.hooks = append(h.hooks, ev)
	act := h.onHook
	h.mu.Unlock()
	params, _ := json.Marshal(ev)
	h.log.Append(record.Record{Kind: record.KindHost, Method: "hook", Params: params})
	return func(ctx context.Context) (struct{}, error) {
		if act != nil {
			act(ctx, ev)
		}
		return struct{}{}, nil
	}
}

// Validate is the validate() of a host tool's standard schema: it checks
// the input against the tool's JSON Schema.
func (h *host) Validate(ctx context.Context, req adapter.ValidateRequest) ([]string, error) {
	return serve[[]string](ctx, func() any { return h.arriveValidate(req) })
}

func (h *host) arriveValidate(req adapter.ValidateRequest) func(context.Context) ([]string, error) {
	h.mu.Lock()
	t := h.tools[req.Tool]
	if t != nil {
		t.validations++
	}
	h.mu.Unlock()
	params, _ := json.Marshal(req)
	h.log.Append(record.Record{Kind: record.KindHost, Method: "validate", Params: params})
	if t == nil || t.validator == nil {
		return answer[[]string](nil, fmt.Errorf("the host has no tool %q with a standard schema", req.Tool))
	}
	var v any
	if err := json.Unmarshal(req.Input, &v); err != nil {
		return answer([]string{"the input is not JSON: " + err.Error()}, nil)
	}
	if err := t.validator.Validate(v); err != nil {
		return answer([]string{err.Error()}, nil)
	}
	return answer[[]string](nil, nil)
}

// Execute runs a host tool: it returns the tool's scripted result.
func (h *host) Execute(ctx context.Context, req adapter.ExecuteRequest) (json.RawMessage, error) {
	return serve[json.RawMessage](ctx, func() any { return h.arriveExecute(req) })
}

func (h *host) arriveExecute(req adapter.ExecuteRequest) func(context.Context) (json.RawMessage, error) {
	h.mu.Lock()
	t := h.tools[req.Tool]
	if t != nil {
		t.executions++
	}
	h.mu.Unlock()
	params, _ := json.Marshal(req)
	h.log.Append(record.Record{Kind: record.KindHost, Method: "execute", Params: params})
	return func(ctx context.Context) (json.RawMessage, error) {
		defer h.log.Append(record.Record{Kind: record.KindHost, Method: "execute-end", Params: params})
		if t == nil {
			return nil, fmt.Errorf("the host has no tool %q", req.Tool)
		}
		h.mu.Lock()
		latch, result := t.latch, t.result
		h.mu.Unlock()
		if latch != "" {
			if err := h.log.WaitLatch(ctx, record.Record{Server: "host", Instance: "host", Method: latch}); err != nil {
				return nil, err
			}
		}
		if result == nil {
			return json.RawMessage(`"ok"`), nil
		}
		return result, nil
	}
}

// script adds fixed model turns.
func (h *host) script(turns ...adapter.ModelResponse) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, t := range turns {
		h.turns = append(h.turns, func(context.Context, adapter.ModelRequest) (adapter.ModelResponse, error) { return t, nil })
	}
}

// scriptTurn adds a computed model turn.
func (h *host) scriptTurn(t modelTurn) { add(h, &h.turns, t) }

// scriptNext makes t the next model turn, before the scripted ones: a
// turn that goes on over several requests puts itself back.
func (h *host) scriptNext(t modelTurn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.turns = append([]modelTurn{t}, h.turns...)
}

// hookEvents returns the hook calls so far.
func (h *host) hookEvents() []adapter.HookEvent { return snapshot(h, &h.hooks) }

// allEvents returns the events so far, from the log.
func (h *host) allEvents() []adapter.Event {
	var out []adapter.Event
	for _, r := range hostRecordsOf(h.log.Records(), "event") {
		var ev adapter.Event
		if json.Unmarshal(r.Params, &ev) == nil {
			out = append(out, ev)
		}
	}
	return out
}

// deny makes the approval handler deny a capability.
func (h *host) deny(name string) { add(h, &h.denied, name) }

// modelRequests returns the model requests so far.
func (h *host) modelRequests() []adapter.ModelRequest { return snapshot(h, &h.requests) }

// approvalRequests returns the approval requests so far.
func (h *host) approvalRequests() []adapter.ApprovalRequest { return snapshot(h, &h.approvals) }

// errorEvents returns the error events about server alias.
func (h *host) errorEvents(alias string) []adapter.Event {
	var out []adapter.Event
	for _, e := range h.allEvents() {
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

// snapshot returns a copy of one of the host's records, taken under its
// lock.
func snapshot[T any](h *host, s *[]T) []T {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(*s)
}

// add appends to one of the host's lists under its lock.
func add[T any](h *host, s *[]T, v T) {
	h.mu.Lock()
	defer h.mu.Unlock()
	*s = append(*s, v)
}
