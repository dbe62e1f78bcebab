package conformance

import (
	"regexp"
	"slices"

	"github.com/cucumber/godog"
)

// scenarioSteps is the [stepDefiner] of a scenario that runs. It keeps the
// world's definitions until the scenario's Before hook is given its
// pickle (godog runs a scenario's Before hooks before it matches its first
// step, and matches each step against the definitions registered by then),
// and [scenarioSteps.define] then hands godog only those that one of the
// pickle's steps matches.
type scenarioSteps struct {
	ix    *stepIndex
	exprs []any // as the world defined them
	funcs []any
}

// Step keeps one definition for [scenarioSteps.define].
func (s *scenarioSteps) Step(expr, stepFunc any) {
	s.exprs = append(s.exprs, expr)
	s.funcs = append(s.funcs, stepFunc)
}

// define registers on sc, in the world's order, the definitions that match
// one of pk's step texts. Every step text of pk then matches the same
// definitions in godog as it would among the whole vocabulary, in the same
// order, so godog's choice of the first, its ambiguity check (strict),
// undefined steps and the conversion of arguments stay as they are. Where
// that cannot be known every definition is registered: when the world's
// definitions are not the index's, or when one a step matches returns
// nested steps (godog.Steps), whose texts only its call says. It returns
// the number of definitions registered.
func (s *scenarioSteps) define(sc *godog.ScenarioContext, pk *godog.Scenario) int {
	if !s.indexed() {
		for i, expr := range s.exprs {
			compiledSteps{sc}.Step(expr, s.funcs[i])
		}
		return len(s.exprs)
	}
	var use []int
	for _, st := range pk.Steps {
		for _, i := range s.ix.matching(st.Text) {
			if s.ix.defs[i].nested {
				for i, d := range s.ix.defs {
					sc.Step(d.expr, s.funcs[i])
				}
				return len(s.ix.defs)
			}
			use = append(use, i)
		}
	}
	slices.Sort(use)
	use = slices.Compact(use)
	for _, i := range use {
		sc.Step(s.ix.defs[i].expr, s.funcs[i])
	}
	return len(use)
}

// indexed reports whether the world defined the index's patterns, in its
// order.
func (s *scenarioSteps) indexed() bool {
	if len(s.exprs) != len(s.ix.defs) {
		return false
	}
	for i, expr := range s.exprs {
		var src string
		switch e := expr.(type) {
		case string:
			src = e
		case *regexp.Regexp:
			src = e.String()
		default:
			return false
		}
		if src != s.ix.defs[i].expr.String() {
			return false
		}
	}
	return true
}
