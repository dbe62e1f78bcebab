package conformance

import (
	"regexp"
	"sync"

	"github.com/cucumber/godog"
)

// stepPatterns holds every step pattern compiled, by its source. The
// vocabulary is the same in every scenario, but godog compiles a pattern
// given as a string at each registration: 274 patterns per scenario were a
// third of the runner's CPU. A compiled [regexp.Regexp] is safe for
// concurrent use, so the scenarios share them.
var stepPatterns sync.Map // string → *regexp.Regexp

// vocabulary registers the steps of one scenario, with patterns compiled
// once per process.
type vocabulary struct{ sc *godog.ScenarioContext }

// Step registers fn for the steps that pattern matches, as
// [godog.ScenarioContext.Step] does.
func (v vocabulary) Step(pattern string, fn any) {
	re, ok := stepPatterns.Load(pattern)
	if !ok {
		re, _ = stepPatterns.LoadOrStore(pattern, regexp.MustCompile(pattern))
	}
	v.sc.Step(re.(*regexp.Regexp), fn)
}
