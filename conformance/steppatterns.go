package conformance

import (
	"regexp"
	"sync"

	"github.com/cucumber/godog"
)

// stepPatterns holds every step pattern compiled, by its source. The
// vocabulary is the same in every scenario, but godog compiles a pattern
// given as a string at each registration: some 270 patterns per scenario
// were a third of the runner's CPU. A compiled [regexp.Regexp] is safe
// for concurrent use, so the scenarios share them.
var stepPatterns sync.Map // string → *regexp.Regexp

// compiledSteps is the [stepDefiner] of a scenario that runs: godog's
// scenario context, handed the patterns compiled once per process.
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
