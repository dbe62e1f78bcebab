package conformance

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Status is the verdict of one scenario.
type Status string

// The verdicts of a scenario. Only [StatusPassed] and [StatusSkipped] are
// not failures; a skip always names its reason.
const (
	StatusPassed    Status = "passed"
	StatusFailed    Status = "failed"
	StatusSkipped   Status = "skipped"
	StatusUndefined Status = "undefined"
	StatusPending   Status = "pending"
	// StatusFlaky: with [Options.Repeat], the scenario's repetitions did
	// not all have the same verdict. It fails the run.
	StatusFlaky Status = "flaky"
)

// Report is the outcome of [Run]. Its JSON form is the report.json of
// `mcpconform run --format json` (schema 1).
type Report struct {
	Schema int        `json:"schema"`
	Tool   ToolInfo   `json:"tool"`
	Target TargetInfo `json:"target"`
	// Verdict is "pass", "fail", "inconclusive" when no selected
	// scenario ran ([Report.Inconclusive]), or "error" when the target
	// could not be started or failed its handshake ([Report.Error]).
	Verdict string `json:"verdict"`
	// Error says why the run could not start, when the target could not
	// be started or failed its handshake: then no scenario ran.
	Error *RunError `json:"error,omitempty"`
	// Repeat is how many times every scenario ran ([Options.Repeat]).
	Repeat    int              `json:"repeat,omitempty"`
	Summary   Summary          `json:"summary"`
	Scenarios []ScenarioResult `json:"scenarios"`
}

// RunError is why a run could not start.
type RunError struct {
	// Message is the target's error.
	Message string `json:"message"`
	// Evidence is what the runner saw of the target: an adapter's command,
	// why its connection ended, its last messages, its stderr's tail.
	Evidence []string `json:"evidence,omitempty"`
}

// ToolInfo identifies the harness.
type ToolInfo struct {
	Version string `json:"version"`
}

// TargetInfo identifies the implementation under test and its adapter.
type TargetInfo struct {
	Name         string   `json:"name"`
	Version      string   `json:"version"`
	Adapter      string   `json:"adapter"`
	Systems      []string `json:"systems"`
	Capabilities []string `json:"capabilities"`
}

// Summary counts scenarios by verdict.
type Summary struct {
	Passed    int `json:"passed"`
	Failed    int `json:"failed"`
	Skipped   int `json:"skipped"`
	Undefined int `json:"undefined"`
	Pending   int `json:"pending"`
	Flaky     int `json:"flaky,omitempty"`
}

// ScenarioResult is the verdict of one scenario.
type ScenarioResult struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Feature string   `json:"feature"`
	Line    int      `json:"line"`
	Rules   []string `json:"rules"`
	Status  Status   `json:"status"`
	// Error says why a scenario failed or was skipped: the failing step,
	// what was expected and what happened.
	Error string `json:"error,omitempty"`
	// Step is the text of the step that failed, was undefined or skipped
	// the scenario.
	Step string `json:"step,omitempty"`
	// Evidence is the tail of the fakes' wire log and the adapter's
	// diagnostics for a failed scenario.
	Evidence []string `json:"evidence,omitempty"`
	// Warnings are findings that do not fail the scenario: an invariant
	// that the system's own document leaves advisory.
	Warnings []string `json:"warnings,omitempty"`
	// Repetitions are the verdicts of every repetition, in order, with
	// [Options.Repeat]; DurationMs is then the longest.
	Repetitions []Status `json:"repetitions,omitempty"`
	DurationMs  int64    `json:"durationMs"`

	sealed bool // seal ran
}

// OK reports whether every scenario passed or was skipped, and at least
// one passed: a run in which nothing ran proves nothing.
func (r *Report) OK() bool {
	s := r.Summary
	return r.Error == nil && s.Failed == 0 && s.Undefined == 0 && s.Pending == 0 && s.Flaky == 0 && s.Passed > 0
}

// Inconclusive says why a run has no verdict, or "" when it has one:
// every selected scenario was skipped, so nothing was tested.
func (r *Report) Inconclusive() string {
	s := r.Summary
	if r.Error != nil || s.Passed+s.Failed+s.Undefined+s.Pending+s.Flaky > 0 {
		return ""
	}
	reasons := map[string]int{}
	for _, sc := range r.Scenarios {
		reasons[sc.Error]++
	}
	top, n := "", 0
	for reason, k := range reasons {
		if k > n || (k == n && reason < top) {
			top, n = reason, k
		}
	}
	return fmt.Sprintf("no verdict: all %d selected scenarios were skipped, so nothing was tested (%d of them because %s)", len(r.Scenarios), n, top)
}

// Bounds on what a result keeps of text that came from outside (package
// safetext caps and escapes it).
const (
	maxErrorBytes    = 2 * safetext.Message // a result's error: the failing step's Expected and Actual, or the invariants
	maxEvidenceLines = 200                  // lines of evidence, each at most safetext.Field bytes
)

// seal bounds and escapes everything a result copied from the adapter,
// the implementation or the fakes, before anything shows it: the text
// report, report.json, JUnit and the progress lines all read sealed
// results only.
func (s *ScenarioResult) seal() {
	if s.sealed {
		return
	}
	s.sealed = true
	s.Name = safetext.Line(s.Name, safetext.Field)
	s.Step = safetext.Line(s.Step, safetext.Field)
	s.Error = safetext.Text(s.Error, maxErrorBytes)
	s.Evidence = sealLines(s.Evidence, maxEvidenceLines)
	for i, w := range s.Warnings {
		s.Warnings[i] = safetext.Text(w, safetext.Message)
	}
}

// sealLines caps and escapes lines of evidence, keeping at most n: the
// last ones, after a line that says how many were left out.
func sealLines(lines []string, n int) []string {
	if lines == nil {
		return nil
	}
	var out []string
	if len(lines) > n {
		out = append(out, fmt.Sprintf("… %d earlier lines left out", len(lines)-n))
		lines = lines[len(lines)-n:]
	}
	for _, l := range lines {
		out = append(out, safetext.Line(l, safetext.Field))
	}
	return out
}

// sealTarget bounds and escapes what the adapter said about itself.
func sealTarget(t TargetInfo) TargetInfo {
	t.Name = safetext.Line(t.Name, safetext.Field)
	t.Version = safetext.Line(t.Version, safetext.Field)
	t.Adapter = safetext.Line(t.Adapter, safetext.Field)
	for i, v := range t.Systems {
		t.Systems[i] = safetext.Line(v, safetext.Field)
	}
	for i, v := range t.Capabilities {
		t.Capabilities[i] = safetext.Line(v, safetext.Field)
	}
	return t
}

// count fills in the summary from the scenarios.
func (r *Report) count() {
	r.Summary = Summary{}
	for _, s := range r.Scenarios {
		switch s.Status {
		case StatusPassed:
			r.Summary.Passed++
		case StatusFailed:
			r.Summary.Failed++
		case StatusSkipped:
			r.Summary.Skipped++
		case StatusUndefined:
			r.Summary.Undefined++
		case StatusPending:
			r.Summary.Pending++
		case StatusFlaky:
			r.Summary.Flaky++
		}
	}
	switch {
	case r.Error != nil:
		r.Verdict = "error"
	case r.Inconclusive() != "":
		r.Verdict = "inconclusive"
	case r.OK():
		r.Verdict = "pass"
	default:
		r.Verdict = "fail"
	}
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
