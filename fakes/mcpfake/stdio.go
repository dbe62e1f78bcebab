package mcpfake

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"

	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/internal/pollpipe"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Subcommand is the hidden first argument under which a binary that calls
// [RunStdio] acts as a stdio fake. The mcpconform binary and the test
// binaries of the conformance package both do.
const Subcommand = "__mcpconform-fake-stdio"

// stdinClosedLine is what a fake that ignores the end of its stdin writes
// to stderr when stdin closes.
const stdinClosedLine = "mcpfake: stdin closed; running on until a signal ends it"

// StdioArgs returns the arguments, after the binary's path, that run a stdio
// fake with the script at scriptPath, reporting to the record server at
// recordAddr. The fake learns the runner's PID too (the caller's:
// StdioArgs runs in the runner), to die with it.
func StdioArgs(scriptPath, recordAddr string) []string {
	return []string{Subcommand, "--script", scriptPath, "--record", recordAddr, "--runner", strconv.Itoa(os.Getpid())}
}

// RunStdio runs a stdio fake with args (everything after [Subcommand]) and
// returns its exit code. The server answers on stdin/stdout until stdin
// closes; stderr carries the script's stderr output and fatal errors of
// the fake itself.
func RunStdio(args []string) int {
	fs := flag.NewFlagSet(Subcommand, flag.ContinueOnError)
	scriptPath := fs.String("script", "", "the script file")
	recordAddr := fs.String("record", "", "the record server, host:port")
	runner := fs.Int("runner", 0, "the runner's PID: a fake the runner started itself dies with it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	dieWithParentRunner(*runner)
	script, err := ReadScript(*scriptPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpfake:", err)
		return 2
	}
	cwd, _ := os.Getwd()
	pid := os.Getpid()
	instance := fmt.Sprintf("%s/pid-%d", script.Name, pid)
	rec, err := record.Dial(*recordAddr, record.Record{
		Server: script.Name, Instance: instance,
		PID: pid, PPID: os.Getppid(), Argv: os.Args, Env: os.Environ(), Cwd: cwd,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpfake:", err)
		return 2
	}
	defer rec.Close()
	watchRunner(rec, "mcpfake")
	if script.Grandchild {
		if err := spawnGrandchild(*recordAddr, script.Name); err != nil {
			fmt.Fprintln(os.Stderr, "mcpfake:", err)
			return 2
		}
	}
	if err := writeStderr(os.Stderr, script.StderrOnStart, script.stderrText()); err != nil {
		return 2
	}
	base := record.Record{Server: script.Name, Instance: instance}
	wire := newStdioWire(script, rec, base, os.Stdout)
	// Stdin through the runtime's poller: a message that arrives wakes no
	// thread parked in read(2). Kept reachable until the fake returns (its
	// finalizer would close the descriptor).
	stdin := pollpipe.Pollable(os.Stdin)
	defer runtime.KeepAlive(stdin)
	transport := &mcp.IOTransport{
		Reader: wire.reader(stdin),
		Writer: wire.writer(),
		// The fake accepts anything a client sends; the caps under test
		// are the client's.
		MaxLineLength: -1,
	}
	exit := func() { os.Exit(3) }
	latch := func(ctx context.Context, name string) error {
		r := base
		r.Method = name
		return record.Latch(ctx, *recordAddr, r)
	}
	crash := func() {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
	srv := newServer(script, serverEnv{exit: exit, crash: crash, quit: func() { os.Exit(0) }, stderr: os.Stderr, ask: wire.ask, latch: latch})
	wire.fake = srv
	// Run ends when stdin closes (or fails): the client went away, the
	// normal end of a stdio server.
	_ = srv.srv.Run(context.Background(), transport)
	if script.IgnoreStdinClose {
		sigs := endingSignals() // before saying so: a signal may follow at once
		fmt.Fprintln(os.Stderr, stdinClosedLine)
		closed := base
		closed.Kind = record.KindStdinClosed
		_ = rec.Record(closed)
		<-sigs
	}
	return 0
}
