package conformance_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
)

// TestReferenceConforms runs the whole suite against the reference,
// in-process, in random order, with every scenario as a subtest
// (go test -run 'TestReferenceConforms/alias' runs some of them).
func TestReferenceConforms(t *testing.T) {
	rep, err := conformance.Run(context.Background(), conformance.Options{
		Target:   refadapter.Target{},
		OnResult: progressFor(t),
		Seed:     -1,
		T:        t,
	})
	if err != nil {
		t.Fatal(err)
	}
	realTime := realTimeVariants(t)
	for _, s := range rep.Scenarios {
		if s.Status == conformance.StatusSkipped && realTime[s.ID] {
			continue // the reference has the clock: the clock-driven variant ran
		}
		if s.Status != conformance.StatusPassed {
			t.Errorf("%s %s:%d %s %v\n%s\n%v", s.Status, s.Feature, s.Line, s.Name, s.Rules, s.Error, s.Evidence)
		}
	}
	t.Logf("summary: %+v", rep.Summary)
}

// progressFor prints a line per scenario when -v is set.
func progressFor(t *testing.T) func(conformance.ScenarioResult, int, int) {
	if !testing.Verbose() {
		return nil
	}
	return func(r conformance.ScenarioResult, done, total int) {
		fmt.Fprintf(os.Stderr, "[%d/%d] %-9s %s:%d %s\n", done, total, r.Status, r.Feature, r.Line, r.Name)
	}
}
