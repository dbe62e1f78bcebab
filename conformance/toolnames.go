package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// An implementation that names MCP tools its own way declares its scheme
// ([adapter.Info.ToolNames]). The scenarios speak the catalog's names
// (mcp__<server>__<tool>); renamingTarget stands between them and the
// adapter and translates every tool name that crosses: what the
// implementation shows its host (the tools offered to the model, the tool
// calls in the conversation, approvals, hooks, events, permission
// callbacks, list() and mcpListTools()) into the catalog's names, and the
// scripted model's tool calls into the implementation's. Only names of the
// servers the world handed the agent are translated; anything else passes
// as it is. The naming rules themselves are not checked through this
// translation: [namingFailure] fails their scenarios.

// namingRules are the rules that state the canonical scheme itself.
var namingRules = []string{"LA-NAME-01", "BL-NAME-01"}

// namingFailure says why a scenario fails for an implementation that
// declares another naming scheme: it checks the scheme itself.
func namingFailure(info adapter.Info, s Scenario) string {
	if info.ToolNames == "" || info.ToolNames == adapter.CanonicalToolNames {
		return ""
	}
	for _, r := range s.Rules {
		if slices.Contains(namingRules, r) {
			return fmt.Sprintf("%s: Expected: MCP tools exposed as %s\n  Actual:   the adapter declares the implementation names them %q (toolNames)", r, adapter.CanonicalToolNames, info.ToolNames)
		}
	}
	return ""
}

// renamingTarget wraps a target whose implementation declares naming n.
type renamingTarget struct {
	adapter.Target
	naming adapter.ToolNaming
}

func (t renamingTarget) Open(ctx context.Context, env adapter.Env) (adapter.Adapter, error) {
	a, err := t.Target.Open(ctx, env)
	if err != nil {
		return nil, err
	}
	return &renamingAdapter{Adapter: a, naming: t.naming}, nil
}

// renamingAdapter wraps one adapter of a [renamingTarget]. It keeps the
// adapter's optional interfaces (diagnostics, console, leftovers, faults,
// reuse, its process) visible.
type renamingAdapter struct {
	adapter.Adapter
	naming adapter.ToolNaming
}

func (a *renamingAdapter) Diagnostics() []string {
	if d, ok := a.Adapter.(adapter.Diagnoser); ok {
		return d.Diagnostics()
	}
	return nil
}

func (a *renamingAdapter) Console() string {
	if c, ok := a.Adapter.(adapter.Console); ok {
		return c.Console()
	}
	return ""
}

func (a *renamingAdapter) Leftovers() []adapter.Leftover {
	if r, ok := a.Adapter.(adapter.LeftoverReporter); ok {
		return r.Leftovers()
	}
	return nil
}

func (a *renamingAdapter) Fault() error {
	if f, ok := a.Adapter.(adapter.Faulter); ok {
		return f.Fault()
	}
	return nil
}

func (a *renamingAdapter) Reused() bool {
	r, ok := a.Adapter.(adapter.Reuser)
	return ok && r.Reused()
}

func (a *renamingAdapter) ImplementationPID() int {
	if o, ok := a.Adapter.(adapter.ProcessOwner); ok {
		return o.ImplementationPID()
	}
	return 0
}

func (a *renamingAdapter) NewAgent(ctx context.Context, opts adapter.AgentOptions, host adapter.Host) (adapter.Agent, error) {
	n := &toolNamesOf{naming: a.naming}
	var servers map[string]json.RawMessage
	if json.Unmarshal(opts.MCPServers, &servers) == nil {
		for s := range servers {
			n.add(s)
		}
	}
	for s := range opts.MCPOAuth {
		n.add(s)
	}
	ag, err := a.Adapter.NewAgent(ctx, opts, &renamingHost{Host: host, n: n})
	if err != nil {
		return nil, err
	}
	return &renamingAgent{Agent: ag, n: n}, nil
}

// toolNamesOf is the naming of one agent and the servers it knows.
type toolNamesOf struct {
	naming  adapter.ToolNaming
	mu      sync.Mutex
	servers []string
}

func (n *toolNamesOf) add(server string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !slices.Contains(n.servers, server) {
		n.servers = append(n.servers, server)
	}
}

func (n *toolNamesOf) known() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.servers)
}

// canonical is the catalog's name of an exposed one.
func (n *toolNamesOf) canonical(exposed string) string { return n.naming.Canonical(exposed, n.known()) }

// exposed is the implementation's name of a canonical one.
func (n *toolNamesOf) exposed(canonical string) string { return n.naming.Exposed(canonical, n.known()) }

// renamingHost translates what reaches the runner's host.
type renamingHost struct {
	adapter.Host
	n *toolNamesOf
}

func (h *renamingHost) InProcessTool(ctx context.Context, req adapter.InProcessToolRequest) (json.RawMessage, error) {
	if ih, ok := h.Host.(adapter.InProcessHost); ok {
		return ih.InProcessTool(ctx, req)
	}
	return nil, adapter.Errorf(adapter.KindUnsupported, "the host serves no in-process tool handlers")
}

func (h *renamingHost) Model(ctx context.Context, req adapter.ModelRequest) (adapter.ModelResponse, error) {
	req.Tools = slices.Clone(req.Tools)
	for i := range req.Tools {
		req.Tools[i].Name = h.n.canonical(req.Tools[i].Name)
	}
	req.Messages = slices.Clone(req.Messages)
	for i := range req.Messages {
		req.Messages[i].ToolCalls = h.renameCalls(req.Messages[i].ToolCalls, h.n.canonical)
	}
	res, err := h.Host.Model(ctx, req)
	res.ToolCalls = h.renameCalls(res.ToolCalls, h.n.exposed)
	return res, err
}

func (h *renamingHost) renameCalls(calls []adapter.ToolCall, rename func(string) string) []adapter.ToolCall {
	if calls == nil {
		return nil
	}
	calls = slices.Clone(calls)
	for i := range calls {
		calls[i].Name = rename(calls[i].Name)
	}
	return calls
}

func (h *renamingHost) Approve(ctx context.Context, req adapter.ApprovalRequest) (adapter.Decision, error) {
	req.Name = h.n.canonical(req.Name)
	return h.Host.Approve(ctx, req)
}

func (h *renamingHost) Event(ctx context.Context, ev adapter.Event) {
	ev.Name = h.n.canonical(ev.Name)
	h.Host.Event(ctx, ev)
}

func (h *renamingHost) Hook(ctx context.Context, hk adapter.HookEvent) error {
	hk.Name = h.n.canonical(hk.Name)
	return h.Host.Hook(ctx, hk)
}

func (h *renamingHost) Permission(ctx context.Context, req adapter.PermissionRequest) (string, error) {
	req.ToolName = h.n.canonical(req.ToolName)
	return h.Host.Permission(ctx, req)
}

// AgentClosed passes the close on to a host that watches for it.
func (h *renamingHost) AgentClosed() {
	if w, ok := h.Host.(adapter.CloseWatcher); ok {
		w.AgentClosed()
	}
}

// renamingAgent translates what the agent's operations return.
type renamingAgent struct {
	adapter.Agent
	n *toolNamesOf
}

func (a *renamingAgent) Register(ctx context.Context, name string, entry json.RawMessage) error {
	a.n.add(name)
	return a.Agent.Register(ctx, name, entry)
}

func (a *renamingAgent) List(ctx context.Context) ([]adapter.ServerStatus, error) {
	l, err := a.Agent.List(ctx)
	l = slices.Clone(l)
	for i := range l {
		l[i].Tools = slices.Clone(l[i].Tools)
		for j, t := range l[i].Tools {
			l[i].Tools[j] = a.n.canonical(t)
		}
	}
	return l, err
}

func (a *renamingAgent) MCPListTools(ctx context.Context) ([]adapter.ToolInfo, error) {
	l, err := a.Agent.MCPListTools(ctx)
	l = slices.Clone(l)
	for i := range l {
		l[i].Name = a.n.canonical(l[i].Name)
	}
	return l, err
}

func (a *renamingAgent) SubAgent(ctx context.Context, opts adapter.SubAgentOptions) (adapter.Agent, error) {
	sub, err := a.Agent.SubAgent(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &renamingAgent{Agent: sub, n: a.n}, nil
}
