package conformance_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
)

// hollowTarget is the test binary as the adapter that implements nothing.
func hollowTarget(t *testing.T, claims string) *rpcadapter.Target {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &rpcadapter.Target{Command: []string{exe, "hollow-adapter", claims}}
}

// TestHollowAdapterPassesNothing runs the whole suite against an adapter
// that claims every system, capability and operation and answers every
// request with {}: no scenario may pass.
func TestHollowAdapterPassesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// The hollow adapter does nothing, so a step that waits waits for
	// nothing: a short deadline, and many scenarios at once (they wait
	// more than they work), cost the test its time and not its claim.
	rep, err := conformance.Run(ctx, conformance.Options{Target: hollowTarget(t, "everything"), StepTimeout: 2 * time.Second, Concurrency: 12})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Scenarios {
		if s.Status == conformance.StatusPassed {
			t.Errorf("the hollow adapter passed %s:%d %s %v", s.Feature, s.Line, s.Name, s.Rules)
		}
	}
	if rep.OK() || rep.Verdict != "fail" {
		t.Errorf("verdict %q, OK %v: want fail", rep.Verdict, rep.OK())
	}
	t.Logf("summary %+v", rep.Summary)
}

// TestNoVerdictWithoutASystemOrAScenario: an adapter that claims no
// system is refused before anything runs, and a run in which every
// selected scenario was skipped has no verdict.
func TestNoVerdictWithoutASystemOrAScenario(t *testing.T) {
	_, err := conformance.Run(context.Background(), conformance.Options{Target: hollowTarget(t, "no-system")})
	var ue *conformance.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "claims no system") {
		t.Errorf("an adapter claiming no system: got %v, want a usage error saying it claims no system", err)
	}
	rep, err := conformance.Run(context.Background(), conformance.Options{Target: hollowTarget(t, "lite-agent-only"), Rules: []string{"BL-RT-01"}})
	if err != nil {
		t.Fatal(err)
	}
	if why := rep.Inconclusive(); rep.OK() || rep.Verdict != "inconclusive" || !strings.Contains(why, "skipped") || !strings.Contains(why, "blade") {
		t.Errorf("all skipped: OK %v, verdict %q, reason %q; want no verdict naming the reason", rep.OK(), rep.Verdict, why)
	}
}
