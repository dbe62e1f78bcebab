package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/internal/safetext"
	"github.com/mcpconform/mcpconform/internal/scratch"
)

// Run runs the selected scenarios of the suite against opts.Target and
// returns the report. Every scenario gets a fresh world; scenarios run
// concurrently. An error means the run could not happen at all: bad
// options or an empty selection (a [*UsageError], and no report), or a
// target that cannot be started or describe itself (a [*TargetError],
// with a report that says so and holds no scenario). A failing
// implementation is a report with failures, not an error.
func Run(ctx context.Context, opts Options) (*Report, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	// The scratch directories of runs that were killed go first.
	_, _ = scratch.Sweep()
	info, err := opts.Target.Info(ctx)
	if err != nil {
		return targetFailed(opts, err)
	}
	if len(info.Systems) == 0 {
		return nil, &UsageError{Msg: fmt.Sprintf("the target %q (adapter %q) claims no system, so no scenario applies to it: an adapter declares the systems it implements (%s, %s)", info.Implementation.Name, info.Name, adapter.LiteAgent, adapter.Blade)}
	}
	fsys, dirs := opts.featureTree()
	all, err := scenariosIn(fsys, dirs)
	if err != nil {
		return nil, err
	}
	tags := selectionTags(opts.Rules, opts.Tags)
	var selected []Scenario
	for _, s := range all {
		if matchTags(tags, s.Tags) {
			selected = append(selected, s)
		}
	}
	if len(selected) == 0 {
		return nil, &UsageError{Msg: fmt.Sprintf("no scenario matches the selection (rules %v, tags %q)", opts.Rules, opts.Tags)}
	}
	r := &runner{opts: opts, info: info, byID: map[string]Scenario{}, results: map[string]*ScenarioResult{}, worlds: map[*world]bool{}}
	for _, s := range selected {
		if opts.Repeat == 1 {
			r.byID[s.ID] = s
			continue
		}
		for k := 1; k <= opts.Repeat; k++ {
			r.byID[repeatedID(s.ID, k)] = s
		}
	}
	if opts.Repeat > 1 {
		fsys, dirs = repeatFS{base: fsys, n: opts.Repeat}, repeatDirs(dirs, opts.Repeat)
	}
	suite := godog.TestSuite{
		Name:                "mcpconform",
		ScenarioInitializer: r.initScenario,
		Options: &godog.Options{
			Format: "progress", Output: io.Discard, NoColors: true,
			FS: fsys, Paths: dirs, Tags: tags,
			Concurrency: opts.Concurrency, Randomize: opts.Seed, Strict: true,
			TestingT: opts.T, DefaultContext: ctx,
		},
	}
	suite.Run()
	r.closeLeftovers()

	rep := &Report{
		Schema: 1, Tool: ToolInfo{Version: opts.ToolVersion},
		Target: sealTarget(TargetInfo{Name: info.Implementation.Name, Version: info.Implementation.Version,
			Adapter: info.Name + " " + info.Version, Systems: stringsOf(info.Systems), Capabilities: stringsOf(info.Capabilities)}),
		Scenarios: r.repeated(selected),
	}
	if opts.Repeat > 1 {
		rep.Repeat = opts.Repeat
	}
	rep.count()
	return rep, nil
}

// TargetError is a target that could not be started or failed its
// handshake: a broken adapter, not a failing implementation.
type TargetError struct {
	Err error
}

// Error implements the error interface.
func (e *TargetError) Error() string {
	return "conformance: the target cannot describe itself: " + e.Err.Error()
}

// Unwrap returns the target's error.
func (e *TargetError) Unwrap() error { return e.Err }

// targetFailed is the report of a run whose target could not describe
// itself.
func targetFailed(opts Options, err error) (*Report, error) {
	te := &TargetError{Err: err}
	re := &RunError{Message: safetext.Text(te.Error(), maxErrorBytes)}
	var d adapter.Diagnoser
	if errors.As(err, &d) {
		re.Evidence = sealLines(d.Diagnostics(), maxEvidenceLines)
	}
	rep := &Report{Schema: 1, Tool: ToolInfo{Version: opts.ToolVersion}, Error: re, Scenarios: []ScenarioResult{},
		Target: TargetInfo{Systems: []string{}, Capabilities: []string{}}}
	rep.count()
	return rep, te
}

// selectionTags combines a rule selection with a tag expression into one
// godog tag expression (alternatives of conjunctions; godog has no
// parentheses, so the conjunction is distributed).
func selectionTags(rules []string, tags string) string {
	var alts []string
	for _, a := range strings.Split(tags, ",") {
		if a = strings.TrimSpace(a); a != "" {
			alts = append(alts, a)
		}
	}
	if len(rules) == 0 {
		return strings.Join(alts, ",")
	}
	var out []string
	for _, id := range rules {
		if len(alts) == 0 {
			out = append(out, "@"+id)
		}
		for _, a := range alts {
			out = append(out, "@"+id+" && "+a)
		}
	}
	return strings.Join(out, ",")
}

func stringsOf[T ~string](list []T) []string {
	out := []string{}
	for _, x := range list {
		out = append(out, string(x))
	}
	return out
}

// runner is the state of one [Run].
type runner struct {
	opts Options
	info adapter.Info
	byID map[string]Scenario

	mu      sync.Mutex
	done    int
	results map[string]*ScenarioResult
	worlds  map[*world]bool // worlds not yet closed
}

// initScenario is godog's scenario initializer: one world per scenario.
func (r *runner) initScenario(sc *godog.ScenarioContext) {
	w := &world{run: r}
	w.registerSteps(sc)
	var res *ScenarioResult
	var start time.Time
	var before int

	sc.Before(func(ctx context.Context, pk *godog.Scenario) (context.Context, error) {
		start = time.Now()
		id := scenarioID(pk)
		s := r.byID[id]
		res = &ScenarioResult{ID: s.ID, Name: s.Name, Feature: s.Feature, Line: s.Line, Rules: s.Rules, Status: StatusPassed}
		r.mu.Lock()
		r.results[id] = res
		r.worlds[w] = true
		r.mu.Unlock()
		if reason := r.skipReason(s); reason != "" {
			res.Status, res.Error = StatusSkipped, reason
			return ctx, godog.ErrSkip
		}
		if err := w.setup(s); err != nil {
			return ctx, fmt.Errorf("the harness could not set up the scenario: %w", err)
		}
		return ctx, nil
	})
	sc.StepContext().Before(func(ctx context.Context, st *godog.Step) (context.Context, error) {
		before = w.assertions
		return ctx, nil
	})
	sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
		if status == godog.StepPassed && st.Type == messages.PickleStepType_OUTCOME && w.assertions == before {
			err = fmt.Errorf("this Then step asserted nothing, which can never count as a pass")
			status = godog.StepFailed
		}
		if status == godog.StepPassed && st.Type == messages.PickleStepType_OUTCOME && observes(st.Text) {
			w.positives++
		}
		r.stepDone(w, res, st, status, err)
		return ctx, err
	})
	sc.After(func(ctx context.Context, pk *godog.Scenario, err error) (context.Context, error) {
		if res != nil {
			if err != nil && res.Status == StatusPassed && !errors.Is(err, godog.ErrSkip) {
				res.Status, res.Error = StatusFailed, err.Error()
			}
			res.DurationMs = time.Since(start).Milliseconds()
		}
		r.finish(w, res)
		return ctx, nil
	})
}

// skipReason says why an adapter cannot run a scenario: a system it does
// not claim, or a capability it did not declare.
func (r *runner) skipReason(s Scenario) string {
	if len(s.Systems) > 0 && !slices.ContainsFunc(s.Systems, r.info.Claims) {
		return fmt.Sprintf("the implementation does not claim the %v system", s.Systems)
	}
	for _, c := range s.Capabilities {
		if !r.info.Supports(c) {
			return fmt.Sprintf("the adapter does not declare the capability %q", c)
		}
	}
	return ""
}

// stepDone folds one step's status into the scenario's verdict: the first
// failure, undefined or pending step decides it.
func (r *runner) stepDone(w *world, res *ScenarioResult, st *godog.Step, status godog.StepResultStatus, err error) {
	if res == nil || res.Status != StatusPassed {
		return
	}
	switch status {
	case godog.StepSkipped:
		if w.skipReason != "" {
			res.Status, res.Step, res.Error = StatusSkipped, st.Text, w.skipReason
		}
	case godog.StepFailed, godog.StepAmbiguous:
		res.Status, res.Step = StatusFailed, st.Text
		res.Error = fmt.Sprintf("step %q: %v", st.Text, err)
		// The wire log as the step failed; what the adapter says about
		// itself is added once it is closed and its output read to the end.
		res.Evidence = w.recordTail()
		w.diagnose = true
	case godog.StepUndefined:
		res.Status, res.Step, res.Error = StatusUndefined, st.Text, fmt.Sprintf("undefined step %q", st.Text)
	case godog.StepPending:
		res.Status, res.Step, res.Error = StatusPending, st.Text, fmt.Sprintf("pending step %q", st.Text)
	}
}

// finish closes a scenario's world, applies the scenario invariants to a
// scenario that passed its steps, and reports progress.
func (r *runner) finish(w *world, res *ScenarioResult) {
	check := res != nil && res.Status == StatusPassed && w.log != nil
	if check {
		w.beforeTeardown(context.Background())
	}
	w.close(check)
	if res != nil && res.Status == StatusPassed && w.fault != nil {
		// The adapter broke the protocol or flooded the runner after its
		// last answer: its failure, whatever the steps saw.
		res.Status, res.Step, res.Error = StatusFailed, "the adapter", w.fault.Error()
		res.Evidence = w.evidence()
		check = false
	}
	if res != nil && w.diagnose {
		res.Evidence = append(res.Evidence, w.adapterDiagnostics()...)
	}
	if res != nil && res.Status != StatusPassed && res.Status != StatusSkipped {
		for _, l := range w.leftoverLines() {
			if !slices.Contains(res.Evidence, l) {
				res.Evidence = append(res.Evidence, l)
			}
		}
	}
	if check {
		failures, warnings := w.invariantFindings()
		for _, f := range warnings {
			res.Warnings = append(res.Warnings, f.String())
		}
		if len(failures) > 0 {
			var parts []string
			for _, f := range failures {
				parts = append(parts, f.String())
			}
			res.Status, res.Step = StatusFailed, "invariant: "+failures[0].invariant
			res.Error = strings.Join(parts, "\n")
			res.Evidence = w.evidence()
		}
	}
	if res != nil {
		res.seal()
	}
	w.release()
	r.mu.Lock()
	delete(r.worlds, w)
	r.mu.Unlock()
	if r.opts.OnResult != nil && res != nil {
		r.mu.Lock()
		r.done++
		r.opts.OnResult(*res, r.done, len(r.byID))
		r.mu.Unlock()
	}
}

// closeLeftovers closes worlds godog did not finish (it skips the after
// hook in some early-exit paths).
func (r *runner) closeLeftovers() {
	r.mu.Lock()
	var left []*world
	for w := range r.worlds {
		left = append(left, w)
	}
	r.worlds = map[*world]bool{}
	r.mu.Unlock()
	for _, w := range left {
		w.close(false)
	}
}

// evidence is the tail of the world's record log and what the adapter can
// say about itself, for a failure report.
func (w *world) evidence() []string {
	return append(w.recordTail(), w.adapterDiagnostics()...)
}

// recordTail describes the last records of the world's log.
func (w *world) recordTail() []string {
	var out []string
	if w.log != nil {
		rs := w.log.Records()
		if len(rs) > 40 {
			rs = rs[len(rs)-40:]
		}
		for _, rec := range rs {
			out = append(out, describe(rec))
		}
	}
	return out
}

// adapterDiagnostics is what the adapter can say about itself: an adapter
// process's command, why its connection ended, its last messages and its
// stderr's tail.
func (w *world) adapterDiagnostics() []string {
	var out []string
	if d, ok := w.adapter.(adapter.Diagnoser); ok {
		out = append(out, d.Diagnostics()...)
	}
	return append(out, w.startDiagnostics...)
}
