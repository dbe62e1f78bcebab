package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcpconform/mcpconform/internal/safetext"
	"github.com/mcpconform/mcpconform/spec"
)

// Baseline lists the failures a target is known to have, so that the CI of
// a port that does not pass everything yet is green until something
// changes: a failure it lists is expected; a failure it does not list
// fails the run; and an entry whose scenarios now pass fails the run too,
// saying to remove the entry, so that the baseline only ever shrinks.
//
// It is YAML:
//
//	version: 1
//	expected-failures:
//	  - rule: LA-OAU-15              # every scenario of the rule
//	    reason: OAuth discovery is not implemented yet
//	    link: https://example.com/issues/12
//	  - scenario: lite-agent/naming/a-server-alias-has-1-to-24-characters-a-through-register
//	    reason: a known flake
//	    flaky: true                  # may pass or fail
type Baseline struct {
	Version int             `yaml:"version"`
	Entries []BaselineEntry `yaml:"expected-failures"`
}

// BaselineEntry is one expected failure: of every scenario of a rule, or of
// one scenario by its ID.
type BaselineEntry struct {
	Rule     string `yaml:"rule,omitempty"`
	Scenario string `yaml:"scenario,omitempty"`
	// Reason says why the failure is expected; required.
	Reason string `yaml:"reason"`
	// Link points at the issue that tracks it, if any.
	Link string `yaml:"link,omitempty"`
	// Flaky entries may pass or fail: neither is news.
	Flaky bool `yaml:"flaky,omitempty"`
}

// The baseline verdicts of a scenario ([ScenarioResult.Baseline]).
const (
	// BaselineExpected: it failed, as the baseline says.
	BaselineExpected = "expected-failure"
	// BaselineFlaky: the baseline says it may pass or fail.
	BaselineFlaky = "flaky"
	// BaselineUnexpectedPass: the baseline expects it to fail, and it
	// passed: the entry must go.
	BaselineUnexpectedPass = "unexpected-pass"
)

// maxBaselineBytes bounds a baseline file.
const maxBaselineBytes = 4 << 20

// LoadBaseline reads and checks a baseline file: every entry names exactly
// one rule of the catalog or one scenario of the suite, and says why.
func LoadBaseline(path string) (*Baseline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &UsageError{Msg: fmt.Sprintf("baseline: %v", err)}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBaselineBytes+1))
	if err != nil {
		return nil, &UsageError{Msg: fmt.Sprintf("baseline %s: %v", path, err)}
	}
	if len(data) > maxBaselineBytes {
		return nil, &UsageError{Msg: fmt.Sprintf("baseline %s: larger than %d bytes", path, maxBaselineBytes)}
	}
	scs, err := Scenarios()
	if err != nil {
		return nil, err
	}
	return parseBaseline(path, data, scs)
}

// parseBaseline decodes and checks a baseline against the suite's
// scenarios.
func parseBaseline(path string, data []byte, scs []Scenario) (*Baseline, error) {
	var b Baseline
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&b); err != nil && !errors.Is(err, io.EOF) {
		return nil, &UsageError{Msg: fmt.Sprintf("baseline %s: %v", path, err)}
	}
	if b.Version != 1 {
		return nil, &UsageError{Msg: fmt.Sprintf("baseline %s: version %d; this mcpconform reads version 1", path, b.Version)}
	}
	ids := map[string]bool{}
	for _, s := range scs {
		ids[s.ID] = true
	}
	var problems []string
	seen := map[string]bool{}
	for i, e := range b.Entries {
		where := fmt.Sprintf("entry %d", i+1)
		switch {
		case (e.Rule == "") == (e.Scenario == ""):
			problems = append(problems, where+": name exactly one of rule or scenario")
		case e.Rule != "":
			if _, ok := spec.Lookup(e.Rule); !ok {
				problems = append(problems, fmt.Sprintf("%s: rule %q is not in the catalog (mcpconform list)", where, quoteShown(e.Rule)))
			} else if !slices.ContainsFunc(scs, func(s Scenario) bool { return slices.Contains(s.Rules, e.Rule) }) {
				problems = append(problems, fmt.Sprintf("%s: rule %s has no scenario", where, e.Rule))
			}
		case !ids[e.Scenario]:
			problems = append(problems, fmt.Sprintf("%s: the suite has no scenario %q (IDs are in report.json)", where, quoteShown(e.Scenario)))
		}
		if strings.TrimSpace(e.Reason) == "" {
			problems = append(problems, where+": give a reason")
		}
		key := e.Rule + "|" + e.Scenario
		if seen[key] && key != "|" {
			problems = append(problems, fmt.Sprintf("%s: names %s%s a second time", where, e.Rule, e.Scenario))
		}
		seen[key] = true
	}
	if len(problems) > 0 {
		return nil, &UsageError{Msg: fmt.Sprintf("baseline %s: %s", path, strings.Join(problems, "; "))}
	}
	return &b, nil
}

// entryFor returns the baseline entry that covers a scenario result: its
// own entry first, then the entry of one of its rules.
func (b *Baseline) entryFor(r ScenarioResult) (BaselineEntry, bool) {
	if b == nil {
		return BaselineEntry{}, false
	}
	for _, e := range b.Entries {
		if e.Scenario != "" && e.Scenario == r.ID {
			return e, true
		}
	}
	for _, e := range b.Entries {
		if e.Rule != "" && slices.Contains(r.Rules, e.Rule) {
			return e, true
		}
	}
	return BaselineEntry{}, false
}

// WriteBaseline writes a baseline that expects every failure of a report:
// one entry per failed, undefined or pending scenario, its reason the start
// of the failure, to be edited.
func WriteBaseline(w io.Writer, r *Report) error {
	b := Baseline{Version: 1, Entries: []BaselineEntry{}}
	for _, s := range r.Scenarios {
		if s.Status == StatusPassed || s.Status == StatusSkipped {
			continue
		}
		reason := firstLine(s.Error)
		if i := strings.Index(s.Error, "Actual:"); i >= 0 {
			reason += " " + firstLine(s.Error[i:])
		}
		b.Entries = append(b.Entries, BaselineEntry{Scenario: s.ID, Reason: fmt.Sprintf("%s (%s)", safetext.Cap(strings.ToValidUTF8(reason, "?"), 160), strings.Join(s.Rules, ", "))})
	}
	fmt.Fprintf(w, "# mcpconform baseline of %s %s: %d expected failures.\n# Give each a real reason; remove entries as they pass.\n", r.Target.Name, r.Target.Version, len(b.Entries))
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(b); err != nil {
		return err
	}
	return enc.Close()
}
