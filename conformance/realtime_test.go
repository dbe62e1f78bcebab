package conformance_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/internal/fault"
)

// withoutClock is the reference with the clock capability hidden: an
// adapter that can only wait in real time, as one without the capability
// does.
type withoutClock struct{ refadapter.Target }

func (t withoutClock) Info(ctx context.Context) (adapter.Info, error) {
	i, err := t.Target.Info(ctx)
	i.Capabilities = slices.DeleteFunc(slices.Clone(i.Capabilities), func(c adapter.Capability) bool { return c == adapter.CapClock })
	return i, err
}

// realTimeVariants returns the IDs of the scenarios tagged
// @adapter-lacks:clock: the real-time variants of clock-driven scenarios,
// which an adapter with the clock skips.
func realTimeVariants(t *testing.T) map[string]bool {
	t.Helper()
	scs, err := conformance.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, s := range scs {
		if slices.Contains(s.Lacks, adapter.CapClock) {
			ids[s.ID] = true
		}
	}
	return ids
}

// TestRealTimeVariants runs the real-time variants against the reference
// without its clock: each passes, and a mutant of each variant's rule
// makes some of them fail (LA-OAU-38's mutant resends a refused call,
// which its variant does not make; a corruption kills that one), so that an adapter without the clock is
// tested as strictly as one with it.
func TestRealTimeVariants(t *testing.T) {
	want := realTimeVariants(t)
	if len(want) == 0 {
		t.Fatal("no scenario is tagged @adapter-lacks:clock")
	}
	tests := []struct {
		name   string
		faults []fault.Fault
	}{
		{"reference", nil},
		{string(fault.IgnoreTimeoutMs), []fault.Fault{fault.IgnoreTimeoutMs}},
		{string(fault.RetryOnce), []fault.Fault{fault.RetryOnce}},
		{string(fault.NoEndHookOnFailure), []fault.Fault{fault.NoEndHookOnFailure}},
		{string(fault.KeepFailedEntry), []fault.Fault{fault.KeepFailedEntry}},
		{string(fault.ExchangeLateCode), []fault.Fault{fault.ExchangeLateCode}},
		{string(fault.NoReap), []fault.Fault{fault.NoReap}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			opts := conformance.Options{Target: withoutClock{refadapter.Target{Faults: tc.faults}}, Tags: "@adapter-lacks:clock"}
			if len(tc.faults) > 0 {
				opts.Rules = []string{tc.faults[0].Rule()}
			}
			rep, err := conformance.Run(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			var red []string
			for _, s := range rep.Scenarios {
				if !want[s.ID] {
					t.Errorf("%s ran, but it is not a real-time variant", s.ID)
				}
				switch {
				case tc.faults == nil && s.Status != conformance.StatusPassed:
					t.Errorf("%s %s\n%s\n%v", s.Status, s.ID, s.Error, s.Evidence)
				case s.Status == conformance.StatusFailed:
					red = append(red, s.ID)
				}
			}
			if tc.faults == nil && len(rep.Scenarios) != len(want) {
				t.Errorf("Expected: the %d real-time variants ran\nActual: %d", len(want), len(rep.Scenarios))
			}
			if tc.faults != nil && len(red) == 0 {
				t.Errorf("Expected: mutant %s fails a real-time variant of %s\nActual: all %d passed", tc.name, tc.faults[0].Rule(), len(rep.Scenarios))
			}
			t.Log(fmt.Sprintf("%d scenarios; red: %v", len(rep.Scenarios), red))
		})
	}
}
