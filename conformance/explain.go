package conformance

import (
	"fmt"

	messages "github.com/cucumber/messages/go/v34"

	"github.com/mcpconform/mcpconform/features"
	"github.com/mcpconform/mcpconform/internal/codeindex"
)

// DefinedStep is one step of a scenario and the definition that runs it:
// what `mcpconform explain` shows between a rule's scenarios and the code
// that enforces it.
type DefinedStep struct {
	// Keyword is "Given", "When" or "Then"; an "And" or "But" step has the
	// keyword of the step before it.
	Keyword string `json:"keyword"`
	// Text is the step's text, with an outline's values filled in.
	Text string `json:"text"`
	// Method is the method of the suite's world that runs the step; ""
	// when no definition matches it.
	Method string `json:"method,omitempty"`
	// File and Line are where Method is defined, from the module's root.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// StepsOf returns the steps of each of scenarios, by [Scenario.ID], with
// the definition of each.
func StepsOf(scenarios []Scenario) (map[string][]DefinedStep, error) {
	ix, err := codeindex.Load()
	if err != nil {
		return nil, err
	}
	pickles, err := featurePickles(features.FS, features.Dirs)
	if err != nil {
		return nil, err
	}
	byKey := map[string]*messages.Pickle{}
	for _, pk := range pickles {
		byKey[pickleKey(pk)] = pk
	}
	defs := vocabulary()
	out := map[string][]DefinedStep{}
	for _, s := range scenarios {
		pk, ok := byKey[s.key()]
		if !ok {
			return nil, fmt.Errorf("explain: scenario %s is not in the suite", s.ID)
		}
		var steps []DefinedStep
		for _, st := range pk.Steps {
			d := DefinedStep{Keyword: keywordOf(st.Type), Text: st.Text}
			if hits := matchDefs(defs, st.Text); len(hits) > 0 {
				d.Method = hits[0].handler
				site := ix.Steps[d.Method]
				d.File, d.Line = site.File, site.Line
			}
			steps = append(steps, d)
		}
		out[s.ID] = steps
	}
	return out, nil
}

// keywordOf is the keyword of a pickle step's type.
func keywordOf(t messages.PickleStepType) string {
	switch t {
	case messages.PickleStepType_CONTEXT:
		return "Given"
	case messages.PickleStepType_ACTION:
		return "When"
	case messages.PickleStepType_OUTCOME:
		return "Then"
	}
	return "*"
}
