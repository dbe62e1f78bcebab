package reference

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SystemPrompt is the system prompt of every run. Server instructions are
// never added to it (LA-SEC-12).
const SystemPrompt = "You are an agent. Use the tools offered when they help."

// maxTurns bounds the model round trips of one run.
const maxTurns = 64

// Send runs one turn with the user prompt (agent.send()). Before the model
// is asked anything, every declared server that is not connected yet is
// authorized, connected, discovered and validated (LA-CFG-12); a server
// that fails makes Send fail, naming it, while the others stay connected.
// Cancelling ctx cancels the run.
func (a *Agent) Send(ctx context.Context, prompt string) (*Response, error) {
	if a.opts.Model == nil {
		return nil, newError(KindConfig, "", "the agent has no model")
	}
	ctx, done, err := a.begin(ctx, "a run")
	if err != nil {
		return nil, err
	}
	defer done()
	if a.mut.has(MutHotReload) {
		a.reload()
	}
	msgs := []Message{{Role: "user", Text: prompt}}
	if a.mut.has(MutModelFirst) {
		if _, err := a.opts.Model.Complete(ctx, ModelRequest{System: SystemPrompt, Messages: msgs}); err != nil {
			return nil, err
		}
	}
	if err := a.reg.connectPending(ctx); err != nil {
		return nil, err
	}
	tools := a.visible(a.reg.catalog())
	specs := make([]ToolSpec, len(tools))
	for i, t := range tools {
		specs[i] = t.spec()
	}
	for range maxTurns {
		resp, err := a.opts.Model.Complete(ctx, ModelRequest{System: SystemPrompt, Messages: slices.Clone(msgs), Tools: specs})
		if err != nil {
			if ctx.Err() != nil {
				return nil, cancelled(ctx, "the run")
			}
			return nil, &Error{Kind: KindInternal, Msg: "the model failed", Err: err}
		}
		if len(resp.ToolCalls) == 0 {
			return &Response{Text: resp.Text}, nil
		}
		msgs = append(msgs, Message{Role: "assistant", Text: resp.Text, ToolCalls: resp.ToolCalls})
		for _, call := range resp.ToolCalls {
			text, isError := a.runTool(ctx, tools, call)
			if ctx.Err() != nil {
				return nil, cancelled(ctx, "the run")
			}
			msgs = append(msgs, Message{Role: "tool", ToolCallID: call.ID, Text: text, IsError: isError})
		}
	}
	return nil, newError(KindLimit, "", "the run exceeded %d model turns", maxTurns)
}

// visible filters the catalog by [Options.AllowedTools] (LA-SEC-08).
func (a *Agent) visible(tools []*tool) []*tool {
	if a.opts.AllowedTools == nil {
		return tools
	}
	return slices.DeleteFunc(slices.Clone(tools), func(t *tool) bool { return !slices.Contains(a.opts.AllowedTools, t.full) })
}

// runTool runs one tool call of the model and returns the tool result as
// the model sees it. Every failure becomes a tool error; the run goes on.
func (a *Agent) runTool(ctx context.Context, tools []*tool, call ToolCall) (string, bool) {
	i := slices.IndexFunc(tools, func(t *tool) bool { return t.full == call.Name })
	if i < 0 {
		return fmt.Sprintf("tool %q is not available", call.Name), true
	}
	t := tools[i]
	args := call.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if a.mut.has(MutIgnoreAbort) {
		ctx = context.WithoutCancel(ctx)
	}
	if err := a.authorize(ctx, t.full, ApprovalRequest{Capability: t.full, Server: t.server, Tool: t.raw, Input: args}); err != nil {
		return err.Error(), true
	}
	var input any
	if err := json.Unmarshal(args, &input); err != nil {
		return fmt.Sprintf("LA-VAL-01: the arguments of %q are not JSON: %v", t.full, err), true
	}
	if err := t.input.Validate(input); err != nil {
		return fmt.Sprintf("LA-VAL-01: the arguments of %q do not match its input schema: %v", t.full, err), true
	}
	if t.conn.isLost() {
		return fmt.Sprintf("the connection to server %q was lost; it is connected again when the agent is idle, and this call was not sent", t.server), true
	}
	timeout := t.conn.timeout
	switch {
	case a.mut.has(MutIgnoreTimeoutMs):
		timeout = DefaultTimeout
	case a.mut.has(MutCallTimeout20) && timeout == DefaultTimeout:
		timeout = 20 * time.Second
	}
	cctx, cancel := a.opts.Clock.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := t.conn.session.CallTool(cctx, &mcp.CallToolParams{Name: t.raw, Arguments: args})
	if err != nil && a.mut.has(MutRetryOnce) {
		res, err = a.replay(ctx, t, args, timeout, cctx.Err() == nil)
	}
	if err != nil {
		if lerr := t.conn.limitError(t.server); lerr != nil {
			return lerr.Error(), true
		}
		if cctx.Err() != nil {
			t.conn.cancelledCall()
			return cancelled(cctx, fmt.Sprintf("the call of %q (its outcome is unknown and it is not retried)", t.full)).Error(), true
		}
		return fmt.Sprintf("the call of %q failed (its outcome is unknown and it is not retried): %v", t.full, err), true
	}
	return project(res)
}

// project turns a tool result into the JSON projection the model sees.
func project(res *mcp.CallToolResult) (string, bool) {
	type item struct {
		Type string `json:"type"`
		Text string `json:"text,omitempty"`
		URI  string `json:"uri,omitempty"`
		Name string `json:"name,omitempty"`
	}
	var p struct {
		Content           []item `json:"content"`
		StructuredContent any    `json:"structuredContent,omitempty"`
		IsError           bool   `json:"isError,omitempty"`
	}
	p.Content = []item{}
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			p.Content = append(p.Content, item{Type: "text", Text: c.Text})
		case *mcp.ResourceLink:
			p.Content = append(p.Content, item{Type: "resource_link", URI: c.URI, Name: c.Name})
		}
	}
	p.StructuredContent = res.StructuredContent
	p.IsError = res.IsError
	b, err := json.Marshal(p)
	if err != nil {
		return "the tool result cannot be projected: " + err.Error(), true
	}
	return string(b), res.IsError
}

// authorize applies the permission policy to name and, when it asks,
// the approval handler; with no handler the answer is deny (LA-SEC-02..06).
func (a *Agent) authorize(ctx context.Context, name string, req ApprovalRequest) error {
	rule := "LA-SEC-03"
	if name == ConnectCapability {
		rule = "LA-SEC-02"
	}
	switch a.opts.Permission.decide(name) {
	case verdictDeny:
		return &Error{Kind: KindPermission, Rule: rule, Source: req.Server, Msg: fmt.Sprintf("%s is denied by the permission policy", name)}
	case verdictAllow:
		return nil
	}
	if a.opts.Approval == nil {
		return &Error{Kind: KindPermission, Rule: "LA-SEC-06", Source: req.Server, Msg: fmt.Sprintf("%s needs approval and the host has no approval handler", name)}
	}
	d, err := a.opts.Approval.Request(ctx, req)
	if ctx.Err() != nil {
		return cancelled(ctx, "waiting for approval of "+name)
	}
	if err != nil {
		return &Error{Kind: KindPermission, Rule: "LA-SEC-07", Source: req.Server, Msg: fmt.Sprintf("the approval handler failed for %s, which counts as deny", name), Err: err}
	}
	if d != Allow {
		return &Error{Kind: KindPermission, Rule: rule, Source: req.Server, Msg: fmt.Sprintf("%s was denied (%q)", name, d)}
	}
	return nil
}

// reload reads the configuration files again and adds servers that are new
// in them. It exists only for [MutHotReload]: the reference reads its
// configuration once, at construction (LA-CFG-14).
func (a *Agent) reload() {
	servers, err := a.loadConfig()
	if err != nil {
		return
	}
	a.reg.mu.Lock()
	defer a.reg.mu.Unlock()
	for _, s := range servers {
		if !slices.ContainsFunc(a.reg.servers, func(o *server) bool { return o.name == s.name }) {
			a.reg.servers = append(a.reg.servers, s)
		}
	}
}

// replay sends a failed call again, reconnecting first when the call did
// not time out (the connection broke). It exists only for [MutRetryOnce]:
// the reference never sends a call whose outcome is unknown again
// (LA-TMO-06).
func (a *Agent) replay(ctx context.Context, t *tool, args json.RawMessage, timeout time.Duration, broken bool) (*mcp.CallToolResult, error) {
	conn := t.conn
	if broken {
		nc, err := a.reg.reconnect(ctx, t.server)
		if err != nil {
			return nil, err
		}
		conn = nc
	}
	rctx, cancel := a.opts.Clock.WithTimeout(ctx, timeout)
	defer cancel()
	return conn.session.CallTool(rctx, &mcp.CallToolParams{Name: t.raw, Arguments: args})
}
