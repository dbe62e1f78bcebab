package conformance_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/internal/fault"
)

// mutant is the reference with one rule broken.
// redStepTimeout bounds the steps of a run whose mutant makes scenarios
// wait for what never comes: each such step waits it out, and the
// default (20 s) would be most of these tests' time. Under -race on a
// loaded machine a step that passes takes well under a second.
const redStepTimeout = 10 * time.Second

func mutant(m string) refadapter.Target {
	return refadapter.Target{Faults: []fault.Fault{fault.Fault(m)}}
}

// outcomes is what a report says of each scenario.
func outcomes(r *conformance.Report) map[string]string {
	out := map[string]string{}
	for _, s := range r.Scenarios {
		out[s.ID] = string(s.Status) + "/" + s.Baseline
	}
	return out
}

// TestShardsMergeIntoTheFullRun: every scenario falls in exactly one shard
// and the merged shard reports equal the full run's report.
func TestShardsMergeIntoTheFullRun(t *testing.T) {
	rules := []string{"LA-NAME-02", "LA-NAME-03", "LA-NAME-04", "LA-CFG-07"}
	target := mutant("LA-NAME-02/alias-25-characters")
	full, err := conformance.Run(context.Background(), conformance.Options{Target: target, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var shards []*conformance.Report
	for i := 1; i <= 3; i++ {
		rep, err := conformance.Run(context.Background(), conformance.Options{Target: target, Rules: rules, Shard: conformance.Shard{Index: i, Count: 3}})
		if err != nil {
			t.Fatalf("shard %d/3: %v", i, err)
		}
		if want := (conformance.Shard{Index: i, Count: 3}).String(); rep.Shard != want {
			t.Errorf("shard %d/3 report says shard %q", i, rep.Shard)
		}
		shards = append(shards, rep)
	}
	merged, err := conformance.MergeReports(shards, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	var fullIDs, mergedIDs []string
	for _, s := range full.Scenarios {
		fullIDs = append(fullIDs, s.ID)
	}
	for _, s := range merged.Scenarios {
		mergedIDs = append(mergedIDs, s.ID)
	}
	if !slices.Equal(fullIDs, mergedIDs) {
		t.Errorf("merged scenarios %v\nwant the full run's %v", mergedIDs, fullIDs)
	}
	if got, want := outcomes(merged), outcomes(full); !mapsEqual(got, want) || merged.Summary != full.Summary || merged.Verdict != full.Verdict {
		t.Errorf("merged %+v %s, full %+v %s", merged.Summary, merged.Verdict, full.Summary, full.Verdict)
	}
	if _, err := conformance.MergeReports([]*conformance.Report{shards[0], shards[0]}, nil, false); err == nil || !strings.Contains(err.Error(), "a second time") {
		t.Errorf("merging a shard twice: %v, want an error", err)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestBaselineVerdicts: failures the baseline lists are expected, others
// fail the run, and an entry whose scenarios pass fails it until removed.
func TestBaselineVerdicts(t *testing.T) {
	rules := []string{"LA-NAME-02", "LA-NAME-03"}
	target := mutant("LA-NAME-02/alias-25-characters")
	first, err := conformance.Run(context.Background(), conformance.Options{Target: target, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	if first.OK() || first.Summary.Unexpected == 0 {
		t.Fatalf("the mutant passes: %+v", first.Summary)
	}
	var buf bytes.Buffer
	if err := conformance.WriteBaseline(&buf, first); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "baseline.yaml")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := conformance.LoadBaseline(path)
	if err != nil {
		t.Fatalf("the written baseline does not load: %v\n%s", err, buf.String())
	}
	tests := []struct {
		name      string
		target    refadapter.Target
		ok        bool
		expected  int
		staleSays string
	}{
		{"the same failures", target, true, first.Summary.Unexpected, ""},
		{"fixed: the entries are stale", refadapter.Target{}, false, 0, "remove it from the baseline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := conformance.Run(context.Background(), conformance.Options{Target: tt.target, Rules: rules, Baseline: b})
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK() != tt.ok || rep.Summary.Expected != tt.expected {
				t.Errorf("OK %v, summary %+v; want OK %v with %d expected failures", rep.OK(), rep.Summary, tt.ok, tt.expected)
			}
			if tt.staleSays != "" && (len(rep.StaleBaseline) == 0 || !strings.Contains(rep.StaleBaseline[0], tt.staleSays)) {
				t.Errorf("stale entries %v, want them to say %q", rep.StaleBaseline, tt.staleSays)
			}
		})
	}
	// A failure the baseline does not list still fails the run.
	other, err := conformance.Run(context.Background(), conformance.Options{Target: mutant("LA-NAME-03/alias-allows-dot"), Rules: rules, Baseline: b})
	if err != nil {
		t.Fatal(err)
	}
	if other.OK() || other.Summary.Unexpected == 0 {
		t.Errorf("an unlisted failure: OK %v, %+v", other.OK(), other.Summary)
	}
}

// TestBaselineFileIsChecked: entries that name nothing, or give no reason,
// are refused, naming the entry.
func TestBaselineFileIsChecked(t *testing.T) {
	tests := []struct {
		name, yaml, says string
	}{
		{"unknown rule", "version: 1\nexpected-failures:\n  - rule: LA-NOPE-01\n    reason: x\n", "entry 1: rule \"LA-NOPE-01\" is not in the catalog"},
		{"unknown scenario", "version: 1\nexpected-failures:\n  - scenario: lite-agent/naming/nothing\n    reason: x\n", "no scenario \"lite-agent/naming/nothing\""},
		{"no reason", "version: 1\nexpected-failures:\n  - rule: LA-NAME-02\n", "entry 1: give a reason"},
		{"both", "version: 1\nexpected-failures:\n  - rule: LA-NAME-02\n    scenario: x\n    reason: r\n", "exactly one of rule or scenario"},
		{"unknown field", "version: 1\nexpected-failures:\n  - rule: LA-NAME-02\n    reson: typo\n", "reson"},
		{"wrong version", "version: 2\n", "version 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "b.yaml")
			if err := os.WriteFile(path, []byte(tt.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := conformance.LoadBaseline(path)
			var ue *conformance.UsageError
			if err == nil || !strings.Contains(err.Error(), tt.says) || !asUsage(err, &ue) {
				t.Errorf("got %v, want a usage error saying %q", err, tt.says)
			}
		})
	}
}

// TestShouldFailuresAreWarnings: a failing SHOULD-level scenario is a
// warning, which fails only a strict run.
func TestShouldFailuresAreWarnings(t *testing.T) {
	for _, strict := range []bool{false, true} {
		rep, err := conformance.Run(context.Background(), conformance.Options{Target: mutant("BL-RT-05/no-connecting-status"), Rules: []string{"BL-RT-05"}, Strict: strict, StepTimeout: redStepTimeout})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Summary.Failed == 0 {
			t.Fatalf("the mutant passes BL-RT-05: %+v", rep.Summary)
		}
		if strict == rep.OK() || (!strict && rep.Summary.Warnings != rep.Summary.Failed) {
			t.Errorf("strict %v: OK %v, %+v", strict, rep.OK(), rep.Summary)
		}
	}
}

// TestRerunTakesOnlyTheFailures: Only runs exactly the scenarios named.
func TestRerunTakesOnlyTheFailures(t *testing.T) {
	first, err := conformance.Run(context.Background(), conformance.Options{Target: mutant("LA-NAME-02/alias-25-characters"), Rules: []string{"LA-NAME-02"}, StepTimeout: redStepTimeout})
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, s := range first.Scenarios {
		if s.Status == conformance.StatusFailed {
			failed = append(failed, s.ID)
		}
	}
	again, err := conformance.Run(context.Background(), conformance.Options{Target: refadapter.Target{}, Only: failed})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range again.Scenarios {
		got = append(got, s.ID)
	}
	slices.Sort(got)
	slices.Sort(failed)
	if !slices.Equal(got, failed) || again.Summary.Passed != len(failed) {
		t.Errorf("reran %v (%+v), want %v", got, again.Summary, failed)
	}
	if _, err := conformance.Run(context.Background(), conformance.Options{Target: refadapter.Target{}, Only: []string{"lite-agent/naming/no-such"}}); err == nil {
		t.Error("an unknown ID is not an error")
	}
}

func asUsage(err error, ue **conformance.UsageError) bool {
	return errors.As(err, ue)
}
