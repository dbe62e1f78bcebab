// Package servereference serves the reference implementation over the
// adapter protocol on stdin/stdout: `mcpconform adapter serve-reference`,
// and the small cmd/mcpconform-reference binary, which links only this,
// the reference and the protocol (none of the runner, godog or fosite,
// whose initialization is most of what a process of the CLI costs to
// start; a run through the protocol starts one adapter per scenario).
package servereference

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
	"github.com/mcpconform/mcpconform/internal/fault"
	"github.com/mcpconform/mcpconform/internal/pollpipe"
)

// Exit statuses of [Main], those of the CLI.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// Main parses args (--mutate) and serves the reference on stdin/stdout
// until stdin closes, reporting errors on stderr under the command name
// name; it returns the process's exit status.
func Main(ctx context.Context, name string, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	mutate := fs.String("mutate", "", "deliberately break the reference with these faults (RULE/what), comma separated")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	TuneGC()
	OneScenarioAtATime()
	dir, _ := os.Getwd()
	t, err := Target(*mutate)
	if err != nil {
		fmt.Fprintf(stderr, "%s: --mutate: %v\n", name, err)
		return exitUsage
	}
	if err := rpcadapter.Serve(ctx, pollpipe.Pollable(os.Stdin), pollpipe.Pollable(os.Stdout), t, adapter.Env{Dir: dir, Environ: os.Environ()}); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitFailure
	}
	return exitOK
}

// Target is the reference broken by the faults of a comma separated
// list (none when it is empty).
func Target(list string) (refadapter.Target, error) {
	if list == "" {
		return refadapter.Target{}, nil
	}
	set, err := fault.Parse(strings.Split(list, ","))
	if err != nil {
		return refadapter.Target{}, err
	}
	return refadapter.Target{Faults: set.List()}, nil
}

// TuneGC trades memory for CPU in the processes that run scenarios (run,
// and the served reference): they are short-lived and allocate freely,
// and with Go's default (GOGC=100) the collector took a sixth of the
// runner's CPU. The collector runs when the heap has grown by 400%, within
// a soft limit of 1 GiB. GOGC or GOMEMLIMIT in the environment take
// precedence. Only the process itself is tuned: the environment handed
// to implementations and fakes is left as it was.
func TuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(400)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(1 << 30)
	}
}

// OneScenarioAtATime runs the served reference's goroutines on one
// thread at a time (GOMAXPROCS 1) unless GOMAXPROCS is in the
// environment. An adapter process serves one scenario at a time, and a
// run's concurrency comes from its several adapter processes, not from
// threads within one. With a second P, every message the process read
// woke a second thread for the goroutine it started (a request's
// handler, a callback's answer handed to its caller), which mostly found
// nothing to do and slept again: a request with a host/model callback
// (BenchmarkProtocolCall send) cost about a quarter more CPU, runner's
// and adapter's. Only the process itself is tuned: the environment
// handed to the implementation's children is left as it was.
func OneScenarioAtATime() {
	if _, set := os.LookupEnv("GOMAXPROCS"); !set {
		runtime.GOMAXPROCS(1)
	}
}
