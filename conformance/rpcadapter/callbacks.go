package rpcadapter

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	segjson "github.com/segmentio/encoding/json"
)

// The runner's side of host callbacks: every host/* message is decoded as
// it arrives, in the goroutine that reads the connection, and its host is
// told of it in that order ([adapter.ArrivalRecorder]); it is then served
// in a goroutine of its own.

// callback is a host/* method: which [adapter.Callback] it is, and how its
// params decode into the agent they name and the request the host gets.
type callback struct {
	cb     adapter.Callback
	decode func(json.RawMessage) (agentID string, request any, err error)
}

// paramsOf returns the decoder of params P, whose agent and request get
// takes.
func paramsOf[P any](get func(P) (string, any)) func(json.RawMessage) (string, any, error) {
	return func(raw json.RawMessage) (string, any, error) {
		var p P
		if err := segjson.Unmarshal(raw, &p); err != nil {
			return "", nil, err
		}
		id, req := get(p)
		return id, req, nil
	}
}

// callbacks are the host/* methods of the protocol.
var callbacks = map[string]callback{
	MethodModel:         {adapter.CallModel, paramsOf(func(p ModelParams) (string, any) { return p.AgentID, p.Request })},
	MethodApprove:       {adapter.CallApprove, paramsOf(func(p ApproveParams) (string, any) { return p.AgentID, p.Request })},
	MethodEvent:         {adapter.CallEvent, paramsOf(func(p EventParams) (string, any) { return p.AgentID, p.Event })},
	MethodHook:          {adapter.CallHook, paramsOf(func(p HookParams) (string, any) { return p.AgentID, p.Hook })},
	MethodValidate:      {adapter.CallValidate, paramsOf(func(p ValidateParams) (string, any) { return p.AgentID, p.Request })},
	MethodExecute:       {adapter.CallExecute, paramsOf(func(p ExecuteParams) (string, any) { return p.AgentID, p.Request })},
	MethodAuthorize:     {adapter.CallAuthorize, paramsOf(func(p AuthorizeParams) (string, any) { return p.AgentID, p.Request })},
	MethodProvider:      {adapter.CallProvider, paramsOf(func(p ProviderParams) (string, any) { return p.AgentID, p.Call })},
	MethodPermission:    {adapter.CallPermission, paramsOf(func(p PermissionParams) (string, any) { return p.AgentID, p.Request })},
	MethodInProcessTool: {adapter.CallInProcessTool, paramsOf(func(p InProcessToolParams) (string, any) { return p.AgentID, p.Request })},
}

// arrival is a host callback as it arrived.
type arrival struct {
	cb      adapter.Callback
	host    adapter.Host // nil for an unknown agent
	agentID string
	request any
	err     error // the params did not decode
}

type arrivalKey struct{}

// arrive is the connection's Arrive: it decodes a host callback and tells
// its host, in the order callbacks arrive.
func (p *process) arrive(ctx context.Context, method string, params json.RawMessage) context.Context {
	c, ok := callbacks[method]
	if !ok {
		return ctx
	}
	a := &arrival{cb: c.cb}
	a.agentID, a.request, a.err = c.decode(params)
	if a.err == nil {
		p.mu.Lock()
		a.host = p.hosts[a.agentID]
		p.mu.Unlock()
	}
	ctx = context.WithValue(ctx, arrivalKey{}, a)
	if r, ok := a.host.(adapter.ArrivalRecorder); ok {
		ctx = r.Arrived(ctx, a.cb, a.request)
	}
	return ctx
}

// handle answers the adapter's host/* requests and notifications, as
// arrive decoded them.
func (p *process) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	a, _ := ctx.Value(arrivalKey{}).(*arrival)
	switch {
	case a == nil:
		return nil, &adapter.Error{Kind: adapter.KindUnsupported, Message: fmt.Sprintf("the runner has no method %q", method)}
	case a.err != nil:
		return nil, &adapter.Error{Kind: adapter.KindInternal, Message: fmt.Sprintf("the params of %s do not decode: %v", method, a.err)}
	case a.host == nil:
		return nil, &adapter.Error{Kind: adapter.KindNotFound, Message: fmt.Sprintf("%s names an unknown agent %q", method, a.agentID)}
	}
	h := a.host
	switch req := a.request.(type) {
	case adapter.ModelRequest:
		return h.Model(ctx, req)
	case adapter.ApprovalRequest:
		d, err := h.Approve(ctx, req)
		return ApproveResult{Decision: d}, err
	case adapter.Event:
		h.Event(ctx, req)
		return nil, nil
	case adapter.HookEvent:
		return empty{}, h.Hook(ctx, req)
	case adapter.ValidateRequest:
		issues, err := h.Validate(ctx, req)
		return ValidateResult{Issues: orEmpty(issues)}, err
	case adapter.ExecuteRequest:
		res, err := h.Execute(ctx, req)
		return ExecuteResult{Result: res}, err
	case adapter.AuthorizeRequest:
		cb, err := h.Authorize(ctx, req)
		return AuthorizeResult{CallbackURL: cb}, err
	case adapter.ProviderCall:
		v, err := h.Provider(ctx, req)
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		return ProviderResult{Value: v}, err
	case adapter.PermissionRequest:
		d, err := h.Permission(ctx, req)
		return PermissionResult{Decision: d}, err
	case adapter.InProcessToolRequest:
		ih, ok := h.(adapter.InProcessHost)
		if !ok {
			return nil, &adapter.Error{Kind: adapter.KindUnsupported, Message: "the runner's host serves no in-process tool handlers"}
		}
		return ih.InProcessTool(ctx, req)
	}
	return nil, &adapter.Error{Kind: adapter.KindInternal, Message: fmt.Sprintf("the runner cannot serve %s", method)}
}
