package conformance_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/internal/corrupt"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
	"github.com/mcpconform/mcpconform/spec"
)

// corruptionsAtOnce bounds how many corruptions run at the same time; each
// runs its scenarios corruptionConcurrency at a time, every step bounded by
// corruptionStepTimeout: twice the mutants' (in-process) budget, for the
// two processes every message crosses here, so that a busy machine does
// not turn a slow answer into a red that proves nothing. A red scenario
// mostly waits out its step's deadline, which costs no CPU: four
// corruptions at once keep two cores busy without slowing answers down
// more than two did (make test's figures, in the README).
const (
	corruptionsAtOnce     = 4
	corruptionConcurrency = 3
	corruptionStepTimeout = 10 * time.Second
)

// rulesWithScenarios returns the rule IDs that have scenarios.
func rulesWithScenarios(t testing.TB) []string {
	scs, err := conformance.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range scs {
		for _, r := range s.Rules {
			if !slices.Contains(ids, r) {
				ids = append(ids, r)
			}
		}
	}
	slices.Sort(ids)
	return ids
}

// selection returns the rules of a corruption's areas and IDs that have
// scenarios.
func selection(c corrupt.Corruption, withScenarios []string) []string {
	var out []string
	for _, id := range withScenarios {
		if c.Affects(id) {
			out = append(out, id)
		}
	}
	return out
}

// killRow is one line of the kill table.
type killRow struct {
	name     string
	run, red int
	// changed is how many of the scenarios' adapters the corruption
	// changed a message of (the tally of its proxies).
	changed int
	reds    []string
	took    time.Duration
}

// TestCorruptionsFail runs, for each corruption of the corrupting adapter,
// the scenarios of the rules it can affect through the proxy in front of
// the reference served over the protocol, and requires at least one of
// them to fail: the suite can tell the broken behaviour from a conforming
// one, with bugs that do not come from the reference's code.
func TestCorruptionsFail(t *testing.T) {
	if testing.Short() {
		t.Skip("the corruption test runs the affected scenarios once per corruption")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	withScenarios := rulesWithScenarios(t)
	all := corrupt.All()
	rows := make([]killRow, len(all))
	sem := make(chan struct{}, corruptionsAtOnce)
	start := time.Now()
	t.Run("each", func(t *testing.T) {
		for i, c := range all {
			t.Run(c.Name, func(t *testing.T) {
				t.Parallel()
				sem <- struct{}{}
				defer func() { <-sem }()
				rows[i] = runCorruption(t, exe, c, selection(c, withScenarios))
			})
		}
	})
	var b strings.Builder
	killed, ran := 0, 0
	for _, r := range rows {
		if r.name == "" {
			continue // not selected by -run
		}
		ran++
		if r.red > 0 {
			killed++
		}
		fmt.Fprintf(&b, "\n  %-32s %3d/%-3d red  %3d changed  %6.1fs  %s", r.name, r.red, r.run, r.changed, r.took.Seconds(), strings.Join(r.reds, ", "))
	}
	t.Logf("kill table (corruption, red/run scenarios, scenarios whose messages it changed, time, red scenarios): %d of %d corruptions killed in %v%s",
		killed, ran, time.Since(start).Round(time.Second), b.String())
}

// runCorruption runs a corruption's scenarios and checks that one fails.
func runCorruption(t *testing.T, exe string, c corrupt.Corruption, rules []string) killRow {
	row := killRow{name: c.Name}
	began := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	tally := filepath.Join(t.TempDir(), "tally")
	target := &rpcadapter.Target{Command: []string{exe, corruptMode, c.Name, "--", exe, serveReferenceMode},
		Env: map[string]string{corrupt.TallyEnv: tally}}
	rep, err := conformance.Run(ctx, conformance.Options{
		Target:      target,
		Rules:       rules,
		Concurrency: corruptionConcurrency,
		StepTimeout: corruptionStepTimeout,
	})
	if err != nil {
		t.Fatal(err)
	}
	var red []string
	for _, s := range rep.Scenarios {
		if s.Status == conformance.StatusFailed {
			red = append(red, fmt.Sprintf("%s:%d", s.Feature, s.Line))
			t.Logf("red: %s:%d %s: %s", s.Feature, s.Line, s.Name, firstLine(s.Error))
		}
	}
	row.run, row.red, row.reds = len(rep.Scenarios), len(red), red
	row.changed = tallied(t, tally)
	row.took = time.Since(began)
	if len(red) == 0 {
		t.Errorf("corruption %q (%s) passed all %d scenarios of %v, changing messages in %d of them: the suite cannot tell it from a conforming implementation",
			c.Name, c.Breaks, len(rep.Scenarios), rules, row.changed)
	}
	return row
}

// tallied counts the proxies of a tally file that changed a message.
func tallied(t *testing.T, path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("no proxy wrote its tally: %v", err)
		return 0
	}
	n := 0
	for _, line := range strings.Fields(string(data)) {
		if line != "0" {
			n++
		}
	}
	return n
}

// firstLine shortens a failure for the log.
func firstLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// kebab matches a kebab-case name.
var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// TestCorruptionCatalog checks every corruption's description: a unique
// kebab-case name, a one-line description, and rules that exist and
// select scenarios.
func TestCorruptionCatalog(t *testing.T) {
	withScenarios := rulesWithScenarios(t)
	all := corrupt.All()
	if len(all) < 40 {
		t.Errorf("%d corruptions; the issue asks for at least 40", len(all))
	}
	seen := map[string]bool{}
	for _, c := range all {
		if !kebab.MatchString(c.Name) || seen[c.Name] {
			t.Errorf("corruption %q: the name must be kebab-case and unique", c.Name)
		}
		seen[c.Name] = true
		if c.Breaks == "" || strings.Contains(c.Breaks, "\n") {
			t.Errorf("corruption %q: Breaks must be one line saying what it breaks, not %q", c.Name, c.Breaks)
		}
		if c.New == nil {
			t.Errorf("corruption %q has no hook", c.Name)
		}
		for _, r := range c.Rules {
			_, isRule := spec.Lookup(r)
			if !isRule && !slices.Contains(spec.Areas(), r) {
				t.Errorf("corruption %q: %q is neither a rule nor an area of the catalog", c.Name, r)
			}
		}
		if len(selection(c, withScenarios)) == 0 {
			t.Errorf("corruption %q: its rules %v select no scenario", c.Name, c.Rules)
		}
	}
}

// TestEveryAreaHasACorruption requires, for every area with scenarios, a
// corruption that can affect one of its rules.
func TestEveryAreaHasACorruption(t *testing.T) {
	withScenarios := rulesWithScenarios(t)
	covered := map[string]bool{}
	for _, c := range corrupt.All() {
		for _, id := range selection(c, withScenarios) {
			r, _ := spec.Lookup(id)
			covered[r.Area] = true
		}
	}
	for _, area := range spec.Areas() {
		has := slices.ContainsFunc(withScenarios, func(id string) bool { return strings.HasPrefix(id, area+"-") })
		if has && !covered[area] {
			t.Errorf("area %s has scenarios but no corruption affects it", area)
		}
	}
}
