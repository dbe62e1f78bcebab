package conformance_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
)

// repeatTest has a scenario whose verdict depends on luck, and one that
// does not.
const repeatTest = `@lite-agent
Feature: repetitions

  @LA-CFG-13
  Scenario: a send that fails every other time
    When the host creates the agent and sends "flaky"
    Then the model was asked 1 time

  @LA-CFG-13
  Scenario: a send that always works
    When the host creates the agent and sends "steady"
    Then the model was asked 1 time
`

// everyOther is the reference, but every second send of "flaky" fails.
type everyOther struct {
	refadapter.Target
	mu    sync.Mutex
	sends int
}

func (t *everyOther) Open(ctx context.Context, env adapter.Env) (adapter.Adapter, error) {
	a, err := t.Target.Open(ctx, env)
	return everyOtherAdapter{a, t}, err
}

type everyOtherAdapter struct {
	adapter.Adapter
	t *everyOther
}

func (a everyOtherAdapter) NewAgent(ctx context.Context, opts adapter.AgentOptions, host adapter.Host) (adapter.Agent, error) {
	g, err := a.Adapter.NewAgent(ctx, opts, host)
	return everyOtherAgent{g, a.t}, err
}

type everyOtherAgent struct {
	adapter.Agent
	t *everyOther
}

func (g everyOtherAgent) Send(ctx context.Context, prompt string) (adapter.SendResult, error) {
	if prompt == "flaky" {
		g.t.mu.Lock()
		g.t.sends++
		odd := g.t.sends%2 == 1
		g.t.mu.Unlock()
		if odd {
			return adapter.SendResult{}, adapter.Errorf(adapter.KindInternal, "bad luck")
		}
	}
	return g.Agent.Send(ctx, prompt)
}

// TestRepeatFindsFlakes runs every scenario 4 times: the one that passes
// only every other time is flaky, with the verdict of each repetition,
// and fails the run; the steady one passed 4 times.
func TestRepeatFindsFlakes(t *testing.T) {
	rep, err := conformance.Run(context.Background(), conformance.Options{
		Target: &everyOther{}, Repeat: 4, Concurrency: 3,
		Features: fstest.MapFS{"repeat.feature": {Data: []byte(repeatTest)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Scenarios) != 2 || rep.Repeat != 4 {
		t.Fatalf("%d scenarios, repeat %d: want each of the 2 once, folded", len(rep.Scenarios), rep.Repeat)
	}
	byName := map[string]conformance.ScenarioResult{}
	for _, s := range rep.Scenarios {
		byName[s.Name] = s
	}
	flaky, steady := byName["a send that fails every other time"], byName["a send that always works"]
	count := func(rs []conformance.Status, st conformance.Status) int {
		return len(slices.DeleteFunc(slices.Clone(rs), func(x conformance.Status) bool { return x != st }))
	}
	if flaky.Status != conformance.StatusFlaky || count(flaky.Repetitions, conformance.StatusPassed) != 2 || count(flaky.Repetitions, conformance.StatusFailed) != 2 ||
		!strings.Contains(flaky.Error, "flaky: the verdict differed between the 4 repetitions (2 passed, 2 failed)") || !strings.Contains(flaky.Error, "was failed: step") {
		t.Errorf("the flaky scenario: %s %v %q", flaky.Status, flaky.Repetitions, flaky.Error)
	}
	if steady.Status != conformance.StatusPassed || !slices.Equal(steady.Repetitions, []conformance.Status{"passed", "passed", "passed", "passed"}) {
		t.Errorf("the steady scenario: %s %v %q", steady.Status, steady.Repetitions, steady.Error)
	}
	if rep.OK() || rep.Verdict != "fail" || rep.Summary.Unstable != 1 || rep.Summary.Passed != 1 {
		t.Errorf("verdict %q, OK %v, summary %+v: want a failed run with 1 flaky scenario", rep.Verdict, rep.OK(), rep.Summary)
	}
	var text bytes.Buffer
	_ = rep.WriteText(&text)
	for _, want := range []string{"every scenario ran 4 times", "FLAKY repeat.feature:5 a send that fails every other time", "1 flaky"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text report does not say %q:\n%s", want, text.String())
		}
	}
}
