package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
// concurrently. A scenario that failed in an adapter process that had
// served other scenarios (capability reuse) runs again in a process of
// its own, and that run is its verdict ([ScenarioResult.Rerun]); before
// Run returns, the adapter processes a target keeps waiting for a
// scenario are ended (an [io.Closer] target's Close). An error means the run could not happen at all: bad
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
	if c, ok := opts.Target.(io.Closer); ok && !opts.fresh {
		// The adapter processes waiting for a scenario; a run again of a
		// scenario inside the run leaves them to the run.
		defer c.Close()
	}
	info, err := opts.Target.Info(ctx)
	if err != nil {
		return targetFailed(opts, err)
	}
	base := opts
	if len(info.Systems) == 0 {
		return nil, &UsageError{Msg: fmt.Sprintf("the target %q (adapter %q) claims no system, so no scenario applies to it: an adapter declares the systems it implements (%s, %s)", info.Implementation.Name, info.Name, adapter.LiteAgent, adapter.Blade)}
	}
	if naming, err := adapter.ParseToolNaming(info.ToolNames); err != nil {
		return nil, &UsageError{Msg: fmt.Sprintf("the target %q (adapter %q) declares %v", info.Implementation.Name, info.Name, err)}
	} else if !naming.IsCanonical() {
		opts.Target = renamingTarget{Target: opts.Target, naming: naming}
	}
	fsys, dirs := opts.featureTree()
	all, err := scenariosIn(fsys, dirs)
	if err != nil {
		return nil, err
	}
	selected, tags, err := selection(all, opts)
	if err != nil {
		return nil, err
	}
	r := &runner{opts: opts, info: info, byKey: map[string]Scenario{}, results: map[string]*ScenarioResult{}, worlds: map[*world]bool{},
		ctx: ctx, base: base, fresh: map[string]*freshRun{}, freshSlots: make(chan struct{}, opts.Concurrency)}
	for _, s := range selected {
		if opts.Repeat == 1 {
			r.byKey[s.key()] = s
			continue
		}
		for k := 1; k <= opts.Repeat; k++ {
			r.byKey[repeatedKey(s.key(), k)] = s
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
	r.removeOpenerShim()
	if err := r.applyReruns(); err != nil {
		return nil, err
	}

	rep := &Report{
		Schema: 1, Tool: ToolInfo{Version: opts.ToolVersion}, Strict: opts.Strict, Shard: opts.Shard.String(), baseline: opts.Baseline,
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

// selection returns the scenarios a run selects, and the godog tag
// expression that selects them from the feature files: the rules and tags
// asked for, then only the IDs asked for, then the shard's part.
func selection(all []Scenario, opts Options) ([]Scenario, string, error) {
	tags := selectionTags(opts.Rules, opts.Tags)
	only := map[string]bool{}
	for _, id := range opts.Only {
		only[id] = true
	}
	known := map[string]bool{}
	var selected []Scenario
	for _, s := range all {
		known[s.ID] = true
		if matchTags(tags, s.Tags) && (len(only) == 0 || only[s.ID]) && opts.Shard.has(s.ID) && (!opts.Portable || portable(s)) {
			selected = append(selected, s)
		}
	}
	for _, id := range opts.Only {
		if !known[id] {
			return nil, "", &UsageError{Msg: fmt.Sprintf("the suite has no scenario %q (was the report made by another version?)", quoteShown(id))}
		}
	}
	if len(selected) == 0 {
		return nil, "", &UsageError{Msg: fmt.Sprintf("no scenario matches the selection (rules %v, tags %q, %d IDs, shard %q, portable %v)", opts.Rules, opts.Tags, len(opts.Only), opts.Shard, opts.Portable)}
	}
	// godog selects by tags only; the scenarios the IDs or the shard leave
	// out are skipped before anything of theirs starts, and not reported.
	return selected, tags, nil
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
	opts  Options
	info  adapter.Info
	byKey map[string]Scenario // the selected scenarios by [Scenario.key]

	mu      sync.Mutex
	done    int
	results map[string]*ScenarioResult
	worlds  map[*world]bool      // worlds not yet closed
	rerun   []*ScenarioResult    // failed in an adapter process that had served others
	fresh   map[string]*freshRun // their runs again, by scenario ID

	ctx        context.Context // the run's
	base       Options         // the run's options, as given
	freshSlots chan struct{}   // bounds the runs again at once

	shimOnce sync.Once // the opener shim, made by openerShim
	shimDir  string
	shim     string
}

// initScenario is godog's scenario initializer: one world per scenario.
func (r *runner) initScenario(sc *godog.ScenarioContext) {
	w := &world{run: r}
	ix := suiteSteps()
	steps := &scenarioSteps{ix: ix, exprs: make([]any, 0, len(ix.defs)), funcs: make([]any, 0, len(ix.defs))}
	w.registerSteps(steps) // given to godog by the Before hook, for the scenario's steps (scenariosteps.go)
	var res *ScenarioResult
	var start time.Time
	var before int

	sc.Before(func(ctx context.Context, pk *godog.Scenario) (context.Context, error) {
		steps.define(sc, pk) // first: godog matches the steps of a skipped scenario too
		start = time.Now()
		key := pickleKey(pk) // a repetition's own
		s, ok := r.byKey[key]
		if !ok {
			return ctx, godog.ErrSkip // outside the IDs or the shard
		}
		if r.opts.OnStart != nil {
			r.opts.OnStart(s)
		}
		res = &ScenarioResult{ID: s.ID, Name: s.Name, Feature: s.Feature, Line: s.Line, Rules: s.Rules, Status: StatusPassed}
		r.mu.Lock()
		r.results[key] = res
		r.worlds[w] = true
		r.mu.Unlock()
		if reason := r.skipReason(s); reason != "" {
			res.Status, res.Error = StatusSkipped, reason
			return ctx, godog.ErrSkip
		}
		if reason := namingFailure(r.info, s); reason != "" {
			res.Status, res.Error = StatusFailed, reason
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
// not claim, a capability it did not declare, or one it declared that the
// scenario's other variant uses instead.
func (r *runner) skipReason(s Scenario) string {
	if len(s.Systems) > 0 && !slices.ContainsFunc(s.Systems, r.info.Claims) {
		return fmt.Sprintf("the implementation does not claim the %v system", s.Systems)
	}
	for _, c := range s.Capabilities {
		if !r.info.Supports(c) {
			return fmt.Sprintf("the adapter does not declare the capability %q", c)
		}
	}
	for _, c := range s.Lacks {
		if r.info.Supports(c) {
			return fmt.Sprintf("the adapter declares the capability %q: the scenario's variant that uses it runs instead", c)
		}
	}
	for _, rule := range s.Rules {
		if u, ok := r.info.Leaves(rule); ok {
			return fmt.Sprintf("the adapter declares %s not implemented", u)
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
	rerun := res != nil && res.Status == StatusFailed && w.adapterReused && !r.opts.fresh
	if rerun {
		r.rerunFresh(res)
	}
	if res != nil && res.failing() && r.opts.EvidenceDir != "" && w.log != nil {
		w.writeEvidence(filepath.Join(r.opts.EvidenceDir, filepath.FromSlash(res.ID)), *res)
	}
	w.release()
	r.mu.Lock()
	delete(r.worlds, w)
	r.mu.Unlock()
	if r.opts.OnResult != nil && res != nil {
		r.mu.Lock()
		r.done++
		shown := *res
		if rerun {
			shown.Rerun = RerunPending
		}
		r.opts.OnResult(shown, r.done, len(r.byKey))
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

// rerunFresh starts running again, in an adapter process of its own, a
// scenario that failed in a process that had served other scenarios
// before it, at once and beside the rest of the run (a scenario that
// fails by timing out would otherwise add its timeout to the run's end):
// whatever an adapter keeps from one scenario to the next (capability
// reuse) must not fail another. [runner.applyReruns] makes that run the
// scenario's verdict.
func (r *runner) rerunFresh(res *ScenarioResult) {
	r.mu.Lock()
	r.rerun = append(r.rerun, res)
	_, started := r.fresh[res.ID]
	if !started {
		r.fresh[res.ID] = &freshRun{done: make(chan struct{})}
	}
	run := r.fresh[res.ID]
	r.mu.Unlock()
	if started {
		return
	}
	o := r.base
	o.Only, o.Rules, o.Tags, o.Shard, o.Portable = []string{res.ID}, nil, "", Shard{}, false
	o.Repeat, o.OnResult, o.OnStart, o.T, o.fresh = 1, nil, nil, nil, true
	go func() {
		defer close(run.done)
		r.freshSlots <- struct{}{} // as many at once as the run's concurrency
		defer func() { <-r.freshSlots }()
		rep, err := Run(r.ctx, o)
		if err == nil && len(rep.Scenarios) == 1 {
			run.res = &rep.Scenarios[0]
		} else if err == nil {
			err = fmt.Errorf("%d scenarios ran", len(rep.Scenarios))
		}
		run.err = err
	}()
}

// RerunPending is the [ScenarioResult.Rerun] of a failure that
// [Options.OnResult] is told of while it runs again in an adapter process
// of its own: the report's verdict is that run's.
const RerunPending = "running again in an adapter process of its own"

// freshRun is the run again of one scenario in a process of its own.
type freshRun struct {
	done chan struct{}
	res  *ScenarioResult // its result, once done
	err  error
}

// applyReruns waits for the runs again of the scenarios that failed in a
// reused adapter process and makes each one's result its verdict, keeping
// how it failed first ([ScenarioResult.Rerun]).
func (r *runner) applyReruns() error {
	r.mu.Lock()
	rerun, fresh := r.rerun, r.fresh
	r.mu.Unlock()
	for _, res := range rerun {
		run := fresh[res.ID]
		<-run.done
		if run.err != nil {
			return fmt.Errorf("running %s again in an adapter process of its own, after it failed in a reused one: %w", quoteShown(res.ID), run.err)
		}
		first := fmt.Sprintf("%s in an adapter process that had served other scenarios: %s", res.Status, res.Error)
		if !run.res.failing() && r.opts.EvidenceDir != "" {
			_ = os.RemoveAll(filepath.Join(r.opts.EvidenceDir, filepath.FromSlash(res.ID)))
		}
		*res = *run.res
		res.Rerun = safetext.Cap(first, safetext.Message)
	}
	return nil
}
