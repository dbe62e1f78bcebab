package conformance

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/cucumber/godog"

	"github.com/mcpconform/mcpconform/features"
)

// stepsFeature has a step of each kind godog tells apart: one definition,
// several (ambiguous under strict), none (undefined), arguments to
// convert, a nested definition (godog.Steps), and a scenario whose Before
// hook skips it.
const stepsFeature = `Feature: step definitions
  Scenario: one definition, with arguments
    Given a count of 3 and "x"
    Then the count is 3

  Scenario: an ambiguous step
    Given a count of 3 and "x"
    When both match this
    Then the count is 3

  Scenario: an undefined step
    Given a count of 3 and "x"
    Then nothing defines this

  Scenario: a nested definition
    Given a count of 3 and "x"
    When the count is doubled twice
    Then the count is 12

  Scenario: a skipped scenario
    Given a count of 3 and "x"
    Then nothing defines this either
`

// stepsWorld is the world of [stepsFeature]'s definitions.
type stepsWorld struct{ n int }

func (w *stepsWorld) register(sc stepDefiner) {
	sc.Step(`^a count of (\d+) and "([^"]*)"$`, func(n int, s string) error {
		if s != "x" {
			return fmt.Errorf("s %q", s)
		}
		w.n = n
		return nil
	})
	sc.Step(`^the count is (\d+)$`, func(n int) error {
		if w.n != n {
			return fmt.Errorf("the count is %d, not %d", w.n, n)
		}
		return nil
	})
	sc.Step(`^both match (this)$`, func(string) error { return nil })
	sc.Step(`^both (match) this$`, func(string) error { return nil })
	sc.Step(`^the count is doubled$`, func() error { w.n *= 2; return nil })
	sc.Step(`^the count is doubled twice$`, func() godog.Steps {
		return godog.Steps{"the count is doubled", "the count is doubled"}
	})
	sc.Step(`^an unused definition$`, func() error { return nil })
}

// TestScenarioStepsKeepGodogsVerdicts runs [stepsFeature] with every
// definition registered in each scenario, as godog is meant to be used,
// and with [scenarioSteps], and checks that each step ends the same: the
// same status and error, after the same arguments.
func TestScenarioStepsKeepGodogsVerdicts(t *testing.T) {
	type stepEnd struct{ scenario, step, status, err string }
	ix := newStepIndex((&stepsWorld{}).register)
	defined := len(ix.defs)
	run := func(filtered bool) (ends []stepEnd, registered map[string]int) {
		var mu sync.Mutex
		registered = map[string]int{}
		godog.TestSuite{
			ScenarioInitializer: func(sc *godog.ScenarioContext) {
				w := &stepsWorld{}
				steps := &scenarioSteps{ix: ix}
				if filtered {
					w.register(steps)
				} else {
					w.register(compiledSteps{sc})
				}
				var name string
				sc.Before(func(ctx context.Context, pk *godog.Scenario) (context.Context, error) {
					n := defined
					if filtered {
						n = steps.define(sc, pk)
					}
					name = pk.Name
					mu.Lock()
					registered[name] = n
					mu.Unlock()
					if name == "a skipped scenario" {
						return ctx, godog.ErrSkip
					}
					return ctx, nil
				})
				sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
					e := ""
					if err != nil {
						e = err.Error()
					}
					mu.Lock()
					ends = append(ends, stepEnd{name, st.Text, status.String(), e})
					mu.Unlock()
					return ctx, nil
				})
			},
			Options: &godog.Options{
				Format: "progress", Output: io.Discard, NoColors: true, Strict: true, Concurrency: 1,
				FS: fstest.MapFS{"steps.feature": {Data: []byte(stepsFeature)}}, Paths: []string{"."},
			},
		}.Run()
		return ends, registered
	}
	all, _ := run(false)
	some, registered := run(true)
	if !slices.Equal(all, some) {
		t.Errorf("the steps end differently\nExpected (every definition registered): %q\nActual   (the scenario's only):           %q", all, some)
	}
	for _, want := range []stepEnd{
		{"one definition, with arguments", "the count is 3", "passed", ""},
		{"an ambiguous step", "both match this", "ambiguous", ""},
		{"an undefined step", "nothing defines this", "undefined", ""},
		{"a nested definition", "the count is 12", "passed", ""},
		{"a skipped scenario", "nothing defines this either", "undefined", ""},
	} {
		if !slices.ContainsFunc(some, func(e stepEnd) bool {
			return e.scenario == want.scenario && e.step == want.step && e.status == want.status
		}) {
			t.Errorf("Expected: in %q the step %q %s\nActual:   %q", want.scenario, want.step, want.status, some)
		}
	}
	for name, want := range map[string]int{
		"one definition, with arguments": 2,
		"an ambiguous step":              4,
		"an undefined step":              1,
		"a nested definition":            defined, // the texts of nested steps are not known before they run
		"a skipped scenario":             1,
	} {
		if registered[name] != want {
			t.Errorf("%q: Expected: %d definitions registered\nActual:   %d", name, want, registered[name])
		}
	}
}

// TestScenarioStepsOfAnotherVocabulary checks that a world whose
// definitions are not the index's registers every one of them.
func TestScenarioStepsOfAnotherVocabulary(t *testing.T) {
	ix := newStepIndex((&stepsWorld{}).register)
	var got []int
	godog.TestSuite{
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			steps := &scenarioSteps{ix: ix}
			(&stepsWorld{}).register(steps)
			steps.Step(`^one more$`, func() error { return nil })
			sc.Before(func(ctx context.Context, pk *godog.Scenario) (context.Context, error) {
				got = append(got, steps.define(sc, pk))
				return ctx, nil
			})
		},
		Options: &godog.Options{Format: "progress", Output: io.Discard, Strict: true,
			FS: fstest.MapFS{"a.feature": {Data: []byte("Feature: f\n  Scenario: s\n    Given one more\n")}}, Paths: []string{"."}},
	}.Run()
	if want := []int{len(ix.defs) + 1}; !slices.Equal(got, want) {
		t.Errorf("Expected: %v definitions registered\nActual:   %v", want, got)
	}
}

// TestStepIndexMatchesAsTheRegexpsDo checks the index of the suite's
// vocabulary, with the literal prefixes it tries first, against every
// pattern run on every step text of the features and on texts that match
// nothing: the same patterns, in the same order.
func TestStepIndexMatchesAsTheRegexpsDo(t *testing.T) {
	defs := vocabulary()
	pickles, err := featurePickles(features.FS, features.Dirs)
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"", "the", "the moon is made of cheese", `the tool "t" of "p" answers with the txt "x"`}
	for _, pk := range pickles {
		for _, st := range pk.Steps {
			texts = append(texts, st.Text)
		}
	}
	ix := newStepIndex((&world{}).registerSteps)
	for _, text := range texts {
		var want []int
		for i, d := range defs {
			if d.expr.MatchString(text) {
				want = append(want, i)
			}
		}
		if got := ix.matching(text); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("%q: Expected: the patterns %v\nActual:   %v", text, want, got)
		}
	}
}
