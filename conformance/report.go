package conformance

import (
	"encoding/json"
	"fmt"
	"io"
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
)

// Report is the outcome of [Run]. Its JSON form is the report.json of
// `mcpconform run --format json` (schema 1).
type Report struct {
	Schema int        `json:"schema"`
	Tool   ToolInfo   `json:"tool"`
	Target TargetInfo `json:"target"`
	// Verdict is "pass", "fail", or "inconclusive" when no selected
	// scenario ran ([Report.Inconclusive]).
	Verdict   string           `json:"verdict"`
	Summary   Summary          `json:"summary"`
	Scenarios []ScenarioResult `json:"scenarios"`
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
	Warnings   []string `json:"warnings,omitempty"`
	DurationMs int64    `json:"durationMs"`
}

// OK reports whether every scenario passed or was skipped, and at least
// one passed: a run in which nothing ran proves nothing.
func (r *Report) OK() bool {
	s := r.Summary
	return s.Failed == 0 && s.Undefined == 0 && s.Pending == 0 && s.Passed > 0
}

// Inconclusive says why a run has no verdict, or "" when it has one:
// every selected scenario was skipped, so nothing was tested.
func (r *Report) Inconclusive() string {
	s := r.Summary
	if s.Passed+s.Failed+s.Undefined+s.Pending > 0 {
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
		}
	}
	switch {
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
