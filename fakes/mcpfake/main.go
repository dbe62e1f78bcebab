package mcpfake

import (
	"os"
	"sync/atomic"
	"syscall"
)

// mainCalled records that [Main] ran in this process.
var mainCalled atomic.Bool

// Main makes the running binary serve the fakes. When the process's
// arguments name a fake ([Dispatch]), it runs that fake and exits with its
// code, never returning; otherwise it returns at once. Call it first in
// main, or in TestMain of a test binary that runs the suite, before
// anything else reads the arguments or starts work.
//
// A scenario hands the implementation under test a command to spawn for
// each stdio server. Package conformance uses the mcpconform-fake binary
// beside the running executable when it comes from the same build, and
// otherwise the running executable itself, restarted with a fake's
// subcommand: that only works in a binary that calls Main, which
// [Served] tells it. Nothing takes over a binary that does not ask for it.
//
// The fake exits through syscall.Exit: under the race detector os.Exit
// sleeps a second first, which would add to the timings of the
// implementation under test.
func Main() {
	mainCalled.Store(true)
	if code, ok := Dispatch(os.Args[1:]); ok {
		syscall.Exit(code)
	}
}

// Served reports whether [Main] ran in this process, that is whether the
// running executable, restarted with a fake's subcommand, becomes that
// fake.
func Served() bool { return mainCalled.Load() }
