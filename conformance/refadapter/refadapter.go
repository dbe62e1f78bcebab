// Package refadapter drives the reference implementation in-process through
// the adapter contract: the built-in target of `mcpconform run`.
//
// It is also the model for an adapter: it translates [adapter.AgentOptions]
// into the implementation's constructor options, its host callbacks into
// [adapter.Host] calls, its errors into contract [adapter.Error] kinds, and
// its list() into [adapter.ServerStatus] entries.
package refadapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/internal/fault"
	"github.com/mcpconform/mcpconform/reference"
)

// Version is the adapter's version.
const Version = "0.1.0"

// Target is the reference implementation as a conformance target.
type Target struct {
	// Faults deliberately break the reference (mutation testing): a
	// target with faults must fail the scenarios of the broken rules. A
	// name that is not a fault fails [Target.Open].
	Faults []fault.Fault
}

var _ adapter.Target = Target{}

// Info describes the reference: it claims lite-agent and every capability
// it can drive.
func (t Target) Info(ctx context.Context) (adapter.Info, error) {
	name := "mcpconform-reference"
	if len(t.Faults) > 0 {
		name = fmt.Sprintf("mcpconform-reference (mutated: %v)", t.Faults)
	}
	return adapter.Info{
		Name: "refadapter", Version: Version,
		Implementation: adapter.Implementation{Name: name, Version: reference.Version},
		Systems:        []adapter.System{adapter.LiteAgent, adapter.Blade},
		Capabilities: []adapter.Capability{adapter.CapHome, adapter.CapListNormalize, adapter.CapSandbox,
			adapter.CapClock, adapter.CapLogSinks, adapter.CapSubagent, adapter.CapDryRun, adapter.CapProjection,
			adapter.CapContextRef, adapter.CapConcurrencyPolicy, adapter.CapConfirmation, adapter.CapHealth},
		Operations:  adapter.Operations,
		Concurrency: "sequential",
	}, nil
}

// Open returns an adapter for one scenario world.
func (t Target) Open(ctx context.Context, env adapter.Env) (adapter.Adapter, error) {
	names := make([]string, len(t.Faults))
	for i, f := range t.Faults {
		names[i] = string(f)
	}
	faults, err := fault.Parse(names)
	if err != nil {
		return nil, err
	}
	info, _ := t.Info(ctx)
	return &refAdapter{faults: faults, env: env, info: info}, nil
}

// refAdapter builds reference agents for one world.
type refAdapter struct {
	faults fault.Set
	env    adapter.Env
	info   adapter.Info
}

func (a *refAdapter) Info() adapter.Info { return a.info }

// Close has nothing to release: every agent is closed by its own Close.
func (a *refAdapter) Close() error { return nil }

// NewAgent translates the options and builds a reference agent.
func (a *refAdapter) NewAgent(ctx context.Context, opts adapter.AgentOptions, host adapter.Host) (adapter.Agent, error) {
	switch opts.System {
	case adapter.Blade:
		return a.newSession(ctx, opts, host)
	case "", adapter.LiteAgent:
		if opts.PermissionCallback {
			return nil, adapter.Errorf(adapter.KindUnsupported, "a permission callback is Blade's; lite-agent has a policy and onApproval")
		}
	default:
		return nil, adapter.Errorf(adapter.KindUnsupported, "the reference implements lite-agent and blade, not %s", opts.System)
	}
	logs := &logBuffer{}
	ro := reference.Options{
		Workdir:         opts.Workdir,
		Home:            opts.Home,
		StrictMCPConfig: opts.StrictMCPConfig,
		AllowedTools:    opts.AllowedTools,
		Environ:         a.env.Environ,
		MCPTransports:   opts.MCPTransports,
		Sandbox:         opts.Sandbox,
		Model:           model{host},
		DryRun:          opts.DryRun,
		Hooks:           hooks(host),
		Logger:          slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	fault.Inject(&ro, a.faults)
	var clock *reference.ManualClock
	if opts.ManualClock {
		clock = &reference.ManualClock{}
		ro.Clock = clock
	}
	if len(opts.MCPServers) > 0 {
		servers, err := decodeServers(opts.MCPServers, "mcpServers option", a.faults)
		if err != nil {
			return nil, contractError(err)
		}
		ro.MCPServers = servers
	}
	ro.Permission, ro.Approval = permissions(opts, host)
	oauth, err := oauthOptions(opts.MCPOAuth, host)
	if err != nil {
		return nil, err
	}
	ro.MCPOAuth = oauth
	if ro.Tools, err = a.hostTools(opts, host); err != nil {
		return nil, err
	}
	ag, err := reference.New(ro)
	if err != nil {
		return nil, contractError(err)
	}
	return newAgent(ag, a.faults, host, clock, logs), nil
}

// hostTools builds the tools the host defines.
func (a *refAdapter) hostTools(opts adapter.AgentOptions, host adapter.Host) ([]reference.Tool, error) {
	var out []reference.Tool
	for _, def := range opts.Tools {
		t, err := newHostTool(def, host, a.faults)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// permissions translates the options' permission policy and approval
// handler; nil means the reference's default policy, or no handler.
func permissions(opts adapter.AgentOptions, host adapter.Host) (*reference.Policy, reference.ApprovalHandler) {
	var p *reference.Policy
	if opts.Permission != nil {
		p = &reference.Policy{Ask: opts.Permission.Ask, Allow: opts.Permission.Allow, Deny: opts.Permission.Deny}
	}
	if !opts.Approval {
		return p, nil
	}
	return p, approval{host}
}

// newAgent wraps a reference agent with the target's faults, forwarding
// its subscribe() events.
func newAgent(ag *reference.Agent, faults fault.Set, host adapter.Host, clock *reference.ManualClock, logs *logBuffer) *agent {
	g := &agent{faults: faults, ag: ag, host: host, clock: clock, logs: logs}
	ag.Subscribe(func(ev reference.Event) { host.Event(context.Background(), contractEvent(ev, "subscribe")) })
	return g
}

// The reference's decoders as the target's faults break them: the public
// ones take none (fault.Twin).
var (
	decodeServers      = fault.Twin[func([]byte, string, fault.Set) ([]reference.NamedServer, error)]("reference.DecodeServers")
	decodeServerConfig = fault.Twin[func([]byte, fault.Set) (reference.ServerConfig, error)]("reference.DecodeServerConfig")
)

// agent is a reference agent behind the contract.
type agent struct {
	faults fault.Set
	ag     *reference.Agent
	host   adapter.Host
	clock  *reference.ManualClock // nil unless the options asked for one
	logs   *logBuffer
}

func (g *agent) MCPStatus(context.Context) ([]adapter.BladeServerStatus, error) {
	return nil, notBlade()
}
func (g *agent) MCPConnect(context.Context, string) error    { return notBlade() }
func (g *agent) MCPDisconnect(context.Context, string) error { return notBlade() }
func (g *agent) MCPReconnect(context.Context, string) error  { return notBlade() }
func (g *agent) MCPListTools(context.Context) ([]adapter.ToolInfo, error) {
	return nil, notBlade()
}

// notBlade refuses a Blade operation on a lite-agent agent.
func notBlade() error {
	return adapter.Errorf(adapter.KindUnsupported, "a lite-agent agent has no Blade runtime API")
}

// Run sends through the run's event stream.
func (g *agent) Run(ctx context.Context, prompt string) (adapter.SendResult, error) {
	r, err := g.ag.Run(ctx, prompt, func(ev reference.Event) { g.host.Event(ctx, contractEvent(ev, "run")) })
	if err != nil {
		return adapter.SendResult{}, contractError(err)
	}
	return adapter.SendResult{Text: r.Text}, nil
}

// SubAgent creates a sub-agent.
func (g *agent) SubAgent(ctx context.Context, opts adapter.SubAgentOptions) (adapter.Agent, error) {
	so := reference.SubAgentOptions{AllowedTools: opts.AllowedTools}
	if opts.Permission != nil {
		so.Permission = &reference.Policy{Ask: opts.Permission.Ask, Allow: opts.Permission.Allow, Deny: opts.Permission.Deny}
	}
	sub, err := g.ag.SubAgent(so)
	if err != nil {
		return nil, contractError(err)
	}
	return newAgent(sub, g.faults, g.host, g.clock, g.logs), nil
}

// Project projects a tool result.
func (g *agent) Project(ctx context.Context, result json.RawMessage) (adapter.Projection, error) {
	p, err := g.ag.Project(result)
	if err != nil {
		return adapter.Projection{}, contractError(err)
	}
	return adapter.Projection{Text: p.Text, Bytes: p.Bytes, Archived: p.Archived, IsError: p.IsError}, nil
}

// AdvanceClock moves the agent's manual clock.
func (g *agent) AdvanceClock(ctx context.Context, d time.Duration) error { return advance(g.clock, d) }

// advance moves a manual clock, when the agent was created with one.
func advance(clock *reference.ManualClock, d time.Duration) error {
	if clock == nil {
		return adapter.Errorf(adapter.KindUnsupported, "the agent was not created with a manual clock")
	}
	clock.Advance(d)
	return nil
}

// Logs returns what the reference logged.
func (g *agent) Logs(ctx context.Context) ([]string, error) { return g.logs.lines(), nil }

// logBuffer keeps a reference agent's log output.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := []string{}
	for _, l := range strings.Split(b.buf.String(), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func (g *agent) Send(ctx context.Context, prompt string) (adapter.SendResult, error) {
	r, err := g.ag.Send(ctx, prompt)
	if err != nil {
		return adapter.SendResult{}, contractError(err)
	}
	return adapter.SendResult{Text: r.Text}, nil
}

func (g *agent) Register(ctx context.Context, name string, entry json.RawMessage) error {
	cfg, err := decodeServerConfig(entry, g.faults)
	if err != nil {
		return contractError(err)
	}
	return contractError(g.ag.MCP().Register(ctx, name, cfg))
}

func (g *agent) Unregister(ctx context.Context, name string) error {
	return contractError(g.ag.MCP().Unregister(ctx, name))
}

func (g *agent) List(ctx context.Context) ([]adapter.ServerStatus, error) {
	out := []adapter.ServerStatus{}
	for _, s := range g.ag.MCP().List() {
		raw, _ := json.Marshal(s)
		out = append(out, adapter.ServerStatus{
			Name: s.Name, Source: adapter.Source(s.Source), Status: adapter.Status(s.Status),
			Tools: s.Tools, Raw: raw,
		})
	}
	return out, nil
}

func (g *agent) AwaitIdle(ctx context.Context) error { return contractError(g.ag.AwaitIdle(ctx)) }

// Close closes the agent; ctx bounds how long the caller waits, while the
// reference finishes closing on its own.
func (g *agent) Close(ctx context.Context) error { return closeWithin(ctx, g.ag.Close) }

// closeWithin runs close, waiting for it as long as ctx allows; the
// implementation finishes closing on its own after that.
func closeWithin(ctx context.Context, close func() error) error {
	done := make(chan error, 1)
	go func() { done <- close() }()
	select {
	case err := <-done:
		return contractError(err)
	case <-ctx.Done():
		return adapter.Errorf(adapter.KindTimeout, "close() did not return: %v", ctx.Err())
	}
}

// contractError maps a reference error to the contract's kinds.
func contractError(err error) error {
	if err == nil {
		return nil
	}
	var ae *adapter.Error
	if errors.As(err, &ae) {
		return err // already the contract's
	}
	var re *reference.Error
	if !errors.As(err, &re) {
		return &adapter.Error{Kind: adapter.KindInternal, Message: err.Error()}
	}
	return &adapter.Error{Kind: kinds[re.Kind], Rule: re.Rule, Message: err.Error()}
}

// kinds maps the reference's error kinds to the contract's.
var kinds = map[reference.Kind]adapter.Kind{
	reference.KindConfig:      adapter.KindConfig,
	reference.KindName:        adapter.KindName,
	reference.KindLimit:       adapter.KindLimit,
	reference.KindConflict:    adapter.KindConflict,
	reference.KindNotFound:    adapter.KindNotFound,
	reference.KindBusy:        adapter.KindBusy,
	reference.KindValidation:  adapter.KindValidation,
	reference.KindTransport:   adapter.KindTransport,
	reference.KindProtocol:    adapter.KindProtocol,
	reference.KindSecurity:    adapter.KindSecurity,
	reference.KindPermission:  adapter.KindPermission,
	reference.KindAuth:        adapter.KindAuth,
	reference.KindTimeout:     adapter.KindTimeout,
	reference.KindCancelled:   adapter.KindCancelled,
	reference.KindClosed:      adapter.KindClosed,
	reference.KindUnsupported: adapter.KindUnsupported,
	reference.KindInternal:    adapter.KindInternal,
}
