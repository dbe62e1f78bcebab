package conformance

import (
	"reflect"
	"regexp"
	"strings"
	"sync"

	"github.com/cucumber/godog"
)

// stepIndex is the step vocabulary's patterns, compiled once per process,
// and which of them each step text matches, worked out once per process
// for each text. godog runs every definition's pattern of a scenario
// against each of its steps (twice: to match it and to check that it is
// defined), and each definition it is given costs reflection and a
// runtime.Caller: some 270 definitions registered in every scenario and
// matched against every step were a sixth of the runner's CPU. With the
// index a scenario registers only the definitions one of its steps
// matches ([scenarioSteps]). A compiled [regexp.Regexp] is safe for
// concurrent use, so the scenarios share them.
type stepIndex struct {
	defs     []stepDef // in registration order ([vocabulary])
	prefixes []string  // what a text must begin with to match defs[i] ("" for anything)

	mu      sync.RWMutex
	matches map[string][]int // step text → the indexes of the patterns that match it, in order
}

// newStepIndex indexes the definitions register defines, in its order.
func newStepIndex(register func(stepDefiner)) *stepIndex {
	var r stepRecorder
	register(&r)
	ix := &stepIndex{defs: r.defs, matches: map[string][]int{}}
	for _, d := range r.defs {
		ix.prefixes = append(ix.prefixes, anchoredPrefix(d.expr))
	}
	return ix
}

// suiteSteps is the index of the suite's vocabulary.
var suiteSteps = sync.OnceValue(func() *stepIndex {
	return newStepIndex((&world{}).registerSteps)
})

// matching returns the indexes of the patterns text matches, in
// registration order. The caller must not modify the slice.
func (ix *stepIndex) matching(text string) []int {
	ix.mu.RLock()
	m, ok := ix.matches[text]
	ix.mu.RUnlock()
	if ok {
		return m
	}
	m = []int{} // cached as "none" too
	for i, d := range ix.defs {
		if strings.HasPrefix(text, ix.prefixes[i]) && d.expr.MatchString(text) {
			m = append(m, i)
		}
	}
	ix.mu.Lock()
	ix.matches[text] = m
	ix.mu.Unlock()
	return m
}

// anchoredPrefix is the literal text every match of re begins with when
// re matches only at the start of a text (its source begins with ^, and
// no (?m) can make that the start of a line): a text that does not begin
// with it does not match. It is "" otherwise.
func anchoredPrefix(re *regexp.Regexp) string {
	if !strings.HasPrefix(re.String(), "^") {
		return ""
	}
	prefix, _ := re.LiteralPrefix()
	return prefix
}

// returnsSteps reports whether a step function returns [godog.Steps]: a
// definition godog runs as nested steps, whose texts only its call says.
func returnsSteps(fn any) bool {
	t := reflect.TypeOf(fn)
	return t != nil && t.Kind() == reflect.Func && t.NumOut() == 1 && t.Out(0) == reflect.TypeOf(godog.Steps{})
}

// stepPatterns holds the patterns compiled for a scenario whose
// definitions are not the index's (see [scenarioSteps.define]), by their
// source.
var stepPatterns sync.Map // string → *regexp.Regexp

// compiledSteps is a [stepDefiner] that hands godog's scenario context
// every definition, each pattern compiled once per process.
type compiledSteps struct{ sc *godog.ScenarioContext }

// Step defines stepFunc for the steps expr matches, as
// [godog.ScenarioContext.Step] does.
func (c compiledSteps) Step(expr, stepFunc any) {
	if pattern, ok := expr.(string); ok {
		re, ok := stepPatterns.Load(pattern)
		if !ok {
			re, _ = stepPatterns.LoadOrStore(pattern, regexp.MustCompile(pattern))
		}
		expr = re.(*regexp.Regexp)
	}
	c.sc.Step(expr, stepFunc)
}
