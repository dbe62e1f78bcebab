// Package fakebin lets this module's tests hand their scenarios' stdio
// fakes to implementations as the small binary of the fakes
// (cmd/mcpconform-fake), built once per test process, instead of as the
// test binary itself.
//
// A test binary serves the fakes too (mcpfake.Main in TestMain), but it
// links the runner, godog, fosite and the reference besides, and under
// the race detector it costs about 67 ms of CPU to start, against 7 ms for
// the small binary without it: a whole suite starts about 500 fakes, and
// make test runs the suite many times. The fakes' own code is tested under
// the race detector in their own package; a race found in a fake process
// a scenario started was never reported anyway (the process's stderr goes
// to the implementation).
//
// It is test support, not product: the runner consults [Command] before
// its own default, which answers only in a test binary whose tests [Run]
// runs.
package fakebin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// fakePackage is the package of the small binary of the fakes.
const fakePackage = "github.com/mcpconform/mcpconform/cmd/mcpconform-fake"

// buildWait bounds the build: the first one on a clean machine compiles
// go-sdk and the fakes' other dependencies.
const buildWait = 5 * time.Minute

var (
	enabled atomic.Bool
	dir     atomic.Pointer[string] // the build's directory, once made
	built   = sync.OnceValues(build)
)

// Run runs a test binary's tests (m is its *testing.M) with the small
// binary of the fakes as [Command], built the first time the runner asks
// for it, and removes the build when they are done. TestMain calls it
// after the binary's own modes: os.Exit(fakebin.Run(m)).
func Run(m interface{ Run() int }) int {
	enabled.Store(true)
	code := m.Run()
	if d := dir.Load(); d != nil {
		os.RemoveAll(*d)
	}
	return code
}

// Command returns the small binary of the fakes as a command line, and
// true, in a test binary whose tests [Run] runs; it builds the binary on
// the first call. Elsewhere, or when the build failed (said once on
// stderr), it returns false: the runner then decides on its own.
func Command() ([]string, bool) {
	if !enabled.Load() {
		return nil, false
	}
	cmd, err := built()
	if err != nil {
		return nil, false
	}
	return cmd, true
}

// build builds cmd/mcpconform-fake with the go command into a new
// temporary directory.
func build() ([]string, error) {
	d, err := os.MkdirTemp("", "mcpconform-fakebin-")
	if err != nil {
		return nil, warn(err)
	}
	dir.Store(&d)
	linked, bin := filepath.Join(d, "linked"), filepath.Join(d, "mcpconform-fake")
	ctx, cancel := context.WithTimeout(context.Background(), buildWait)
	defer cancel()
	// Static, and written again with write(2), as make build does (see
	// the Makefile): each start of a dynamically linked binary, or of one
	// as the linker wrote it, costs more CPU.
	build := exec.CommandContext(ctx, "go", "build", "-o", linked, fakePackage)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, warn(fmt.Errorf("go build %s: %v: %s", fakePackage, err, strings.TrimSpace(tail(out))))
	}
	if err := copyFile(bin, linked); err != nil {
		return nil, warn(err)
	}
	return []string{bin}, nil
}

// copyFile writes a copy of the executable src at dst.
func copyFile(dst, src string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(dst, data, 0o755); err != nil {
		return err
	}
	return os.Remove(src)
}

// warn says on stderr that the test binary serves the fakes, and why.
func warn(err error) error {
	err = fmt.Errorf("fakebin: %w (the test binary serves the stdio fakes instead)", err)
	fmt.Fprintln(os.Stderr, err)
	return err
}

// tail is the end of a build's output, at most 2000 bytes.
func tail(out []byte) string {
	const max = 2000
	if len(out) > max {
		out = out[len(out)-max:]
	}
	return string(out)
}
