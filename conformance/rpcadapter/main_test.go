package rpcadapter_test

import (
	"context"
	"fmt"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/internal/fakebin"
	"github.com/mcpconform/mcpconform/internal/procs"
	"io"
	"log"
	"os"
	"testing"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
	"github.com/mcpconform/mcpconform/internal/fault"
)

// TestMain lets the test binary act as an adapter program:
//
//	<test binary> serve MODE [FAULT]
//
// serves the reference over the protocol on stdin/stdout, well-behaved
// (MODE "reference") or broken in one way (see misbehave and hostile).
// The hostile tests' other helpers run as `<test binary> HELPER ARGS`
// (helpers, in hostile_test.go).
func TestMain(m *testing.M) {
	mcpfake.Main()             // the stdio fakes the scenarios hand implementations
	procs.SpareRaceExitSleep() // the adapters this binary starts of itself
	// Only net/http writes to the standard logger, about the fakes'
	// deliberate misbehaviour.
	log.SetOutput(io.Discard)
	if len(os.Args) > 2 && os.Args[1] == "serve" {
		os.Exit(serve(os.Args[2], os.Args[3:]))
	}
	if len(os.Args) > 1 && helpers[os.Args[1]] != nil {
		os.Exit(helpers[os.Args[1]](os.Args[2:]))
	}
	os.Exit(fakebin.Run(m)) // the scenarios' stdio fakes from the small binary
}

func serve(mode string, rest []string) int {
	var target adapter.Target = refadapter.Target{}
	switch {
	case mode == "mutant" && len(rest) == 1:
		target = refadapter.Target{Faults: []fault.Fault{fault.Fault(rest[0])}}
	case hostileModes[mode] != nil:
		target = hostileModes[mode]
	case mode != "reference":
		target = misbehaving{mode: mode}
	}
	dir, _ := os.Getwd()
	if err := rpcadapter.Serve(context.Background(), os.Stdin, os.Stdout, target, adapter.Env{Dir: dir, Environ: os.Environ()}); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		return 1
	}
	return 0
}

// adapterTarget is the test binary as an adapter in mode.
func adapterTarget(t testing.TB, mode string, extra ...string) *rpcadapter.Target {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &rpcadapter.Target{Command: append([]string{exe, "serve", mode}, extra...)}
}
