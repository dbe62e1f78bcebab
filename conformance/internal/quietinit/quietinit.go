// Package quietinit keeps the initialization of the runner's dependencies
// from starting processes.
//
// godog v0.16.0 (its internal/builder package, which package godog
// imports) runs `go env GOTOOLDIR` in a package variable initializer, in
// every binary that links it, for a tool directory only `godog build`
// uses. The runner never builds with godog, but every process it starts
// from its own binary (the stdio fakes, the sandbox wrapper, the
// grandchild, `adapter serve-reference`) paid a whole go command for it:
// about 30 ms of wall time and 7 ms of CPU per start, twice per stdio
// server when lite-agent probes it.
//
// The package initializer here empties PATH, so that the go command is
// not found (a lookup, no process), and [Restore] puts PATH back exactly
// as it was, value and position: package godogready calls it as soon as
// godog is initialized, and package conformance again before it
// dispatches the fakes. Between the two, only packages initialized
// before godog could see the empty PATH, at their initialization. The Go specification initializes packages in import-path
// order among those whose imports are ready; this package imports only
// os, so it is initialized before anything that imports os/exec.
package quietinit

import "os"

// path is the process's PATH, hadPath whether it had one.
var path, hadPath = os.LookupEnv("PATH")

func init() { _ = os.Setenv("PATH", "") }

// Restore puts PATH back as the process received it. Packages godogready
// and conformance call it in their initialization, before the fakes
// dispatch (they record their environment and start commands). It is
// idempotent.
func Restore() {
	if hadPath {
		_ = os.Setenv("PATH", path)
	} else {
		_ = os.Unsetenv("PATH")
	}
}
