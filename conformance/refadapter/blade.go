package refadapter

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/internal/fault"
	"github.com/mcpconform/mcpconform/reference"
	"github.com/mcpconform/mcpconform/reference/blade"
)

// newSession builds a reference Blade session (createServerSession) from
// the options: mcpServers as Blade McpServerConfigs, the permission policy
// and the approval handler. Options that only lite-agent has are refused.
func (a *refAdapter) newSession(ctx context.Context, opts adapter.AgentOptions, host adapter.Host) (adapter.Agent, error) {
	if opts.Home != "" || opts.StrictMCPConfig || len(opts.MCPOAuth) > 0 || len(opts.Sandbox) > 0 ||
		opts.DryRun || opts.MCPTransports != nil || opts.AllowedTools != nil {
		return nil, adapter.Errorf(adapter.KindUnsupported, "the reference's Blade profile takes mcpServers, tools, permission, approval and a manual clock only")
	}
	so := blade.Options{
		Model:   model{host},
		Environ: a.env.Environ,
	}
	fault.Inject(&so, a.faults)
	if len(opts.MCPServers) > 0 {
		servers, err := a.bladeServers(ctx, opts.MCPServers, host)
		if err != nil {
			return nil, contractError(err)
		}
		so.MCPServers = servers
	}
	so.Permission, so.Approval = permissions(opts, host)
	tools, err := a.hostTools(opts, host)
	if err != nil {
		return nil, err
	}
	so.Tools = tools
	if opts.PermissionCallback {
		so.PermissionFunc = func(ctx context.Context, toolName string) (string, error) {
			raw, _ := json.Marshal(map[string]string{"toolName": toolName})
			return host.Permission(ctx, adapter.PermissionRequest{ToolName: toolName, Raw: raw})
		}
	}
	var clock *reference.ManualClock
	if opts.ManualClock {
		clock = &reference.ManualClock{}
		so.Clock = clock
	}
	s, err := blade.NewSession(ctx, so)
	if err != nil {
		return nil, contractError(err)
	}
	return &session{s: s, clock: clock}, nil
}

// session is a reference Blade session behind the contract.
type session struct {
	s     *blade.Session
	clock *reference.ManualClock // nil unless the options asked for one
}

func (g *session) Send(ctx context.Context, prompt string) (adapter.SendResult, error) {
	r, err := g.s.Send(ctx, prompt)
	if err != nil {
		return adapter.SendResult{}, contractError(err)
	}
	return adapter.SendResult{Text: r.Text}, nil
}

func (g *session) MCPStatus(context.Context) ([]adapter.BladeServerStatus, error) {
	out := []adapter.BladeServerStatus{}
	for _, st := range g.s.MCPServerStatus() {
		n := float64(st.ToolCount)
		bs := adapter.BladeServerStatus{Name: st.Name, Status: st.Status, ToolCount: &n, Tools: st.Tools, Error: st.Error}
		if !st.ConnectedAt.IsZero() {
			bs.ConnectedAt = st.ConnectedAt.UTC().Format(time.RFC3339Nano)
		}
		out = append(out, bs)
	}
	return out, nil
}

// MCPHealth implements [adapter.HealthReader].
func (g *session) MCPHealth(context.Context) ([]adapter.ServerHealth, error) {
	out := []adapter.ServerHealth{}
	for _, h := range g.s.MCPHealth() {
		out = append(out, adapter.ServerHealth{Name: h.Name, Health: string(h.Health)})
	}
	return out, nil
}

func (g *session) MCPConnect(ctx context.Context, name string) error {
	return contractError(g.s.MCPConnect(ctx, name))
}

func (g *session) MCPDisconnect(ctx context.Context, name string) error {
	return contractError(g.s.MCPDisconnect(ctx, name))
}

func (g *session) MCPReconnect(ctx context.Context, name string) error {
	return contractError(g.s.MCPReconnect(ctx, name))
}

func (g *session) MCPListTools(context.Context) ([]adapter.ToolInfo, error) {
	out := []adapter.ToolInfo{}
	for _, t := range g.s.MCPListTools() {
		out = append(out, adapter.ToolInfo{Name: t.Name, Description: t.Description, ServerName: t.ServerName})
	}
	return out, nil
}

func (g *session) AwaitIdle(ctx context.Context) error { return contractError(g.s.AwaitIdle(ctx)) }

// Close closes the session; ctx bounds how long the caller waits.
func (g *session) Close(ctx context.Context) error { return closeWithin(ctx, g.s.Close) }

// The lite-agent operations a Blade session does not have.

func (g *session) Register(context.Context, string, json.RawMessage) error { return notLiteAgent() }
func (g *session) Unregister(context.Context, string) error                { return notLiteAgent() }
func (g *session) List(context.Context) ([]adapter.ServerStatus, error)    { return nil, notLiteAgent() }
func (g *session) Logs(context.Context) ([]string, error)                  { return nil, notLiteAgent() }
func (g *session) Run(context.Context, string) (adapter.SendResult, error) {
	return adapter.SendResult{}, notLiteAgent()
}
func (g *session) SubAgent(context.Context, adapter.SubAgentOptions) (adapter.Agent, error) {
	return nil, notLiteAgent()
}
func (g *session) Project(context.Context, json.RawMessage) (adapter.Projection, error) {
	return adapter.Projection{}, notLiteAgent()
}

// notLiteAgent refuses a lite-agent operation on a Blade session.
func notLiteAgent() error {
	return adapter.Errorf(adapter.KindUnsupported, "a Blade session has no such operation")
}

// AdvanceClock moves the session's manual clock.
func (g *session) AdvanceClock(ctx context.Context, d time.Duration) error {
	return advance(g.clock, d)
}
