package conformance

import (
	"fmt"
	"io/fs"
	"slices"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/features"
	"github.com/mcpconform/mcpconform/spec"
)

// Options configure [Run].
type Options struct {
	// Target is the implementation under test. Required.
	Target adapter.Target
	// Rules selects the scenarios that check at least one of these rule
	// IDs. Empty selects every scenario. An unknown ID is an error.
	Rules []string
	// Tags further selects scenarios with a godog tag expression, e.g.
	// "@lite-agent && ~@slow".
	Tags string
	// Concurrency is how many scenarios run at once; 0 means 4.
	Concurrency int
	// Seed shuffles the order of scenarios within each feature; 0 keeps
	// file order, -1 picks a random seed.
	Seed int64
	// OnResult, if set, is called as each scenario finishes, with the
	// number finished so far and the number selected. Calls are serialized.
	OnResult func(res ScenarioResult, done, total int)
	// OnStart, if set, is called as each scenario starts (concurrently).
	OnStart func(s Scenario)
	// EvidenceDir, if set, receives the evidence of every failed scenario:
	// EvidenceDir/<scenario-id>/ with the whole wire log, the fakes'
	// records, the HTTP exchanges and what the adapter said (capped).
	EvidenceDir string
	// StepTimeout bounds every step; 0 means 20 s. Scenarios never wait
	// longer than this for an event.
	StepTimeout time.Duration
	// FakeCommand is the command line that runs a stdio fake, before the
	// fake's own arguments. Empty means the mcpconform-fake binary beside
	// the running executable when it comes from the same build
	// (fakebinary.go), and otherwise the running executable itself, which
	// must then call [mcpfake.Main] first in main or TestMain: [Run]
	// refuses to start, saying so, when it does not.
	FakeCommand []string
	// T, if set, runs every scenario as a subtest of T.
	T *testing.T
	// ToolVersion is the harness version written in the report.
	ToolVersion string
	// Features replaces the embedded suite with another tree of feature
	// files, run with the same steps (for extra suites and self-tests).
	Features fs.FS
	// Repeat runs every selected scenario this many times, side by side;
	// a scenario whose verdict is not the same every time is
	// [StatusFlaky], which fails the run. 0 means 1.
	Repeat int
	// TimeoutMultiplier scales every step deadline and every real-time
	// budget a scenario allows ("that took less than 2 seconds"), for slow
	// machines and slow adapters; 0 means 1. Windows in which something
	// must not happen are not scaled.
	TimeoutMultiplier float64
	// Shard runs only one part of the selection ([Shard]); the zero value
	// runs all of it.
	Shard Shard
	// Only, when set, keeps only the scenarios with these IDs (a rerun of
	// the failures of an earlier report). An ID the suite does not have is
	// an error.
	Only []string
	// Baseline marks the failures expected of the target ([Baseline]);
	// nil expects none.
	Baseline *Baseline
	// Strict fails the run on SHOULD-level failures too, which are
	// otherwise warnings.
	Strict bool
	// Portable keeps only the scenarios every rule of which is
	// [spec.Rule.Portable]: what any MCP host must do, without a product's
	// own surface.
	Portable bool

	// fresh gives every scenario an adapter that served no other: the run
	// again of the scenarios that failed in a reused one.
	fresh bool
}

// featureTree returns the feature files to run and their directories.
func (o Options) featureTree() (fs.FS, []string) {
	if o.Features != nil {
		return o.Features, []string{"."}
	}
	return features.FS, features.Dirs
}

// withDefaults fills in defaults and validates the options.
func (o Options) withDefaults() (Options, error) {
	if o.Target == nil {
		return o, fmt.Errorf("conformance: no target")
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.Repeat <= 0 {
		o.Repeat = 1
	}
	if o.TimeoutMultiplier < 0 || o.TimeoutMultiplier > 100 {
		return o, &UsageError{Msg: fmt.Sprintf("the timeout multiplier %v is out of range (more than 0, at most 100)", o.TimeoutMultiplier)}
	}
	if o.TimeoutMultiplier == 0 {
		o.TimeoutMultiplier = 1
	}
	if o.StepTimeout <= 0 {
		o.StepTimeout = 20 * time.Second
	}
	o.StepTimeout = time.Duration(float64(o.StepTimeout) * o.TimeoutMultiplier)
	if err := o.Shard.check(); err != nil {
		return o, err
	}
	if len(o.FakeCommand) == 0 {
		cmd, err := defaultFakeCommand()
		if err != nil {
			return o, err
		}
		o.FakeCommand = slices.Clone(cmd)
	}
	if o.ToolVersion == "" {
		o.ToolVersion = Version
	}
	for _, id := range o.Rules {
		if _, ok := spec.Lookup(id); !ok {
			return o, &UsageError{Msg: fmt.Sprintf("unknown rule ID %q (see mcpconform list)", id)}
		}
	}
	return o, nil
}

// Version is the version of the conformance harness.
const Version = "0.1.0"

// UsageError reports options that cannot be run: an unknown rule, a bad
// tag expression, or a selection without scenarios.
type UsageError struct{ Msg string }

// Error implements the error interface.
func (e *UsageError) Error() string { return "conformance: " + e.Msg }
