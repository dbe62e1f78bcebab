package conformance_test

import (
	"context"
	"fmt"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/internal/fakebin"
	"github.com/mcpconform/mcpconform/internal/procs"
	"io"
	"log"
	"os"
	"syscall"
	"testing"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/internal/corrupt"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
	"github.com/mcpconform/mcpconform/internal/hollow"
)

// The test binary's own modes, besides the stdio fakes (mcpfake.Main):
//
//	<test binary> __serve-reference
//	<test binary> __corrupt <corruption> -- <adapter command...>
//
// serve the reference over the adapter protocol on stdin/stdout, and run
// the corrupting proxy in front of an adapter command (corrupt_test.go).
const (
	serveReferenceMode = "__serve-reference"
	corruptMode        = "__corrupt"
)

// TestMain silences the standard logger: only net/http writes to it here,
// about the fakes' deliberate misbehaviour (a body longer than its
// Content-Length), which the scenarios check themselves.
//
// It also lets the test binary act as the adapter programs the tests run
// through the protocol:
//
//	<test binary> hollow-adapter CLAIMS   the adapter that implements nothing (package hollow)
//	<test binary> __serve-reference       the reference (serveReference)
//	<test binary> __corrupt NAME -- CMD   the corrupting proxy in front of CMD (package corrupt)
func TestMain(m *testing.M) {
	mcpfake.Main()             // the stdio fakes the scenarios hand implementations
	procs.SpareRaceExitSleep() // the adapters this binary starts of itself
	log.SetOutput(io.Discard)
	if len(os.Args) == 3 && os.Args[1] == "hollow-adapter" {
		claims, ok := hollow.ClaimsNamed(os.Args[2])
		if !ok {
			fmt.Fprintf(os.Stderr, "hollow-adapter: unknown claims %q\n", os.Args[2])
			os.Exit(2)
		}
		if err := hollow.Serve(os.Stdin, os.Stdout, claims); err != nil {
			fmt.Fprintln(os.Stderr, "hollow-adapter:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if len(os.Args) > 1 {
		// syscall.Exit, not os.Exit: under the race detector os.Exit
		// waits a second, which would add to every scenario's teardown.
		switch os.Args[1] {
		case serveReferenceMode:
			syscall.Exit(serveReference())
		case corruptMode:
			syscall.Exit(corrupt.Main(os.Args[2:], os.Stderr))
		}
	}
	os.Exit(fakebin.Run(m)) // the scenarios' stdio fakes from the small binary
}

// serveReference serves the reference over the protocol on stdin/stdout,
// as `mcpconform adapter serve-reference` does.
func serveReference() int {
	dir, _ := os.Getwd()
	if err := rpcadapter.Serve(context.Background(), os.Stdin, os.Stdout, refadapter.Target{}, adapter.Env{Dir: dir, Environ: os.Environ()}); err != nil {
		fmt.Fprintln(os.Stderr, "serve-reference:", err)
		return 1
	}
	return 0
}
