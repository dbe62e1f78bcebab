package reference

import (
	"context"
	"encoding/json"

	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// Agent is the reference lite-agent host: it owns the MCP registry, runs
// turns against its [Model], and asks its [ApprovalHandler] what the
// [Policy] asks about.
//
// An Agent does one thing at a time: a run ([Agent.Send]), a registration or
// an unregistration. Registry changes are refused while anything else is
// active (LA-REG-15).
type Agent struct {
	h   *core.Host
	reg *Registry
}

// New builds an agent: it reads and validates the configuration files and
// the mcpServers option, and starts nothing (LA-CFG-10, LA-CFG-11). Servers
// connect at the first [Agent.Send] or at [Registry.Register]. A bad
// configuration is an [*Error] naming the file, the field and the rule.
func New(opts Options) (*Agent, error) {
	h, err := core.New(opts.core(), core.LiteAgent())
	if err != nil {
		return nil, err
	}
	return wrap(h), nil
}

// wrap makes a core host an Agent.
func wrap(h *core.Host) *Agent {
	return &Agent{h: h, reg: &Registry{r: h.MCP()}}
}

// MCP returns the agent's registry (agent.mcp).
func (a *Agent) MCP() *Registry { return a.reg }

// Send runs one turn with the user prompt (agent.send()). Before the model
// is asked anything, every declared server that is not connected yet, or
// is stale, is authorized, connected, discovered and validated (LA-CFG-12,
// LA-CAT-05); a server that fails makes Send fail, naming it, while the
// others stay connected. The tool catalog is then fixed for the whole run
// (LA-CAT-01). Cancelling ctx cancels the run.
func (a *Agent) Send(ctx context.Context, prompt string) (*Response, error) {
	return a.h.Send(ctx, prompt)
}

// Run is [Agent.Send] with the run's event stream: onEvent, if not nil,
// receives every event of this run as it happens (agent.run()). Listeners
// of [Agent.Subscribe] receive them too.
func (a *Agent) Run(ctx context.Context, prompt string, onEvent func(Event)) (*Response, error) {
	return a.h.Run(ctx, prompt, onEvent)
}

// Subscribe registers fn for every event of the agent's runs, as they
// happen (agent.subscribe()). It returns the function that unsubscribes.
// Listeners get nothing once the agent is closed (LA-REG-22).
func (a *Agent) Subscribe(fn func(Event)) (unsubscribe func()) {
	return a.h.Subscribe(fn)
}

// AwaitIdle waits until no run or registry change is active (awaitIdle()),
// or ctx ends.
func (a *Agent) AwaitIdle(ctx context.Context) error { return a.h.AwaitIdle(ctx) }

// Close cancels active work, waits for it to end, and closes every
// connection, reaping stdio child processes (LA-REG-21, LA-REG-22).
// Configuration files and saved credentials are left alone. Close is
// idempotent; after it every operation fails with [KindClosed].
func (a *Agent) Close() error { return a.h.Close() }

// SubAgent creates a sub-agent of a root agent. It shares the root's
// registry and connections (LA-REG-17) and its model and approval handler,
// keeps its own allowlist and a stricter policy, and may not change the
// registry (LA-REG-14). Closing it closes none of the root's connections
// (LA-REG-20); closing the root closes it.
func (a *Agent) SubAgent(opts SubAgentOptions) (*Agent, error) {
	sub, err := a.h.SubAgent(opts)
	if err != nil {
		return nil, err
	}
	return wrap(sub), nil
}

// SubAgentOptions configure [Agent.SubAgent]: AllowedTools, the sub-agent's
// own tool allowlist (nil keeps its root's, LA-REG-18), and Permission, its
// own policy, applied on top of its root's so that the stricter answer
// wins (LA-REG-19).
type SubAgentOptions = core.SubAgentOptions

// Project projects a tool result given as MCP JSON (a CallToolResult), as
// the agent would for the model, archiving it in the agent's session when
// it would: for hosts that need to measure projections.
func (a *Agent) Project(result json.RawMessage) (Projection, error) {
	return a.h.Project(result)
}

// Projection is a tool result as the model receives it: Text, the JSON
// projection of its text, resource links and structuredContent, or a
// context reference when it was archived (Archived); Bytes, the size of the
// projection before archiving; IsError, a tool error (LA-VAL-05..07,
// LA-ARC-01..04).
type Projection = core.Projection

// ArchiveThreshold is the largest projection given to the model inline;
// a larger one goes to the session archive (LA-ARC-01).
const ArchiveThreshold = core.ArchiveThreshold

// ContextTool is the built-in tool through which the model reads the
// session archive in pages (LA-ARC-05).
const ContextTool = core.ContextTool
