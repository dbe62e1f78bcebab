package conformance

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/internal/safetext"
	"github.com/mcpconform/mcpconform/spec"
)

// PortableTally is how one run fared on the portable rules
// ([spec.Rule.Portable]) of the systems its target claims: each rule
// counted once, by its verdict in the run (a failure the baseline expects
// is still a failure).
type PortableTally struct {
	// Passed, Failed and NotApplicable count rules: every scenario that
	// ran passed; some scenario failed; none ran (skipped, not selected).
	Passed, Failed, NotApplicable int
	// Worst are the failed rules, most serious first: MUST before SHOULD,
	// then by how many scenarios failed, then by ID.
	Worst []FailedRule
}

// FailedRule is one failed rule of a [PortableTally].
type FailedRule struct {
	Rule     spec.Rule
	Failures int    // scenarios of the rule that failed
	First    string // the first failing scenario's error, one line
}

// TallyPortable counts the portable rules of r.
func TallyPortable(r *Report) PortableTally {
	var t PortableTally
	claimed := map[string]bool{}
	for _, s := range r.Target.Systems {
		claimed[s] = true
	}
	for _, rule := range spec.Rules() {
		if !rule.Portable || !claimed[string(rule.System)] {
			continue
		}
		var ran, failed int
		first := ""
		for _, s := range r.Scenarios {
			if !slices.Contains(s.Rules, rule.ID) || s.Status == StatusSkipped {
				continue
			}
			ran++
			if s.failing() {
				failed++
				if first == "" {
					first, _, _ = strings.Cut(s.Error, "\n")
				}
			}
		}
		switch {
		case ran == 0:
			t.NotApplicable++
		case failed == 0:
			t.Passed++
		default:
			t.Failed++
			t.Worst = append(t.Worst, FailedRule{Rule: rule, Failures: failed, First: first})
		}
	}
	weight := func(s spec.Strength) int {
		if s == spec.Must || s == spec.MustNot {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(t.Worst, func(a, b FailedRule) int {
		if d := weight(a.Rule.Strength) - weight(b.Rule.Strength); d != 0 {
			return d
		}
		if d := b.Failures - a.Failures; d != 0 {
			return d
		}
		return strings.Compare(a.Rule.ID, b.Rule.ID)
	})
	return t
}

// WritePortableTable writes a Markdown table of runs: per implementation
// and version, the portable rules passed, failed and not applicable, and
// the three most serious failures with their rule IDs. `make matrix`
// writes it; the README's "How real SDKs fare" shows it.
func WritePortableTable(w io.Writer, reps []*Report) error {
	var b strings.Builder
	b.WriteString("| implementation | version | portable rules passed | failed | not applicable | most serious failures |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, r := range reps {
		t := TallyPortable(r)
		var worst []string
		for _, f := range t.Worst[:min(3, len(t.Worst))] {
			worst = append(worst, fmt.Sprintf("%s (%s)", f.Rule.ID, markdownCell(safetext.Shorten(f.Rule.Statement, 80))))
		}
		if len(worst) == 0 {
			worst = []string{"none"}
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %s |\n", markdownCell(r.Target.Name), markdownCell(r.Target.Version),
			t.Passed, t.Failed, t.NotApplicable, strings.Join(worst, "; "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownCell makes s safe inside a Markdown table cell.
func markdownCell(s string) string {
	s = Printable(s)
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}
