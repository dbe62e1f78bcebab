package node_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
)

var update = flag.Bool("update", false, "rewrite baseline.yaml and the README's figures from a run of the whole suite")

// figures is the README line the whole-suite run must match.
var figures = regexp.MustCompile(`(?m)^The whole suite, with \x60baseline\.yaml\x60: .*$`)

// TestNodeStubKeepsItsBaseline runs the whole suite against the Node stub
// with its committed baseline, exactly as the README tells a new port's CI
// to: the run must pass (every failure expected, no entry stale), and the
// README's figures must be this run's. With -update it writes both.
func TestNodeStubKeepsItsBaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite against the Node stub")
	}
	target := nodeTarget(t)
	opts := conformance.Options{Target: target, Concurrency: 4}
	if !*update {
		b, err := conformance.LoadBaseline("baseline.yaml")
		if err != nil {
			t.Fatal(err)
		}
		opts.Baseline = b
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	rep, err := conformance.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Summary
	line := fmt.Sprintf("The whole suite, with `baseline.yaml`: %d scenarios, %d passed, %d expected failures, %d skipped (what the stub does not declare).",
		len(rep.Scenarios), s.Passed, s.Expected+s.Unexpected, s.Skipped)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		var b bytes.Buffer
		if err := conformance.WriteBaseline(&b, rep); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("baseline.yaml", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("README.md", figures.ReplaceAll(readme, []byte(line)), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote baseline.yaml (%d entries) and %q", s.Unexpected, line)
		return
	}
	if !rep.OK() {
		var b strings.Builder
		for _, sc := range rep.Scenarios {
			if (sc.Status == conformance.StatusFailed || sc.Status == conformance.StatusUndefined) && sc.Baseline == "" {
				fmt.Fprintf(&b, "\n  unexpected: %s:\n    %s", sc.ID, strings.ReplaceAll(strings.TrimSpace(firstLines(sc.Error, 3)), "\n", "\n    "))
			}
		}
		for _, e := range rep.StaleBaseline {
			fmt.Fprintf(&b, "\n  stale: %s", e)
		}
		t.Errorf("the Node stub does not keep its baseline (%+v):%s\nrun `go test -run TestNodeStubKeepsItsBaseline -update` in this directory if the change is meant", s, b.String())
	}
	if got := figures.Find(readme); string(got) != line {
		t.Errorf("README.md says\n  %s\nthe run says\n  %s\n(-update rewrites it)", got, line)
	}
}

// firstLines is the first n lines of s that are not blank: the step and its
// Expected and Actual, without the wire log that follows.
func firstLines(s string, n int) string {
	var kept []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" && len(kept) < n {
			kept = append(kept, strings.TrimSpace(l))
		}
	}
	return strings.Join(kept, "\n")
}
