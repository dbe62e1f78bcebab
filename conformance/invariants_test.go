package conformance_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
)

// breaking is the reference behind a wrapper that breaks one invariant,
// in Go, without the reference's own code: its agents and their host
// callbacks pass through agent and host when set.
type breaking struct {
	refadapter.Target
	agent func(a adapter.Agent, opts adapter.AgentOptions, host adapter.Host) adapter.Agent
	host  func(h adapter.Host) adapter.Host
}

func (b breaking) Open(ctx context.Context, env adapter.Env) (adapter.Adapter, error) {
	a, err := b.Target.Open(ctx, env)
	return breakingAdapter{Adapter: a, b: b}, err
}

type breakingAdapter struct {
	adapter.Adapter
	b breaking
}

// lateEvent, for the late-event wrapper: when the adapter closes, after
// every agent's close() returned, it emits one more event.
type lateEvent struct {
	adapter.Adapter
	mu    sync.Mutex
	hosts []adapter.Host
}

func (l *lateEvent) NewAgent(ctx context.Context, opts adapter.AgentOptions, host adapter.Host) (adapter.Agent, error) {
	l.mu.Lock()
	l.hosts = append(l.hosts, host)
	l.mu.Unlock()
	return l.Adapter.NewAgent(ctx, opts, host)
}

func (l *lateEvent) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, h := range l.hosts {
		h.Event(context.Background(), adapter.Event{Type: "tool_progress", Name: "mcp__p__a"})
	}
	return l.Adapter.Close()
}

// lateEvents is the reference with an adapter that emits an event after
// close() returned.
type lateEvents struct{ refadapter.Target }

func (t lateEvents) Open(ctx context.Context, env adapter.Env) (adapter.Adapter, error) {
	a, err := t.Target.Open(ctx, env)
	return &lateEvent{Adapter: a}, err
}

func (a breakingAdapter) NewAgent(ctx context.Context, opts adapter.AgentOptions, host adapter.Host) (adapter.Agent, error) {
	if a.b.host != nil {
		host = a.b.host(host)
	}
	ag, err := a.Adapter.NewAgent(ctx, opts, host)
	if err != nil || a.b.agent == nil {
		return ag, err
	}
	return a.b.agent(ag, opts, host), nil
}

// leakyList shows the header values of the option's entries in list().
type leakyList struct {
	adapter.Agent
	values []string
}

func (l leakyList) List(ctx context.Context) ([]adapter.ServerStatus, error) {
	st, err := l.Agent.List(ctx)
	for i := range st {
		raw, _ := json.Marshal(map[string]any{"name": st[i].Name, "debug": l.values})
		st[i].Raw = raw
	}
	return st, err
}

// genericSchemas offers every MCP tool with {"type":"object"}.
type genericSchemas struct{ adapter.Host }

func (g genericSchemas) Model(ctx context.Context, req adapter.ModelRequest) (adapter.ModelResponse, error) {
	req.Tools = append([]adapter.ToolDef(nil), req.Tools...)
	for i, t := range req.Tools {
		if strings.HasPrefix(t.Name, "mcp__") {
			req.Tools[i].InputSchema = json.RawMessage(`{"type":"object"}`)
		}
	}
	return g.Host.Model(ctx, req)
}

// timeoutsSucceed reports a call that timed out as a success to its hook.
type timeoutsSucceed struct{ adapter.Host }

func (t timeoutsSucceed) Hook(ctx context.Context, h adapter.HookEvent) error {
	if h.Type == "tool:end" && h.Outcome == "timeout" {
		h.Outcome, h.IsError = "success", false
	}
	return t.Host.Hook(ctx, h)
}

// neverClosed leaves the reference agent open when the world closes it,
// so its processes outlive the scenario; the test closes it at the end.
type neverClosed struct {
	adapter.Agent
	left *leftAgents
}

func (n neverClosed) Close(ctx context.Context) error {
	n.left.add(n.Agent)
	return nil
}

type leftAgents struct {
	mu     sync.Mutex
	agents []adapter.Agent
}

func (l *leftAgents) add(a adapter.Agent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.agents = append(l.agents, a)
}

func (l *leftAgents) closeAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, a := range l.agents {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_ = a.Close(ctx)
		cancel()
	}
}

// headerValues returns the header values of the mcpServers option.
func headerValues(opts adapter.AgentOptions) []string {
	var servers map[string]struct {
		Headers map[string]string `json:"headers"`
	}
	_ = json.Unmarshal(opts.MCPServers, &servers)
	var out []string
	for _, s := range servers {
		for _, v := range s.Headers {
			out = append(out, v)
		}
	}
	return out
}

// TestInvariantsCatchWhatNoStepChecks breaks one invariant at a time,
// outside the reference's code, and runs scenarios whose own steps do not
// look for that bug: the invariant alone must turn them red, naming itself.
func TestInvariantsCatchWhatNoStepChecks(t *testing.T) {
	left := &leftAgents{}
	t.Cleanup(left.closeAll)
	tests := []struct {
		name      string
		target    adapter.Target
		rules     []string
		invariant string
	}{
		{"a header value in list()", breaking{agent: func(a adapter.Agent, o adapter.AgentOptions, _ adapter.Host) adapter.Agent {
			return leakyList{Agent: a, values: headerValues(o)}
		}}, []string{"LA-TRN-06"}, "no secret on a host surface"},
		{"an event after close()", lateEvents{}, []string{"LA-CFG-02"}, "nothing after close()"},
		{"generic input schemas", breaking{host: func(h adapter.Host) adapter.Host { return genericSchemas{h} }}, []string{"LA-CFG-02"}, "the model is offered the catalog exactly"},
		{"a timeout reported as a success", breaking{host: func(h adapter.Host) adapter.Host { return timeoutsSucceed{h} }}, []string{"LA-TMO-04"}, "outcomes are reported as they were"},
		{"processes left running", breaking{agent: func(a adapter.Agent, _ adapter.AgentOptions, _ adapter.Host) adapter.Agent {
			return neverClosed{Agent: a, left: left}
		}}, []string{"LA-CFG-02"}, "no process outlives the scenario"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			rep, err := conformance.Run(ctx, conformance.Options{Target: tt.target, Rules: tt.rules, StepTimeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			red := 0
			for _, s := range rep.Scenarios {
				if s.Status == conformance.StatusFailed && strings.Contains(s.Error, `invariant "`+tt.invariant+`"`) {
					red++
				} else if s.Status == conformance.StatusFailed {
					t.Logf("%s:%d failed otherwise: %s", s.Feature, s.Line, s.Error)
				}
			}
			if red == 0 {
				t.Errorf("no scenario of %v failed the invariant %q (%d scenarios, summary %+v)", tt.rules, tt.invariant, len(rep.Scenarios), rep.Summary)
			}
		})
	}
}
