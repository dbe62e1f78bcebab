package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/internal/jsontext"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// What the world sees of an implementation, whatever the steps look at:
// every agent the world creates is an [observedAgent] and calls back
// through its own [hostView], so that the end-of-scenario invariants
// (invariants.go) can check everything the implementation showed its host
// (list() entries, errors, Blade statuses) and everything it did after
// close() returned, in every scenario.

// observations is what the world's agents showed their host besides the
// host callbacks, which the host records itself.
type observations struct {
	mu       sync.Mutex
	surfaces []surface // values shown to the host, for the secret sweep
	configs  []string  // server entries the world handed the implementation
	replies  []string  // what successful send() and run() calls returned
	effects  int       // non-empty results and contract errors the agents returned
	late     []string  // host callbacks after close() returned
}

// surface is one value the implementation showed its host: where, and
// what, as JSON.
type surface struct {
	where string
	text  string
	raw   []byte // or the text as bytes, not copied: a host record's params
}

// content is the surface's text, as bytes.
func (sf surface) content() []byte {
	if sf.raw != nil {
		return sf.raw
	}
	return []byte(sf.text)
}

// show records a value the implementation showed its host.
func (o *observations) show(where string, v any) {
	text, ok := v.(string)
	if !ok {
		text = jsonText(v)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.surfaces = append(o.surfaces, surface{where: where, text: text})
}

// effect counts one non-empty outcome the implementation produced.
func (o *observations) effect() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.effects++
}

// failure records the error of an operation as something the host was
// shown; an error of a contract kind is an outcome the implementation
// produced. It returns err.
func (o *observations) failure(op string, err error) error {
	if err != nil && !adapter.IsFailure(err) {
		o.show("the error of "+op, err.Error()) // whole: the sweep reads all of it
		if adapter.KindOf(err) != adapter.KindInternal {
			o.effect()
		}
	}
	return capError(err)
}

// capError bounds the message of an error from the implementation or its
// adapter (whatever its size, only its kind is compared), keeping its
// kind, rule and type: steps quote it into failures, which godog keeps
// until the run ends. Errors of a sensible size are returned as they are.
func capError(err error) error {
	if err == nil || len(err.Error()) <= safetext.Message {
		return err
	}
	var f *adapter.Failure
	var e *adapter.Error
	switch {
	case errors.As(err, &f):
		return &adapter.Failure{Op: safetext.Cap(f.Op, safetext.Field), Reason: safetext.Cap(f.Reason, safetext.Message)}
	case errors.As(err, &e):
		return &adapter.Error{Kind: e.Kind, Rule: safetext.Cap(e.Rule, safetext.Field), Message: safetext.Cap(e.Message, safetext.Message)}
	}
	return errors.New(safetext.Cap(err.Error(), safetext.Message))
}

// config records a server entry or configuration text handed to the
// implementation, for the secrets it plants (header and env values).
func (o *observations) config(text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.configs = append(o.configs, text)
}

// snapshot returns copies of what was observed.
func (o *observations) snapshot() (surfaces []surface, configs, late []string, effects int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]surface(nil), o.surfaces...), append([]string(nil), o.configs...), append([]string(nil), o.late...), o.effects
}

// observedAgent is an agent of the implementation as the world drives it:
// it passes every operation through and records what the host was shown.
type observedAgent struct {
	adapter.Agent
	label string // "the agent", "the sub-agent"
	obs   *observations
	view  *hostView
}

var _ adapter.Agent = (*observedAgent)(nil)

// failed records an operation's error as something the host was shown.
func (a *observedAgent) failed(op string, err error) error {
	return a.obs.failure(fmt.Sprintf("%s %s", a.label, op), err)
}

// Send implements [adapter.Agent].
func (a *observedAgent) Send(ctx context.Context, prompt string) (adapter.SendResult, error) {
	r, err := a.Agent.Send(ctx, prompt)
	a.replied(r, err)
	return r, a.failed("send()", err)
}

// Run implements [adapter.Agent].
func (a *observedAgent) Run(ctx context.Context, prompt string) (adapter.SendResult, error) {
	r, err := a.Agent.Run(ctx, prompt)
	a.replied(r, err)
	return r, a.failed("run()", err)
}

// replied records the reply of a run that succeeded.
func (a *observedAgent) replied(r adapter.SendResult, err error) {
	if err != nil {
		return
	}
	a.obs.mu.Lock()
	defer a.obs.mu.Unlock()
	a.obs.replies = append(a.obs.replies, r.Text)
}

// Register implements [adapter.Agent]; the entry's header and env values
// become planted secrets.
func (a *observedAgent) Register(ctx context.Context, name string, entry json.RawMessage) error {
	a.obs.config(string(entry))
	err := a.failed(fmt.Sprintf("register(%q)", name), a.Agent.Register(ctx, name, entry))
	if err == nil {
		a.snapshotList(ctx, fmt.Sprintf("list() after register(%q)", name))
	}
	return err
}

// Unregister implements [adapter.Agent].
func (a *observedAgent) Unregister(ctx context.Context, name string) error {
	return a.failed(fmt.Sprintf("unregister(%q)", name), a.Agent.Unregister(ctx, name))
}

// List implements [adapter.Agent].
func (a *observedAgent) List(ctx context.Context) ([]adapter.ServerStatus, error) {
	l, err := a.Agent.List(ctx)
	if len(l) > 0 {
		a.obs.effect()
	}
	a.showList("list()", l)
	return l, a.failed("list()", err)
}

// showList records a list() result as a surface.
func (a *observedAgent) showList(where string, l []adapter.ServerStatus) {
	for _, s := range l {
		a.obs.show(fmt.Sprintf("%s entry %q", where, s.Name), s)
		if len(s.Raw) > 0 {
			a.obs.show(fmt.Sprintf("%s entry %q (the implementation's own entry)", where, s.Name), string(s.Raw))
		}
	}
}

// snapshotList takes a list() for the secret sweep, when the adapter can
// list; its failure is not the scenario's business, and what it shows is
// no observation of the scenario's.
func (a *observedAgent) snapshotList(ctx context.Context, where string) {
	if !a.view.w.info.Implements(adapter.OpList) || a.view.w.opts.System != adapter.LiteAgent {
		return
	}
	sctx, cancel := context.WithTimeout(ctx, a.view.w.run.opts.StepTimeout)
	defer cancel()
	if l, err := a.Agent.List(sctx); err == nil {
		a.showList(where, l)
	}
}

// AwaitIdle implements [adapter.Agent].
func (a *observedAgent) AwaitIdle(ctx context.Context) error {
	return a.failed("awaitIdle()", a.Agent.AwaitIdle(ctx))
}

// Close implements [adapter.Agent]: once it returns, nothing may reach
// the host through this agent.
func (a *observedAgent) Close(ctx context.Context) error {
	err := a.Agent.Close(ctx)
	a.view.closed()
	return a.failed("close()", err)
}

// Logs implements [adapter.Agent].
func (a *observedAgent) Logs(ctx context.Context) ([]string, error) {
	lines, err := a.Agent.Logs(ctx)
	for i, l := range lines {
		a.obs.show(fmt.Sprintf("log line %d", i+1), l)
	}
	return lines, a.failed("logs", err)
}

// SubAgent implements [adapter.Agent]: the sub-agent is observed too, and
// calls back through the root's host.
func (a *observedAgent) SubAgent(ctx context.Context, opts adapter.SubAgentOptions) (adapter.Agent, error) {
	sub, err := a.Agent.SubAgent(ctx, opts)
	if err != nil {
		return nil, a.failed("creating a sub-agent", err)
	}
	return &observedAgent{Agent: sub, label: "the sub-agent", obs: a.obs, view: &hostView{w: a.view.w, h: a.view.h, agent: "the sub-agent"}}, nil
}

// Project implements [adapter.Agent].
func (a *observedAgent) Project(ctx context.Context, result json.RawMessage) (adapter.Projection, error) {
	p, err := a.Agent.Project(ctx, result)
	if err == nil && (p.Bytes > 0 || p.Text != "") {
		a.obs.effect()
		a.obs.show("a projection", p)
	}
	return p, a.failed("project()", err)
}

// MCPStatus implements [adapter.Agent].
func (a *observedAgent) MCPStatus(ctx context.Context) ([]adapter.BladeServerStatus, error) {
	st, err := a.Agent.MCPStatus(ctx)
	if len(st) > 0 {
		a.obs.effect()
	}
	for _, s := range st {
		a.obs.show(fmt.Sprintf("mcpServerStatus() entry %q", s.Name), s)
	}
	return st, a.failed("mcpServerStatus()", err)
}

// MCPConnect implements [adapter.Agent].
func (a *observedAgent) MCPConnect(ctx context.Context, name string) error {
	return a.failed(fmt.Sprintf("mcpConnect(%q)", name), a.Agent.MCPConnect(ctx, name))
}

// MCPDisconnect implements [adapter.Agent].
func (a *observedAgent) MCPDisconnect(ctx context.Context, name string) error {
	return a.failed(fmt.Sprintf("mcpDisconnect(%q)", name), a.Agent.MCPDisconnect(ctx, name))
}

// MCPReconnect implements [adapter.Agent].
func (a *observedAgent) MCPReconnect(ctx context.Context, name string) error {
	return a.failed(fmt.Sprintf("mcpReconnect(%q)", name), a.Agent.MCPReconnect(ctx, name))
}

// MCPListTools implements [adapter.Agent].
func (a *observedAgent) MCPListTools(ctx context.Context) ([]adapter.ToolInfo, error) {
	tools, err := a.Agent.MCPListTools(ctx)
	if len(tools) > 0 {
		a.obs.effect()
	}
	for _, t := range tools {
		a.obs.show(fmt.Sprintf("mcpListTools() entry %q", t.Name), t)
	}
	return tools, a.failed("mcpListTools()", err)
}

// hostView is the host as one agent reaches it: the world's host, and
// once the agent's close() returned, a record of anything that still came.
type hostView struct {
	w     *world
	h     *host
	agent string

	mu       sync.Mutex
	closedAt time.Time // when close() returned; zero while open
}

var _ adapter.Host = (*hostView)(nil)

var _ adapter.CloseWatcher = (*hostView)(nil)

// AgentClosed implements [adapter.CloseWatcher].
func (v *hostView) AgentClosed() { v.closed() }

// closed marks the agent closed: from now on every callback is late.
func (v *hostView) closed() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closedAt.IsZero() {
		v.closedAt = time.Now()
	}
}

// isClosed reports whether the agent's close() returned.
func (v *hostView) isClosed() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return !v.closedAt.IsZero()
}

// late records a callback that came after close() returned, and reports
// whether it did.
func (v *hostView) late(what string, params any) bool {
	v.mu.Lock()
	at := v.closedAt
	v.mu.Unlock()
	if at.IsZero() {
		return false
	}
	text := safetext.Cap(jsonText(params), 200)
	v.w.obs.mu.Lock()
	v.w.obs.late = append(v.w.obs.late, fmt.Sprintf("%s reached the host %v after %s's close() returned: %s", what, time.Since(at).Round(time.Millisecond), v.agent, text))
	v.w.obs.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"callback": what, "params": params})
	v.h.log.Append(record.Record{Kind: record.KindHost, Method: "after-close", Params: b})
	return true
}

// errAfterClose answers a callback that came after close().
var errAfterClose = adapter.Errorf(adapter.KindClosed, "the agent was closed: its host takes no more calls")

var _ adapter.ArrivalRecorder = (*hostView)(nil)

// Arrived implements [adapter.ArrivalRecorder]: a callback is late when
// it arrives after close() returned, whenever it is served.
func (v *hostView) Arrived(ctx context.Context, cb adapter.Callback, req any) context.Context {
	return context.WithValue(ctx, servedKey{}, v.arrive(cb, req))
}

// lateNames name the callbacks that must not come after close(). A
// provider is the host's storage, which outlives the agent: its calls are
// never late.
var lateNames = map[adapter.Callback]string{
	adapter.CallModel: "a model request", adapter.CallApprove: "an approval request", adapter.CallEvent: "an event",
	adapter.CallHook: "a hook", adapter.CallValidate: "a validate() call", adapter.CallExecute: "an execute() call",
	adapter.CallAuthorize: "an authorize() call", adapter.CallPermission: "a permission callback",
	adapter.CallInProcessTool: "an in-process tool handler",
}

// arrive is the host's arrive, unless the callback is late: then it is
// recorded as late and refused.
func (v *hostView) arrive(cb adapter.Callback, req any) any {
	if what, ok := lateNames[cb]; !ok || !v.late(what, req) {
		return v.h.arrive(req)
	}
	switch req.(type) {
	case adapter.ModelRequest:
		return answer(adapter.ModelResponse{}, errAfterClose)
	case adapter.ApprovalRequest:
		return answer(adapter.Deny, errAfterClose)
	case adapter.Event:
		return answer(struct{}{}, nil)
	case adapter.HookEvent:
		return answer(struct{}{}, errAfterClose)
	case adapter.ValidateRequest:
		return answer[[]string](nil, errAfterClose)
	case adapter.ExecuteRequest:
		return answer[json.RawMessage](nil, errAfterClose)
	case adapter.AuthorizeRequest:
		return answer("", errAfterClose)
	case adapter.PermissionRequest:
		return answer("deny", errAfterClose)
	case adapter.InProcessToolRequest:
		return answer[json.RawMessage](nil, errAfterClose)
	}
	return nil
}

// Model implements [adapter.Host].
func (v *hostView) Model(ctx context.Context, req adapter.ModelRequest) (adapter.ModelResponse, error) {
	return serve[adapter.ModelResponse](ctx, func() any { return v.arrive(adapter.CallModel, req) })
}

// Approve implements [adapter.Host].
func (v *hostView) Approve(ctx context.Context, req adapter.ApprovalRequest) (adapter.Decision, error) {
	return serve[adapter.Decision](ctx, func() any { return v.arrive(adapter.CallApprove, req) })
}

// Event implements [adapter.Host].
func (v *hostView) Event(ctx context.Context, ev adapter.Event) {
	_, _ = serve[struct{}](ctx, func() any { return v.arrive(adapter.CallEvent, ev) })
}

// Hook implements [adapter.Host].
func (v *hostView) Hook(ctx context.Context, ev adapter.HookEvent) error {
	_, err := serve[struct{}](ctx, func() any { return v.arrive(adapter.CallHook, ev) })
	return err
}

// Validate implements [adapter.Host].
func (v *hostView) Validate(ctx context.Context, req adapter.ValidateRequest) ([]string, error) {
	return serve[[]string](ctx, func() any { return v.arrive(adapter.CallValidate, req) })
}

// Execute implements [adapter.Host].
func (v *hostView) Execute(ctx context.Context, req adapter.ExecuteRequest) (json.RawMessage, error) {
	return serve[json.RawMessage](ctx, func() any { return v.arrive(adapter.CallExecute, req) })
}

// Authorize implements [adapter.Host].
func (v *hostView) Authorize(ctx context.Context, req adapter.AuthorizeRequest) (string, error) {
	return serve[string](ctx, func() any { return v.arrive(adapter.CallAuthorize, req) })
}

// Provider implements [adapter.Host].
func (v *hostView) Provider(ctx context.Context, call adapter.ProviderCall) (json.RawMessage, error) {
	return serve[json.RawMessage](ctx, func() any { return v.arrive(adapter.CallProvider, call) })
}

// Permission implements [adapter.Host].
func (v *hostView) Permission(ctx context.Context, req adapter.PermissionRequest) (string, error) {
	return serve[string](ctx, func() any { return v.arrive(adapter.CallPermission, req) })
}

// InProcessTool implements [adapter.InProcessHost].
func (v *hostView) InProcessTool(ctx context.Context, req adapter.InProcessToolRequest) (json.RawMessage, error) {
	return serve[json.RawMessage](ctx, func() any { return v.arrive(adapter.CallInProcessTool, req) })
}

// jsonText is v as JSON text without HTML escaping, so that planted
// secrets are found as they are.
func jsonText(v any) string {
	b, err := jsontext.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
