package conformance

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpconform/mcpconform/internal/safetext"
)

// maxMarkdownFailures bounds the failures a Markdown summary lists.
const maxMarkdownFailures = 50

// WriteMarkdown writes a short Markdown summary of the run, for a CI page
// such as a GitHub step summary: the verdict, the counts, the unexpected
// failures with their rules and the stale baseline entries.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	s := r.Summary
	verdict := strings.ToUpper(r.Verdict)
	fmt.Fprintf(&b, "### mcpconform: %s against %s %s", verdict, mdEscape(r.Target.Name), mdEscape(r.Target.Version))
	if r.Shard != "" {
		fmt.Fprintf(&b, " (shard %s)", r.Shard)
	}
	b.WriteString("\n\n| passed | unexpected failures | expected failures | unexpected passes | warnings | flaky | skipped |\n|---|---|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| %d | %d | %d | %d | %d | %d | %d |\n\n", s.Passed, s.Unexpected, s.Expected, s.UnexpectedPasses, s.Warnings, s.Flaky, s.Skipped)
	listed := 0
	for _, sc := range r.Scenarios {
		if !sc.failing() || sc.Baseline != "" || (sc.Level == LevelShould && sc.Status == StatusFailed && !r.Strict) {
			continue
		}
		if listed == 0 {
			b.WriteString("**Unexpected failures**\n\n")
		}
		if listed++; listed > maxMarkdownFailures {
			fmt.Fprintf(&b, "- … and %d more (report.json has them all)\n", s.Unexpected-maxMarkdownFailures)
			break
		}
		fmt.Fprintf(&b, "- `%s` (%s): %s\n", mdEscape(sc.ID), strings.Join(sc.Rules, ", "), mdEscape(safetext.Cap(firstLine(sc.Error), 200)))
	}
	if len(r.StaleBaseline) > 0 {
		b.WriteString("\n**Stale baseline entries**\n\n")
		for _, e := range r.StaleBaseline {
			fmt.Fprintf(&b, "- %s\n", mdEscape(e))
		}
	}
	if why := r.Inconclusive(); why != "" {
		fmt.Fprintf(&b, "\n%s\n", mdEscape(why))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// mdEscape makes text from an implementation safe inside Markdown: control
// characters escaped, and the characters that would start markup or an
// HTML tag escaped.
func mdEscape(s string) string {
	return strings.NewReplacer("\\", "\\\\", "`", "\\`", "*", "\\*", "_", "\\_", "<", "&lt;", ">", "&gt;", "|", "\\|", "[", "\\[", "]", "\\]").Replace(Printable(s))
}
