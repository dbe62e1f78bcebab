package conformance_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/internal/fault"
)

// TestMutantsFail runs the scenarios of each rule against a reference with
// that rule deliberately broken, and requires at least one of them to go
// red: every encoded rule is shown to be able to fail.
func TestMutantsFail(t *testing.T) {
	if testing.Short() {
		t.Skip("mutation testing runs the suite once per mutant")
	}
	for _, m := range fault.All() {
		t.Run(string(m), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			rep, err := conformance.Run(ctx, conformance.Options{
				Target:      refadapter.Target{Faults: []fault.Fault{m}},
				Rules:       []string{m.Rule()},
				Concurrency: 2,
				StepTimeout: 5 * time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			var red []string
			for _, s := range rep.Scenarios {
				if s.Status == conformance.StatusFailed {
					red = append(red, fmt.Sprintf("%s:%d %s", s.Feature, s.Line, s.Name))
				}
			}
			if len(red) == 0 {
				t.Errorf("mutant %q (%s) passed all %d scenarios of %s: they cannot detect it", m, m.Description(), len(rep.Scenarios), m.Rule())
			}
			t.Logf("%d of %d scenarios red: %v", len(red), len(rep.Scenarios), red)
		})
	}
}

// TestEveryRuleHasAMutant requires a mutant for every rule with scenarios.
func TestEveryRuleHasAMutant(t *testing.T) {
	scs, err := conformance.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	broken := map[string]bool{}
	for _, m := range fault.All() {
		broken[m.Rule()] = true
	}
	missing := map[string]bool{}
	for _, s := range scs {
		for _, r := range s.Rules {
			if !broken[r] {
				missing[r] = true
			}
		}
	}
	for r := range missing {
		t.Errorf("rule %s has scenarios but no reference mutation proves they can fail", r)
	}
}
