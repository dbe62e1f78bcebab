package conformance

import (
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

// Repetitions ([Options.Repeat]): the run holds every selected scenario
// n times, as n copies of the feature tree ("repeat-1/lite-agent/...",
// "repeat-2/..."), all in one godog suite, so that repetitions run side by
// side as scenarios do and the load that exposes a flake is there. A
// scenario whose verdict is not the same every time is flaky.

// repeatPrefix starts the directory of one repetition.
const repeatPrefix = "repeat-"

// repeatFS shows the feature tree base n times, as repeat-1/ ... repeat-n/.
type repeatFS struct {
	base fs.FS
	n    int
}

// Open implements [fs.FS].
func (r repeatFS) Open(name string) (fs.File, error) {
	first, rest, _ := strings.Cut(name, "/")
	if k, ok := repetitionOf(first); ok && k <= r.n && fs.ValidPath(name) {
		if rest == "" {
			rest = "."
		}
		return r.base.Open(rest)
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// repetitionOf reads "repeat-K".
func repetitionOf(dir string) (int, bool) {
	n, found := strings.CutPrefix(dir, repeatPrefix)
	k, err := strconv.Atoi(n)
	return k, found && err == nil && k >= 1
}

// repeatDirs are the directories of n repetitions of dirs.
func repeatDirs(dirs []string, n int) []string {
	var out []string
	for k := 1; k <= n; k++ {
		for _, d := range dirs {
			out = append(out, strings.TrimSuffix(fmt.Sprintf("%s%d/%s", repeatPrefix, k, d), "/."))
		}
	}
	return out
}

// repeatedKey is the [Scenario.key] of repetition k of the scenario
// whose key is key: its feature file is under repeat-k/.
func repeatedKey(key string, k int) string { return fmt.Sprintf("%s%d/%s", repeatPrefix, k, key) }

// fold makes one result of the results of a scenario's repetitions, in
// order: the verdict they all had, or [StatusFlaky] with what each was.
// The details (step, error, evidence) are those of the first repetition
// that did not pass, or of the first.
func fold(reps []*ScenarioResult) *ScenarioResult {
	first := reps[0]
	for _, r := range reps {
		if r.Status != StatusPassed {
			first = r
			break
		}
	}
	out := *first
	out.Repetitions = nil
	var longest int64
	counts := map[Status]int{}
	for _, r := range reps {
		out.Repetitions = append(out.Repetitions, r.Status)
		counts[r.Status]++
		longest = max(longest, r.DurationMs)
	}
	out.DurationMs = longest
	if len(counts) == 1 {
		return &out
	}
	out.Status = StatusFlaky
	var parts []string
	for _, st := range []Status{StatusPassed, StatusFailed, StatusSkipped, StatusUndefined, StatusPending} {
		if counts[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
		}
	}
	which := slices.Index(reps, first) + 1
	out.Error = fmt.Sprintf("flaky: the verdict differed between the %d repetitions (%s); repetition %d was %s: %s",
		len(reps), strings.Join(parts, ", "), which, first.Status, first.Error)
	return &out
}

// repeated returns the scenario results of a run, repetitions folded.
func (r *runner) repeated(selected []Scenario) []ScenarioResult {
	var out []ScenarioResult
	for _, s := range selected {
		var reps []*ScenarioResult
		for k := 1; k <= r.opts.Repeat; k++ {
			key := s.key()
			if r.opts.Repeat > 1 {
				key = repeatedKey(key, k)
			}
			res, ok := r.results[key]
			if !ok {
				res = &ScenarioResult{ID: s.ID, Name: s.Name, Feature: s.Feature, Line: s.Line, Rules: s.Rules,
					Status: StatusFailed, Error: "the scenario did not run (was the run cancelled?)"}
			}
			res.seal()
			reps = append(reps, res)
		}
		res := reps[0]
		if len(reps) > 1 {
			res = fold(reps)
		}
		out = append(out, *res)
	}
	return out
}
