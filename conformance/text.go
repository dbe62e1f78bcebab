package conformance

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpconform/mcpconform/internal/safetext"
	"github.com/mcpconform/mcpconform/spec"
)

// WriteText writes a report for people: every scenario that did not pass,
// with the rules it checks (their statement and the seed sentence), the
// failing step with Expected and Actual, and the tail of the wire log;
// then the summary line.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	if r.Error != nil {
		fmt.Fprintf(&b, "mcpconform %s: the target could not be started or failed its handshake, so no scenario ran\n\nTARGET ERROR %s\n", r.Tool.Version, r.Error.Message)
		for _, e := range r.Error.Evidence {
			fmt.Fprintf(&b, "    %s\n", e)
		}
		b.WriteString("\nERROR: no verdict on the implementation: fix the adapter (see `mcpconform adapter check`)\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "mcpconform %s against %s %s (adapter %s)\n", r.Tool.Version, r.Target.Name, r.Target.Version, r.Target.Adapter)
	if r.Repeat > 1 {
		fmt.Fprintf(&b, "every scenario ran %d times\n", r.Repeat)
	}
	var expected, warnings []string
	for _, s := range r.Scenarios {
		if s.Status == StatusPassed || s.Status == StatusSkipped {
			continue
		}
		switch {
		case s.Baseline == BaselineExpected || s.Baseline == BaselineFlaky:
			expected = append(expected, fmt.Sprintf("  %s %s (%s): %s", s.Baseline, Printable(s.ID), strings.Join(s.Rules, ", "), Printable(safetext.Cap(s.BaselineReason, 100))))
			continue
		case s.Level == LevelShould && s.Status == StatusFailed && !r.Strict:
			warnings = append(warnings, fmt.Sprintf("  WARNING %s (%s, SHOULD): %s", Printable(s.ID), strings.Join(s.Rules, ", "), Printable(firstLine(s.Error))))
			continue
		}
		fmt.Fprintf(&b, "\n%s %s:%d %s\n", strings.ToUpper(string(s.Status)), s.Feature, s.Line, Printable(s.Name))
		fmt.Fprintf(&b, "  id %s\n", Printable(s.ID))
		for _, id := range s.Rules {
			if rule, ok := spec.Lookup(id); ok {
				fmt.Fprintf(&b, "  %s %s: %s\n", rule.ID, rule.Strength, rule.Statement)
				fmt.Fprintf(&b, "    seed %s line %s: 「%s」\n", rule.Source.Seed, rule.Source.Lines, strings.Join(rule.Source.Quotes, "」「"))
			}
		}
		for _, l := range strings.Split(strings.TrimSpace(s.Error), "\n") {
			fmt.Fprintf(&b, "  %s\n", Printable(l))
		}
		if len(s.Evidence) > 0 {
			b.WriteString("  wire log:\n")
			for _, e := range s.Evidence {
				fmt.Fprintf(&b, "    %s\n", Printable(e))
			}
		}
	}
	if len(warnings) > 0 {
		b.WriteString("\nwarnings (SHOULD-level failures; --strict makes them fail the run):\n" + strings.Join(warnings, "\n") + "\n")
	}
	if len(expected) > 0 {
		b.WriteString("\nexpected by the baseline:\n" + strings.Join(expected, "\n") + "\n")
	}
	for _, e := range r.StaleBaseline {
		fmt.Fprintf(&b, "\nSTALE BASELINE: %s\n", Printable(e))
	}
	var rerun []string
	for _, s := range r.Scenarios {
		if s.Rerun != "" && !s.failing() {
			rerun = append(rerun, fmt.Sprintf("  %s: %s", Printable(s.ID), Printable(firstLine(s.Rerun))))
		}
	}
	if len(rerun) > 0 {
		b.WriteString("\npassed only in an adapter process of their own (the adapter keeps something from one scenario to the next: capability reuse; --fresh-adapters runs every scenario that way):\n" + strings.Join(rerun, "\n") + "\n")
	}
	skipped := map[string]int{}
	for _, s := range r.Scenarios {
		if s.Status == StatusSkipped {
			skipped[Printable(s.Error)]++
		}
	}
	if len(skipped) > 0 {
		b.WriteString("\nskipped:\n")
		for reason, n := range skipped {
			fmt.Fprintf(&b, "  %d: %s\n", n, reason)
		}
	}
	sum := r.Summary
	verdict := "PASS"
	if why := r.Inconclusive(); why != "" {
		verdict = "NO VERDICT"
		fmt.Fprintf(&b, "\n%s\n", why)
	} else if !r.OK() {
		verdict = "FAIL"
	}
	flaky := ""
	if r.Repeat > 1 || sum.Unstable > 0 {
		flaky = fmt.Sprintf(", %d flaky", sum.Unstable)
	}
	fmt.Fprintf(&b, "\n%s: %d scenarios: %d passed, %d failed (%d unexpected, %d expected, %d warnings), %d unexpected passes, %d undefined, %d pending, %d skipped%s\n",
		verdict, len(r.Scenarios), sum.Passed, sum.Failed, sum.Unexpected, sum.Expected, sum.Warnings, sum.UnexpectedPasses, sum.Undefined, sum.Pending, sum.Skipped, flaky)
	_, err := io.WriteString(w, b.String())
	return err
}
