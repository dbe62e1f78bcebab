package rpcadapter

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// TestProbesHaveOneNameEach: a check's result names its probe, so two
// probes with one name could not be told apart.
func TestProbesHaveOneNameEach(t *testing.T) {
	seen := map[string]bool{"agents": true, "schemas": true, "setup": true, "message schemas": true}
	for _, pr := range probes {
		if seen[pr.name] || pr.run == nil {
			t.Errorf("probe %q: Expected: a name of its own and a run\nActual:   duplicate name or no run", pr.name)
		}
		seen[pr.name] = true
	}
}

// TestProbeApplies checks which probes run against what a handshake
// declares, and what is reported in place of those that do not.
func TestProbeApplies(t *testing.T) {
	lite := adapter.Info{Systems: []adapter.System{adapter.LiteAgent}, Operations: []adapter.Operation{adapter.OpCreate, adapter.OpSend}}
	none := adapter.Info{Operations: []adapter.Operation{adapter.OpCreate}}
	skipped := func(name, detail string) *CheckResult {
		return &CheckResult{Check: name, Verdict: CheckSkipped, Detail: detail}
	}
	const noOp = "not among the declared operations"
	const noAgents = "the handshake claims no system, so no agent can be created; the checks of agents and operations did not run"
	tests := []struct {
		name string
		info adapter.Info
		pr   probe
		skip *CheckResult
		run  bool
	}{
		{"a probe needing nothing", none, probe{name: "unknown method"}, nil, true},
		{"a declared operation", lite, probe{name: "agent/send", op: adapter.OpSend, agent: true}, nil, true},
		{"an undeclared operation", lite, probe{name: "agent/run", op: adapter.OpRun, agent: true}, skipped("agent/run", noOp), false},
		{"a system not claimed", lite, probe{name: "blade session", op: adapter.OpMCPStatus, system: adapter.Blade, agent: true}, nil, false},
		{"an agent without systems", none, probe{name: "agent/create", agent: true}, skipped("agents", noAgents), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &checkRun{info: tt.info}
			skip, run := c.applies(tt.pr)
			if run != tt.run || !cmp.Equal(skip, tt.skip) {
				t.Errorf("Expected: run %v, skip %+v\nActual:   run %v, skip %+v", tt.run, tt.skip, run, skip)
			}
		})
	}
	// The "agents" skip is reported once, for the first probe needing an agent.
	c := &checkRun{info: none}
	c.applies(probe{name: "agent/create", agent: true})
	if skip, run := c.applies(probe{name: "agent/list", agent: true}); skip != nil || run {
		t.Errorf("Expected: the second probe needing an agent skipped silently\nActual:   run %v, skip %+v", run, skip)
	}
}
