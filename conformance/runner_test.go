package conformance_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
)

// selfTest is a feature file that exercises the runner itself.
const selfTest = `@lite-agent
Feature: runner self-test

  @LA-CFG-13
  Scenario: a passing scenario
    When the host creates the agent and sends "hi"
    Then the model was asked 1 time

  @LA-CFG-13
  Scenario: a scenario in which nothing observable happens
    When the host creates the agent
    Then it succeeds

  @LA-CFG-13
  Scenario: an undefined step
    When the host creates the agent
    Then the moon is made of cheese

  @LA-CFG-13
  Scenario: a Then step that asserts nothing
    When the host creates the agent
    Then the host sends "hello"

  @LA-CFG-13
  Scenario: a failing check
    When the host creates the agent
    Then it fails with a "config" error

  @LA-CFG-13 @adapter:session-dump
  Scenario: a capability the adapter lacks
    When the host creates the agent
    Then it succeeds

  @LA-CFG-13 @adapter-lacks:clock
  Scenario: a real-time variant for an adapter without the clock
    When the host creates the agent
    Then it succeeds
`

// selfTestBlade is a scenario of a system the reference does not claim.
const selfTestBlade = `@blade
Feature: runner self-test, other system

  @BL-CFG-01
  Scenario: a system the implementation does not claim
    When the host creates the agent
    Then it succeeds
`

// liteAgentOnly is the reference claiming lite-agent alone, so that the
// self-test has a system the implementation does not claim.
type liteAgentOnly struct{ refadapter.Target }

func (t liteAgentOnly) Info(ctx context.Context) (adapter.Info, error) {
	i, err := t.Target.Info(ctx)
	i.Systems = []adapter.System{adapter.LiteAgent}
	return i, err
}

func runSelfTest(t *testing.T, opts conformance.Options) (*conformance.Report, error) {
	t.Helper()
	opts.Target = liteAgentOnly{}
	opts.Features = fstest.MapFS{
		"self.feature":  {Data: []byte(selfTest)},
		"blade.feature": {Data: []byte(selfTestBlade)},
	}
	return conformance.Run(context.Background(), opts)
}

// TestRunnerVerdicts checks that nothing but real passing checks counts
// as a pass, and that skips name their reason.
func TestRunnerVerdicts(t *testing.T) {
	rep, err := runSelfTest(t, conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		status conformance.Status
		says   string
	}{
		"a passing scenario":                                   {conformance.StatusPassed, ""},
		"a scenario in which nothing observable happens":       {conformance.StatusFailed, "a positive observation"},
		"an undefined step":                                    {conformance.StatusUndefined, "the moon is made of cheese"},
		"a Then step that asserts nothing":                     {conformance.StatusFailed, "asserted nothing"},
		"a failing check":                                      {conformance.StatusFailed, "Expected: creating the agent fails with a config error"},
		"a capability the adapter lacks":                       {conformance.StatusSkipped, `capability "session-dump"`},
		"a real-time variant for an adapter without the clock": {conformance.StatusSkipped, `declares the capability "clock"`},
		"a system the implementation does not claim":           {conformance.StatusSkipped, "blade"},
	}
	if len(rep.Scenarios) != len(want) {
		t.Fatalf("got %d scenarios, want %d", len(rep.Scenarios), len(want))
	}
	for _, s := range rep.Scenarios {
		w, ok := want[s.Name]
		if !ok {
			t.Errorf("unexpected scenario %q", s.Name)
			continue
		}
		if s.Status != w.status || !strings.Contains(s.Error, w.says) {
			t.Errorf("%q: got %s %q, want %s mentioning %q", s.Name, s.Status, s.Error, w.status, w.says)
		}
	}
	if rep.OK() {
		t.Error("a report with failed and undefined scenarios is OK")
	}
	if got := rep.Summary; got.Passed != 1 || got.Failed != 3 || got.Undefined != 1 || got.Skipped != 3 {
		t.Errorf("summary %+v", got)
	}
}

// TestRunnerRefusesBadSelections checks the usage errors.
func TestRunnerRefusesBadSelections(t *testing.T) {
	tests := []struct {
		name string
		opts conformance.Options
		says string
	}{
		{"unknown rule", conformance.Options{Rules: []string{"LA-NOPE-01"}}, "unknown rule ID"},
		{"empty selection", conformance.Options{Tags: "@no-such-tag"}, "no scenario matches"},
		{"rule without scenario here", conformance.Options{Rules: []string{"LA-OAU-01"}}, "no scenario matches"},
		{"tags excluding everything", conformance.Options{Rules: []string{"LA-CFG-13"}, Tags: "@blade"}, "no scenario matches"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runSelfTest(t, tt.opts)
			var ue *conformance.UsageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("got %v, want a usage error saying %q", err, tt.says)
			}
		})
	}
}

// TestRunnerSelectsByRuleAndTag checks that rule IDs and tag expressions
// combine.
func TestRunnerSelectsByRuleAndTag(t *testing.T) {
	rep, err := runSelfTest(t, conformance.Options{Rules: []string{"LA-CFG-13"}, Tags: "~@adapter:session-dump"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Scenarios) != 6 {
		t.Errorf("selected %d scenarios, want the 6 LA-CFG-13 ones without @adapter:session-dump", len(rep.Scenarios))
	}
}
