package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// SystemPrompt is the system prompt of every run. Server instructions are
// never added to it (LA-SEC-12).
const SystemPrompt = "You are an agent. Use the tools offered when they help."

// maxTurns bounds the model round trips of one run.
const maxTurns = 64

// Send runs one turn with the user prompt (agent.send()). Before the model
// is asked anything, every declared server that is not connected yet, or
// is stale, is authorized, connected, discovered and validated (LA-CFG-12,
// LA-CAT-05); a server that fails makes Send fail, naming it, while the
// others stay connected. The tool catalog is then fixed for the whole run
// (LA-CAT-01). Cancelling ctx cancels the run.
func (a *Host) Send(ctx context.Context, prompt string) (*Response, error) {
	return a.Run(ctx, prompt, nil)
}

// Run is [Host.Send] with the run's event stream: onEvent, if not nil,
// receives every event of this run as it happens (agent.run()). Listeners
// of [Host.Subscribe] receive them too.
func (a *Host) Run(ctx context.Context, prompt string, onEvent func(Event)) (*Response, error) {
	if a.opts.Model == nil {
		return nil, newError(KindConfig, "", "the agent has no model")
	}
	ctx, done, err := a.begin(ctx, "a run")
	if err != nil {
		return nil, err
	}
	defer done()
	emit := func(ev Event) {
		if onEvent != nil {
			onEvent(ev)
		}
		a.listeners.emit(ev)
	}
	// LA-CFG-14: the files are read once, at construction; a run never reads them again.
	if a.faults.Has(fault.HotReload) {
		a.reload()
	}
	msgs := []Message{{Role: "user", Text: prompt}}
	// LA-CFG-12: every server is connected before the model is asked anything.
	if a.faults.Has(fault.ModelFirst) {
		if _, err := a.opts.Model.Complete(ctx, ModelRequest{System: SystemPrompt, Messages: msgs}); err != nil {
			return nil, err
		}
	}
	if !a.profile.ConnectOnRun {
		// The connections are made at creation and by the runtime API,
		// never by a run (BL-CFG-06).
	} else if err := a.reg.connectPending(ctx); err != nil {
		var e *Error
		if errors.As(err, &e) {
			emit(Event{Type: "error", Server: e.Source, Name: e.Source, Error: e.Error()})
		}
		return nil, err
	}
	catalog := a.catalog()
	specs := make([]ToolSpec, len(catalog))
	for i, t := range catalog {
		specs[i] = t.spec
	}
	for range maxTurns {
		// LA-CAT-01: the catalog is fixed for the whole run.
		if a.faults.Has(fault.LiveCatalog) {
			a.reg.relist(ctx)
			catalog = a.catalog() // rebuilt every turn: what the rules forbid
			specs = specs[:0]
			for _, t := range catalog {
				specs = append(specs, t.spec)
			}
		}
		system := SystemPrompt
		// LA-SEC-12: server instructions never reach the system prompt.
		if a.faults.Has(fault.InjectInstructions) {
			system += "\n" + a.reg.instructions()
		}
		resp, err := a.opts.Model.Complete(ctx, ModelRequest{System: system, Messages: slices.Clone(msgs), Tools: specs})
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
		// The calls of a turn run one after the other, in order, whatever
		// the tool: MCP tools are scheduled like every other tool
		// (LA-TOOL-01).
		results := make([]Message, len(resp.ToolCalls))
		var wg sync.WaitGroup
		for i, call := range resp.ToolCalls {
			run := func() {
				text, isError := a.runTool(ctx, catalog, call, emit)
				results[i] = Message{Role: "tool", ToolCallID: call.ID, Text: text, IsError: isError}
			}
			// LA-TOOL-01: MCP calls are scheduled like every other tool: one after the other.
			if a.faults.Has(fault.ParallelMCP) && strings.HasPrefix(call.Name, ToolPrefix) {
				wg.Go(run)
				continue
			}
			run()
		}
		wg.Wait()
		if ctx.Err() != nil {
			return nil, cancelled(ctx, "the run")
		}
		msgs = append(msgs, results...)
	}
	return nil, newError(KindLimit, "", "the run exceeded %d model turns", maxTurns)
}

// entry is one tool of a run's catalog: an MCP tool, a host tool or the
// built-in context tool.
type entry struct {
	spec ToolSpec
	mcp  *tool // for MCP tools
	host Tool  // for host tools
}

// catalog is the fixed tool catalog of one run: the visible MCP tools of
// every connected server, the host's tools, and the context tool.
func (a *Host) catalog() []entry {
	return a.catalogOf(a.visible)
}

// fullCatalog ignores allowedTools. It serves only [fault.HiddenCallable].
func (a *Host) fullCatalog() []entry {
	return a.catalogOf(func(string) bool { return true })
}

func (a *Host) catalogOf(visible func(string) bool) []entry {
	var out []entry
	for _, t := range a.reg.catalog() {
		// BL-CFG-08: the model is offered the MCP tools of every connected server.
		if visible(t.full) && !a.faults.Has(fault.BladeNoMCPTools) {
			spec := t.spec()
			// LA-NAME-05: a name is offered whole, never cut.
			if a.faults.Has(fault.CutLongNames) && len(spec.Name) > 37 {
				spec.Name = spec.Name[:37]
			}
			out = append(out, entry{spec: spec, mcp: t})
		}
	}
	for _, t := range a.opts.Tools {
		if visible(t.Name()) {
			schema := t.Schema().InputJSONSchema()
			// LA-TOOL-03: the model is offered the host tool's own JSON Schema.
			if a.faults.Has(fault.GenericModelSchema) {
				schema = json.RawMessage(`{"type":"object"}`)
			}
			out = append(out, entry{spec: ToolSpec{Name: t.Name(), Description: t.Description(), InputSchema: schema}, host: t})
		}
	}
	out = append(out, entry{spec: ToolSpec{Name: ContextTool, Description: "Read a page of a tool result kept in the session archive.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"ref":{"type":"string"},"offset":{"type":"integer","minimum":0}},"required":["ref","offset"]}`)}})
	if a.profile.ToolOrder == OrderGrouped {
		out = a.groupedOrder(out)
	}
	return out
}

// visible reports whether the allowedTools of the agent let the model see
// a tool (LA-SEC-08). A sub-agent keeps its own list (LA-REG-18).
func (a *Host) visible(name string) bool {
	return a.opts.AllowedTools == nil || slices.Contains(a.opts.AllowedTools, name)
}

// runTool runs one tool call of the model and returns the tool result as
// the model sees it. Every failure becomes a tool error; the run goes on.
// The hooks see every call that is offered (LA-EVT-03, LA-EVT-04).
func (a *Host) runTool(ctx context.Context, catalog []entry, call ToolCall, emit func(Event)) (string, bool) {
	// LA-SEC-08: a tool allowedTools hides is not callable either.
	if a.faults.Has(fault.HiddenCallable) {
		catalog = a.fullCatalog()
	}
	i := slices.IndexFunc(catalog, func(e entry) bool { return e.spec.Name == call.Name })
	if i < 0 {
		return fmt.Sprintf("tool %q is not available", call.Name), true
	}
	e := catalog[i]
	args := call.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if e.mcp == nil && e.host == nil {
		return a.readArchive(args)
	}
	ev := ToolEvent{ID: call.ID, Name: call.Name, Input: args}
	// LA-EVT-03: tool:start runs for MCP tools too.
	if a.opts.Hooks.ToolStart != nil && !(e.mcp != nil && a.faults.Has(fault.NoStartHookForMCP)) {
		a.opts.Hooks.ToolStart(ctx, ev)
	}
	// LA-EVT-02: progress events are delivered while the call runs.
	if a.faults.Has(fault.BatchProgress) {
		var held []Event
		var mu sync.Mutex
		real := emit
		emit = func(ev Event) { mu.Lock(); held = append(held, ev); mu.Unlock() }
		defer func() {
			for _, ev := range held {
				real(ev)
			}
		}()
	}
	text, isError, outcome := a.callTool(ctx, e, call, args, emit)
	// LA-EVT-04: tool:end runs for every call that started, whatever its outcome.
	if a.opts.Hooks.ToolEnd != nil && !(outcome != "success" && a.faults.Has(fault.NoEndHookOnFailure)) {
		ev.Result, ev.IsError, ev.Outcome = text, isError, outcome
		a.opts.Hooks.ToolEnd(ctx, ev)
	}
	return text, isError
}

// callTool authorizes, validates and runs one call; it returns the result
// text, whether it is a tool error, and the outcome for tool:end.
func (a *Host) callTool(ctx context.Context, e entry, call ToolCall, args json.RawMessage, emit func(Event)) (string, bool, string) {
	// LA-TMO-05: aborting the run cancels its calls and approvals.
	if a.faults.Has(fault.IgnoreAbort) {
		ctx = context.WithoutCancel(ctx)
	}
	if a.opts.DryRun {
		return fmt.Sprintf("[dry-run] %s would be called with %s", call.Name, args), false, "success"
	}
	req := ApprovalRequest{Capability: call.Name, Input: args}
	if e.mcp != nil {
		req.Server, req.Tool = e.mcp.server, e.mcp.raw
	}
	if err := a.authorize(ctx, call.Name, req); err != nil {
		if ctx.Err() != nil {
			return err.Error(), true, "cancelled"
		}
		return err.Error(), true, "denied"
	}
	if e.host != nil {
		return a.callHostTool(ctx, e.host, args)
	}
	t := e.mcp
	// LA-CAT-04: a call is validated against the schema of the run's catalog.
	if a.faults.Has(fault.SwapSchemas) {
		t = a.freshTool(ctx, t) // the schema of now, not of the run's start: what LA-CAT-04 forbids
	}
	var input any
	if err := json.Unmarshal(args, &input); err != nil {
		return fmt.Sprintf("LA-VAL-01: the arguments of %q are not JSON: %v", t.full, err), true, "invalid"
	}
	// LA-VAL-01: the arguments are validated against the input schema before they are sent.
	// BL-INP-07: an in-process tool's handler gets only arguments that match its schema (interpretation B-10).
	unchecked := a.faults.Has(fault.SkipInputValidation) || (a.faults.Has(fault.BladeInProcessUnvalidated) && t.conn.stopInProcess != nil)
	if err := t.input.Validate(input); err != nil && !unchecked {
		return fmt.Sprintf("LA-VAL-01: the arguments of %q do not match its input schema: %v", t.full, err), true, "invalid"
	}
	if t.conn.isLost() {
		return fmt.Sprintf("the connection to server %q was lost; it is connected again when the agent is idle, and this call was not sent", t.server), true, "failed"
	}
	timeout := t.conn.timeout
	switch {
	case a.faults.Has(fault.IgnoreTimeoutMs): // LA-TMO-04: the entry's timeoutMs bounds the call
		timeout = DefaultTimeout
	case a.faults.Has(fault.CallTimeout20) && timeout == DefaultTimeout: // LA-TMO-02: 30 s by default
		timeout = 20 * time.Second
	case a.faults.Has(fault.CallTimeout60) && timeout == DefaultTimeout: // LA-TMO-02: 30 s by default
		timeout = 60 * time.Second
	}
	cctx, cancel := a.opts.Clock.WithTimeout(ctx, timeout)
	defer cancel()
	params := &mcp.CallToolParams{Name: t.raw, Arguments: args}
	token := t.conn.progress.route(call.ID, t.full, t.server, emit)
	// LA-EVT-01: every call asks for progress, routed to its events.
	if !a.faults.Has(fault.NoProgressToken) {
		params.SetProgressToken(token)
	}
	mark := t.conn.failureMark()
	res, err := t.conn.session.CallTool(cctx, params)
	t.conn.progress.unroute(token) // late progress is dropped
	// LA-TMO-06: a call whose outcome is unknown is never sent again.
	if err != nil && a.faults.Has(fault.RetryOnce) {
		res, err = a.replay(ctx, t, args, timeout, cctx.Err() == nil)
	}
	if err != nil {
		if lerr := t.conn.limitError(t.server); lerr != nil {
			// LA-CAT-03: a connection the call broke is lost at once: stale, reaped, not used again.
			if !a.faults.Has(fault.KeepBrokenConnection) {
				t.conn.lose(lerr)
			}
			return lerr.Error() + "; " + lostAdvice(t), true, "failed"
		}
		if cctx.Err() != nil {
			t.conn.cancelledCall()
			outcome := "cancelled"
			if errors.Is(context.Cause(cctx), context.DeadlineExceeded) {
				outcome = "timeout"
			}
			return cancelled(cctx, fmt.Sprintf("the call of %q (its outcome is unknown and it is not retried)", t.full)).Error(), true, outcome
		}
		// LA-CAT-03: a connection the call broke is lost at once.
		if cause, broke := t.conn.broken(err, mark); broke && !a.faults.Has(fault.KeepBrokenConnection) {
			t.conn.lose(err)
			return fmt.Sprintf("LA-CAT-03: the connection to server %q was lost during the call of %q (%s); %s", t.server, t.full, cause, lostAdvice(t)), true, "failed"
		}
		return fmt.Sprintf("the call of %q failed (its outcome is unknown and it is not retried): %v", t.full, err), true, "failed"
	}
	// LA-VAL-03: a result is validated against the declared output schema.
	if !res.IsError && t.output != nil && !a.faults.Has(fault.SkipOutputValidation) {
		if err := validateOutput(t, res); err != nil {
			return err.Error(), true, "invalid"
		}
	}
	p, err := a.project(res)
	if err != nil {
		return err.Error(), true, "failed"
	}
	outcome := "success"
	if p.IsError {
		outcome = "error"
	}
	return p.Text, p.IsError, outcome
}

// lostAdvice is what a lost connection means for the call and the server.
func lostAdvice(t *tool) string {
	return fmt.Sprintf("the call's outcome is unknown and it is not retried (LA-TMO-06); %q is stale and is connected again, with mcp_connect asked again, at the next run", t.server)
}

// validateOutput checks a result's structuredContent against the tool's
// output schema; a result without one fails too (LA-VAL-03). Error results
// are not checked (interpretation A-15).
func validateOutput(t *tool, res *mcp.CallToolResult) error {
	if res.StructuredContent == nil {
		return newError(KindValidation, "LA-VAL-03", "the result of %q has no structuredContent, although the tool declares an output schema", t.full)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return newError(KindValidation, "LA-VAL-03", "the structuredContent of %q does not encode: %v", t.full, err)
	}
	var v any
	_ = json.Unmarshal(raw, &v)
	if err := t.output.Validate(v); err != nil {
		return newError(KindValidation, "LA-VAL-03", "the structuredContent of %q does not match its output schema: %v", t.full, err)
	}
	return nil
}

// callHostTool validates the input through the tool's schema and runs it.
func (a *Host) callHostTool(ctx context.Context, t Tool, args json.RawMessage) (string, bool, string) {
	_, native := t.Schema().(*librarySchema)
	// LA-TOOL-02, LA-TOOL-04: a host tool's input goes through its schema's validate, whatever the library.
	if (native && a.faults.Has(fault.SkipNativeValidation)) || (!native && a.faults.Has(fault.SkipStandardValidate)) {
		return a.executeHostTool(ctx, t, args)
	}
	issues, err := t.Schema().Validate(ctx, args)
	if err != nil {
		return fmt.Sprintf("the input of %q could not be validated: %v", t.Name(), err), true, "invalid"
	}
	if len(issues) > 0 {
		return fmt.Sprintf("LA-TOOL-02: the input of %q is invalid: %s", t.Name(), marshal(issues)), true, "invalid"
	}
	return a.executeHostTool(ctx, t, args)
}

// executeHostTool runs a host tool whose input passed.
func (a *Host) executeHostTool(ctx context.Context, t Tool, args json.RawMessage) (string, bool, string) {
	res, err := t.Execute(ctx, args)
	if err != nil {
		return fmt.Sprintf("%q failed: %v", t.Name(), err), true, "failed"
	}
	outcome := "success"
	if res.IsError {
		outcome = "error"
	}
	return res.Content, res.IsError, outcome
}

// readArchive answers a call of the context tool (LA-ARC-05).
func (a *Host) readArchive(args json.RawMessage) (string, bool) {
	var in contextRef
	if err := json.Unmarshal(args, &in); err != nil || in.Ref == "" {
		return `context needs {"ref": "<ref>", "offset": <bytes>}`, true
	}
	return a.archive.read(in.Ref, in.Offset)
}

// authorize applies the permission policy to name and, when it asks,
// the approval handler; with no handler the answer is deny (LA-SEC-02..07).
// A sub-agent applies its own policy on top of its root's: the stricter
// answer wins (LA-REG-19).
func (a *Host) authorize(ctx context.Context, name string, req ApprovalRequest) error {
	rules := a.profile.Rules
	rule := ifConnect(name, rules.PolicyDenied)
	m := a.faults
	var v verdict
	switch {
	case a.opts.PermissionFunc != nil && req.Tool != "":
		v = a.bladePermission(ctx, name, req)
	default:
		v = a.opts.Permission.decide(name)
		// LA-REG-19: a sub-agent's policy only ever makes its root's stricter.
		if a.root != nil && !m.Has(fault.SubagentLoosens) {
			v = max(v, a.root.opts.Permission.decide(name))
		}
	}
	switch {
	case m.Has(fault.TrustAnnotations) && req.Tool != "" && a.readOnlyHint(req.Server, req.Tool): // LA-SEC-11: annotations are hints; they never allow
		v = verdictAllow
	case m.Has(fault.IgnoreMCPDeny) && v == verdictDeny && strings.HasPrefix(name, ToolPrefix): // LA-SEC-01: the policy's deny holds for MCP tools
		v = verdictAsk
	case m.Has(fault.AllowedToolsGrant) && slices.Contains(a.opts.AllowedTools, name): // LA-SEC-09: allowedTools grants nothing
		v = verdictAllow
	case m.Has(fault.RememberApproval) && a.remembered(name): // LA-SEC-05: every call is asked for, nothing is remembered
		v = verdictAllow
	// BL-CFG-07, BL-PERM-01, BL-PERM-02: alwaysAllow is metadata; it authorizes nothing.
	case (m.Has(fault.BladeAlwaysAllowGrants) || m.Has(fault.BladeAlwaysAllowSkipsSession) || m.Has(fault.BladeAlwaysAllowSkipsAgent)) &&
		req.Tool != "" && a.alwaysAllowed(req.Server, req.Tool):
		v = verdictAllow
	}
	// LA-SEC-03: a call is approved under its full tool name.
	if m.Has(fault.ApproveByServer) && req.Tool != "" {
		req.Capability = req.Server
	}
	switch v {
	case verdictDeny:
		return &Error{Kind: KindPermission, Rule: rule, Source: req.Server, Msg: fmt.Sprintf("%s is denied by the permission policy", name)}
	case verdictAllow:
		return nil
	}
	if a.opts.Approval == nil {
		// LA-SEC-06: with no approval handler, what is asked is denied.
		if m.Has(fault.NoHandlerAllows) {
			return nil
		}
		return &Error{Kind: KindPermission, Rule: rules.NoApprover, Source: req.Server, Msg: fmt.Sprintf("%s needs approval and the host has no approval handler", name)}
	}
	d, err := a.opts.Approval.Request(ctx, req)
	if ctx.Err() != nil {
		return cancelled(ctx, "waiting for approval of "+name)
	}
	if err != nil {
		// LA-SEC-07: a failing approval handler counts as deny.
		if m.Has(fault.HandlerErrorAllows) {
			return nil
		}
		return &Error{Kind: KindPermission, Rule: rules.ApproverFailed, Source: req.Server, Msg: fmt.Sprintf("the approval handler failed for %s, which counts as deny", name), Err: err}
	}
	if d != Allow {
		return &Error{Kind: KindPermission, Rule: ifConnect(name, rules.ApprovalDenied), Source: req.Server, Msg: fmt.Sprintf("%s was denied (%q)", name, d)}
	}
	// LA-SEC-05: an approval is for one call; the next is asked again.
	if m.Has(fault.RememberApproval) {
		a.remember(name)
	}
	return nil
}

// remember and remembered keep the tools once allowed. They serve only
// [fault.RememberApproval]: the default policy asks for every call (LA-SEC-05).
func (a *Host) remember(name string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.allowed == nil {
		a.allowed = map[string]bool{}
	}
	a.allowed[name] = true
}

func (a *Host) remembered(name string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.allowed[name]
}

// reload reads the configuration files again and adds servers that are new
// in them. It exists only for [fault.HotReload]: the reference reads its
// configuration once, at construction (LA-CFG-14).
func (a *Host) reload() {
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
// not time out (the connection broke). It exists only for [fault.RetryOnce]:
// the reference never sends a call whose outcome is unknown again
// (LA-TMO-06).
func (a *Host) replay(ctx context.Context, t *tool, args json.RawMessage, timeout time.Duration, broken bool) (*mcp.CallToolResult, error) {
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

// readOnlyHint reports whether a server's tool is annotated read-only or
// idempotent. It serves only [fault.TrustAnnotations]: annotations never
// authorize anything (LA-SEC-11).
func (a *Host) readOnlyHint(server, raw string) bool {
	for _, t := range a.reg.catalog() {
		if t.server == server && t.raw == raw {
			return t.readOnly || t.idempotent
		}
	}
	return false
}

// freshTool lists the tools again and returns t as the server now
// describes it. It serves only [fault.SwapSchemas].
func (a *Host) freshTool(ctx context.Context, t *tool) *tool {
	a.reg.relist(ctx)
	for _, n := range a.reg.catalog() {
		if n.full == t.full {
			return n
		}
	}
	return t
}

// ifConnect is the rule of a denial of name: LA-SEC-02 for
// [ConnectCapability], else rule.
func ifConnect(name, rule string) string {
	if name == ConnectCapability {
		return "LA-SEC-02"
	}
	return rule
}
