// Package node_test runs the Node.js stub adapter of this directory under
// `go test`, proving that the adapter protocol document is enough to write
// an adapter in another language.
package node_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
	"github.com/mcpconform/mcpconform/spec"
)

// nodeTarget is the stub adapter, or a skip when Node.js 20+ is missing.
func nodeTarget(t *testing.T) *rpcadapter.Target {
	// As `mcpconform run` has it: the stub declares reuse, so its
	// processes serve scenarios in turn (TestNodeStubPassesNamingAndConfiguration
	// starts one per scenario).
	return &rpcadapter.Target{Command: nodeCommand(t, "stub-adapter.mjs"), Reuse: true}
}

// nodeCommand runs the script of this directory with Node.js, or skips
// the test when Node.js 20+ is missing.
func nodeCommand(t *testing.T, script string) []string {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; the Node.js adapter needs Node.js 20 or later")
	}
	out, err := exec.Command(node, "-p", "process.versions.node.split('.')[0] >= 20").Output()
	if err != nil || strings.TrimSpace(string(out)) != "true" {
		t.Skipf("node is older than 20 (%s)", out)
	}
	path, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	return []string{node, path}
}

// rulesOf lists the rule IDs of areas.
func rulesOf(areas ...string) []string {
	var ids []string
	for _, r := range spec.Rules() {
		for _, a := range areas {
			if r.Area == a {
				ids = append(ids, r.ID)
			}
		}
	}
	return ids
}

// TestNodeStubPassesNamingAndConfiguration runs the naming and
// configuration scenarios, plus the unregister scenarios, against the Node
// stub, through its adapter and through the minimal adapter of
// spec/adapter-protocol.md: nothing fails, and what the adapter does not
// declare is skipped, naming the missing operation or capability.
func TestNodeStubPassesNamingAndConfiguration(t *testing.T) {
	for _, script := range []string{"stub-adapter.mjs", "minimal-adapter.mjs"} {
		t.Run(script, func(t *testing.T) {
			t.Parallel()
			passesNamingAndConfiguration(t, &rpcadapter.Target{Command: nodeCommand(t, script)})
		})
	}
}

func passesNamingAndConfiguration(t *testing.T, target *rpcadapter.Target) {
	rules := append(rulesOf("LA-NAME", "LA-CFG"), "LA-REG-06", "LA-REG-12")
	rep, err := conformance.Run(context.Background(), conformance.Options{Target: target, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	skippedForOperation := 0
	for _, s := range rep.Scenarios {
		switch s.Status {
		case conformance.StatusPassed:
		case conformance.StatusSkipped:
			if !strings.Contains(s.Error, "capability") && !strings.Contains(s.Error, "operation") {
				t.Errorf("%s skipped without naming what is missing: %q", s.Name, s.Error)
			}
			if strings.Contains(s.Error, "agent/unregister") {
				skippedForOperation++
			}
		default:
			t.Errorf("%s %s:%d %s\n%s\n%s", s.Status, s.Feature, s.Line, s.Name, s.Error, strings.Join(s.Evidence, "\n"))
		}
	}
	if rep.Summary.Passed < 60 {
		t.Errorf("only %d scenarios passed: %+v", rep.Summary.Passed, rep.Summary)
	}
	if skippedForOperation == 0 {
		t.Error("no scenario was skipped for the undeclared agent/unregister")
	}
	t.Logf("%s: %+v", target.Command[1], rep.Summary)
}

// TestNodeStubPassesTheAdapterCheck runs `mcpconform adapter check`'s probes
// against the Node stub.
func TestNodeStubPassesTheAdapterCheck(t *testing.T) {
	for _, r := range rpcadapter.Check(context.Background(), nodeTarget(t)) {
		if r.Verdict == rpcadapter.CheckFailed {
			t.Errorf("%s: %s", r.Check, r.Detail)
		}
	}
}
