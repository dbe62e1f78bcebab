package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/mcpconform/mcpconform/internal/safetext"
	"github.com/mcpconform/mcpconform/spec"
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
	// not all have the same verdict. It is a failure, which fails the run
	// unless the baseline expects it.
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
	// Strict says SHOULD-level failures fail the run too.
	Strict bool `json:"strict,omitempty"`
	// Shard is the part of the selection the run was ("2/3"), if any.
	Shard string `json:"shard,omitempty"`
	// Repeat is how many times every scenario ran ([Options.Repeat]).
	Repeat int `json:"repeat,omitempty"`
	// StaleBaseline lists the baseline entries whose scenarios all passed:
	// each fails the run until it is removed from the baseline.
	StaleBaseline []string         `json:"staleBaseline,omitempty"`
	Summary       Summary          `json:"summary"`
	Scenarios     []ScenarioResult `json:"scenarios"`

	baseline *Baseline
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

// Summary counts scenarios by verdict, and the failures by what they mean
// for the run.
type Summary struct {
	Passed    int `json:"passed"`
	Failed    int `json:"failed"`
	Skipped   int `json:"skipped"`
	Undefined int `json:"undefined"`
	Pending   int `json:"pending"`
	// Unstable are the scenarios of status flaky: with [Options.Repeat],
	// their repetitions did not all have the same verdict.
	Unstable int `json:"unstable,omitempty"`
	// Unexpected failures fail the run: failed, undefined, pending or
	// flaky scenarios the baseline does not expect, at a level that fails.
	Unexpected int `json:"unexpectedFailures"`
	// Expected failures are failures the baseline lists.
	Expected int `json:"expectedFailures"`
	// UnexpectedPasses are scenarios the baseline expects to fail that
	// passed: they fail the run, until their entry is removed.
	UnexpectedPasses int `json:"unexpectedPasses"`
	// Warnings are SHOULD-level failures, which fail only a strict run.
	Warnings int `json:"warnings"`
	// Flaky are scenarios the baseline marks as flaky, whatever they did.
	Flaky int `json:"flaky"`
}

// The levels of a scenario ([ScenarioResult.Level]).
const (
	// LevelMust: the scenario checks a MUST or MUST NOT rule; its failure
	// fails the run.
	LevelMust = "MUST"
	// LevelShould: it checks only SHOULD (or MAY) rules; its failure is a
	// warning, failing only a strict run.
	LevelShould = "SHOULD"
)

// ScenarioResult is the verdict of one scenario.
type ScenarioResult struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Feature string   `json:"feature"`
	Line    int      `json:"line"`
	Rules   []string `json:"rules"`
	Status  Status   `json:"status"`
	// Level is the strongest strength of its rules: MUST or SHOULD.
	Level string `json:"level"`
	// Baseline is what the baseline said of it: expected-failure, flaky,
	// unexpected-pass, or "" when it says nothing; BaselineReason is the
	// entry's reason.
	Baseline       string `json:"baseline,omitempty"`
	BaselineReason string `json:"baselineReason,omitempty"`
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
	// Rerun, when set, is how the scenario failed in an adapter process
	// that had served other scenarios before it (capability reuse): it
	// ran again in a process of its own, and that run is its verdict.
	Rerun string `json:"rerun,omitempty"`

	sealed bool // seal ran
}

// failing reports whether the scenario did not pass: failed, undefined,
// pending or flaky.
func (s ScenarioResult) failing() bool {
	return s.Status == StatusFailed || s.Status == StatusUndefined || s.Status == StatusPending || s.Status == StatusFlaky
}

// OK reports whether the run passes: no unexpected failure, no baseline
// entry gone stale, and something ran.
func (r *Report) OK() bool {
	s := r.Summary
	return r.Error == nil && s.Unexpected == 0 && s.UnexpectedPasses == 0 && len(r.StaleBaseline) == 0 && r.Inconclusive() == ""
}

// Inconclusive says why a run has no verdict, or "" when it has one:
// every selected scenario was skipped, so nothing was tested.
func (r *Report) Inconclusive() string {
	s := r.Summary
	if r.Error != nil || s.Passed+s.Failed+s.Undefined+s.Pending+s.Unstable > 0 {
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

// levelOf is the level of a scenario checking rules.
func levelOf(rules []string) string {
	for _, id := range rules {
		rule, ok := spec.Lookup(id)
		if !ok || rule.Strength == spec.Must || rule.Strength == spec.MustNot {
			return LevelMust
		}
	}
	return LevelShould
}

// count classifies the scenarios by level and baseline, fills in the
// summary and decides the verdict.
func (r *Report) count() {
	r.Summary = Summary{}
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		s.Level = levelOf(s.Rules)
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
			r.Summary.Unstable++
		}
		if r.baseline != nil {
			s.Baseline, s.BaselineReason = "", ""
			if entry, covered := r.baseline.entryFor(*s); covered {
				s.BaselineReason = entry.Reason
				switch {
				case entry.Flaky:
					s.Baseline = BaselineFlaky
				case s.failing():
					s.Baseline = BaselineExpected
				case s.Status == StatusPassed && entry.Scenario != "":
					s.Baseline = BaselineUnexpectedPass
				}
			}
		}
		switch {
		case s.Baseline == BaselineFlaky:
			r.Summary.Flaky++
		case s.Baseline == BaselineExpected:
			r.Summary.Expected++
		case s.Baseline == BaselineUnexpectedPass:
			r.Summary.UnexpectedPasses++
		case s.failing() && s.Level == LevelShould && s.Status == StatusFailed && !r.Strict:
			r.Summary.Warnings++
		case s.failing():
			r.Summary.Unexpected++
		}
	}
	if r.baseline != nil {
		r.StaleBaseline = r.staleEntries()
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

// staleEntries are the baseline entries that expect failures of the
// scenarios this run ran, all of which passed.
func (r *Report) staleEntries() []string {
	if r.baseline == nil {
		return nil
	}
	var out []string
	for _, e := range r.baseline.Entries {
		if e.Flaky {
			continue
		}
		ran, failed := 0, 0
		for _, s := range r.Scenarios {
			if (e.Scenario != "" && s.ID == e.Scenario) || (e.Rule != "" && slices.Contains(s.Rules, e.Rule)) {
				if s.Status == StatusPassed {
					ran++
				} else if s.failing() {
					ran++
					failed++
				}
			}
		}
		if ran > 0 && failed == 0 {
			name := "scenario " + e.Scenario
			if e.Rule != "" {
				name = "rule " + e.Rule
			}
			out = append(out, fmt.Sprintf("%s passes now: remove it from the baseline (its reason was %q)", name, safetext.Cap(e.Reason, 120)))
		}
	}
	return out
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
