package rpcadapter_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
)

// twoScenarios are two quick scenarios, one of each feature.
var twoScenarios = []string{"lite-agent/configuration/without-mcp-configuration-nothing-is-connected", "lite-agent/naming/an-alias-never-contains"}

// reuseRules are scenarios of the configuration files in <home> and the
// workdir, and of stdio servers: what the environment and directory of
// each scenario decide.
var reuseRules = []string{"LA-CFG-13", "LA-NAME-04", "LA-CFG-01", "LA-TRN-01"}

// counted runs rules against target with one scenario at a time, and
// counts the messages of each method the runner sent.
func counted(t *testing.T, target *rpcadapter.Target, rules []string, only ...string) (*conformance.Report, map[string]int) {
	t.Helper()
	var mu sync.Mutex
	sent := map[string]int{}
	target.Observe = func(tr rpcadapter.Traffic) {
		if tr.Sent && tr.Kind == "request" {
			mu.Lock()
			sent[tr.Method]++
			mu.Unlock()
		}
	}
	rep, err := conformance.Run(context.Background(), conformance.Options{Target: target, Rules: rules, Only: only, Concurrency: 1, StepTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return rep, sent
}

// TestReuseServesScenariosInTurn: with reuse, one adapter process serves
// the scenarios one after the other, each begun with its own directory
// and environment (the configuration scenarios read <home> and the
// workdir from them), with the verdicts of a process per scenario.
func TestReuseServesScenariosInTurn(t *testing.T) {
	target := adapterTarget(t, "reference")
	target.Reuse = true
	rep, sent := counted(t, target, reuseRules)
	ran := rep.Summary.Passed + rep.Summary.Failed
	if rep.Summary.Failed > 0 || ran < 4 {
		t.Fatalf("summary %+v; want every scenario passed", rep.Summary)
	}
	// One process to read the handshake, one for the scenarios.
	if sent["initialize"] != 2 || sent["scenario/begin"] != ran-1 || sent["scenario/end"] != ran {
		t.Errorf("for %d scenarios the runner sent initialize %d times, scenario/begin %d, scenario/end %d, shutdown %d; want 2, %d, %d",
			ran, sent["initialize"], sent["scenario/begin"], sent["scenario/end"], sent["shutdown"], ran-1, ran)
	}
	for _, s := range rep.Scenarios {
		if s.Rerun != "" {
			t.Errorf("%s ran again: %s", s.ID, s.Rerun)
		}
	}
}

// TestWithoutReuseEveryScenarioHasAProcess: a target that does not allow
// reuse starts a process per scenario, whatever the adapter declares.
func TestWithoutReuseEveryScenarioHasAProcess(t *testing.T) {
	rep, sent := counted(t, adapterTarget(t, "reference"), reuseRules[:2])
	ran := rep.Summary.Passed + rep.Summary.Failed
	if sent["initialize"] != ran+1 || sent["scenario/begin"] != 0 || sent["scenario/end"] != 0 {
		t.Errorf("for %d scenarios: initialize %d, scenario/begin %d, scenario/end %d; want %d, 0, 0", ran, sent["initialize"], sent["scenario/begin"], sent["scenario/end"], ran+1)
	}
}

// TestReuseFindsWhatAScenarioLeft: processes an adapter process started
// and left running after scenario/end fail the scenario, killed and
// named, and the process that left them serves no other scenario: two
// below it (one in its group, one in a session of its own), or one it
// started through a shell that exited, in a session of its own (an
// orphan, adopted by init or a subreaper, in no group of the adapter's,
// found by the adapter's stdout it holds).
func TestReuseFindsWhatAScenarioLeft(t *testing.T) {
	for _, tt := range []struct {
		mode string
		left int
	}{
		{"grandchild", 2},
		{"orphan", 1},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			exe, _ := os.Executable()
			notes := filepath.Join(t.TempDir(), "sigterms")
			target := adapterTarget(t, tt.mode)
			target.Env = map[string]string{"LINGER_FILE": notes}
			target.Reuse = true
			rep, sent := counted(t, target, nil, twoScenarios...)
			if len(rep.Scenarios) != 2 || sent["scenario/end"] != 2 {
				t.Fatalf("%d scenarios, %d scenario/end; want 2 of each", len(rep.Scenarios), sent["scenario/end"])
			}
			requireLingerersNamed(t, rep, exe, notes, tt.left)
			if sent["scenario/begin"] != 0 {
				t.Errorf("processes that left processes behind began %d more scenarios", sent["scenario/begin"])
			}
			if alive := lingerers(exe); len(alive) > 0 {
				t.Errorf("leftovers still running: %v", alive)
			}
		})
	}
}

// TestReuseFindsAListenerLeft: an adapter process that still listens on a
// port after it ended the scenario fails it, naming the address.
func TestReuseFindsAListenerLeft(t *testing.T) {
	target := adapterTarget(t, "listener")
	target.Reuse = true
	rep, sent := counted(t, target, reuseRules[:2])
	for _, s := range rep.Scenarios {
		if s.Status != conformance.StatusFailed || !strings.Contains(s.Error, "still listens on 127.0.0.1:") {
			t.Errorf("%s: %s, %q; want failed, naming the listener", s.ID, s.Status, s.Error)
		}
	}
	if sent["scenario/begin"] != 0 {
		t.Errorf("a process that left a listener began %d more scenarios", sent["scenario/begin"])
	}
}

// TestAStaleAdapterIsRunAgainFresh: an adapter that keeps state from one
// scenario to the next fails every scenario but its first; each runs again
// in a process of its own, passes there, and the report says so.
func TestAStaleAdapterIsRunAgainFresh(t *testing.T) {
	target := adapterTarget(t, "stale")
	target.Reuse = true
	rep, sent := counted(t, target, nil, twoScenarios...)
	rerun := 0
	for _, s := range rep.Scenarios {
		if s.Status != conformance.StatusPassed {
			t.Errorf("%s: %s (%s); want passed in a fresh process", s.ID, s.Status, s.Error)
		}
		if s.Rerun != "" {
			rerun++
			if !strings.Contains(s.Rerun, "served other scenarios") || !strings.Contains(s.Rerun, "stale: this process served a scenario before") {
				t.Errorf("%s: rerun note %q does not say how it failed", s.ID, s.Rerun)
			}
		}
	}
	if rerun == 0 || sent["scenario/begin"] == 0 {
		t.Fatalf("%d scenarios ran again after %d scenario/begin; want some", rerun, sent["scenario/begin"])
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "passed only in an adapter process of their own") {
		t.Errorf("the text report does not list them:\n%s", text.String())
	}
}

// TestAnExpectedFailureRunsFreshFromTheStart: a scenario the baseline
// expects to fail gets an adapter process of its own at once, so it never
// runs twice: the stale adapter passes it there (an unexpected pass),
// with no run again.
func TestAnExpectedFailureRunsFreshFromTheStart(t *testing.T) {
	expected := twoScenarios[1]
	target := adapterTarget(t, "stale")
	target.Reuse = true
	rep, err := conformance.Run(context.Background(), conformance.Options{Target: target, Only: twoScenarios, Concurrency: 1, StepTimeout: 10 * time.Second,
		Baseline: &conformance.Baseline{Version: 1, Entries: []conformance.BaselineEntry{{Scenario: expected, Reason: "a test"}}}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range rep.Scenarios {
		if s.ID != expected {
			continue
		}
		found = true
		if s.Status != conformance.StatusPassed || s.Rerun != "" || s.Baseline != conformance.BaselineUnexpectedPass {
			t.Errorf("%s: %s, baseline %q, rerun %q; want passed in a process of its own (an unexpected pass), not run again", s.ID, s.Status, s.Baseline, s.Rerun)
		}
	}
	if !found {
		t.Fatalf("no scenario %s ran", expected)
	}
}

// idleHost is the host of an agent that never asks it anything.
type idleHost struct{ adapter.Host }

// TestTheLastWordsOfAScenarioAreItsOwn: what an adapter writes on stderr
// as scenario/end closes its agents, just before it answers, is in that
// scenario's console when Close returns (a secret printed then is
// searched for there), in a process that serves scenarios in turn.
func TestTheLastWordsOfAScenarioAreItsOwn(t *testing.T) {
	target := adapterTarget(t, "last-words")
	target.Reuse = true
	defer target.Close()
	ctx := context.Background()
	for i := range 8 {
		dir := t.TempDir()
		work := filepath.Join(dir, "work")
		if err := os.MkdirAll(work, 0o755); err != nil {
			t.Fatal(err)
		}
		a, err := target.Open(ctx, adapter.Env{Dir: dir, Environ: os.Environ()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.NewAgent(ctx, adapter.AgentOptions{System: adapter.LiteAgent, Workdir: work, Approval: true}, idleHost{}); err != nil {
			t.Fatal(err)
		}
		a.Close() // scenario/end closes the agent, which writes its last words
		if reused := a.(adapter.Reuser).Reused(); reused != (i > 0) {
			t.Fatalf("scenario %d: reused %v; want %v", i, reused, i > 0)
		}
		console := a.(adapter.Console).Console()
		if !strings.HasSuffix(strings.TrimSpace(console), "LAST-WORDS") {
			t.Errorf("scenario %d: its console ends %q; want the last words", i, console[max(0, len(console)-40):])
		}
	}
}
