package mcpfake

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/mcpconform/mcpconform/fakes/record"
)

// GrandchildSubcommand is the hidden first argument under which a binary
// that calls [RunGrandchild] acts as the grandchild of a stdio fake
// (Script.Grandchild).
const GrandchildSubcommand = "__mcpconform-fake-grandchild"

// grandchildWait bounds how long a fake waits for its grandchild's start.
const grandchildWait = 10 * time.Second

// spawnGrandchild starts the grandchild of the fake of script name, in the
// fake's process group, and waits until its start is recorded: the
// grandchild signals it by writing a byte to its stdout, a pipe to the
// fake. The grandchild is left running.
func spawnGrandchild(recordAddr, name string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("spawning the grandchild: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	cmd := exec.Command(exe, GrandchildSubcommand, "--record", recordAddr, "--server", name+"/grandchild")
	cmd.Stdout = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		return fmt.Errorf("spawning the grandchild: %w", err)
	}
	// Reap it if it ever ends while the fake still runs.
	go func() { _ = cmd.Wait() }()
	_ = r.SetReadDeadline(time.Now().Add(grandchildWait))
	if _, err := r.Read(make([]byte, 1)); err != nil {
		return fmt.Errorf("the grandchild did not report its start: %w", err)
	}
	return nil
}

// RunGrandchild runs a fake's grandchild with args (everything after
// [GrandchildSubcommand]): it reports its start to the record server (PID,
// PPID, Argv, Env, Cwd; Server as given by --server), tells its parent
// through stdout, and then blocks until a signal ends it. SIGKILL, SIGTERM,
// SIGINT and SIGHUP end it; anything else is ignored. It returns the exit
// code.
func RunGrandchild(args []string) int {
	fs := flag.NewFlagSet(GrandchildSubcommand, flag.ContinueOnError)
	recordAddr := fs.String("record", "", "the record server, host:port")
	server := fs.String("server", "grandchild", "the Server of its records")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	// Catch the ending signals before reporting, so that one sent as soon
	// as the start is recorded is not lost.
	sigs := endingSignals()
	cwd, _ := os.Getwd()
	pid := os.Getpid()
	rec, err := record.Dial(*recordAddr, record.Record{
		Server: *server, Instance: fmt.Sprintf("%s/pid-%d", *server, pid),
		PID: pid, PPID: os.Getppid(), Argv: os.Args, Env: os.Environ(), Cwd: cwd,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpfake grandchild:", err)
		return 2
	}
	defer rec.Close()
	watchRunner(rec, "mcpfake grandchild")
	if _, err := os.Stdout.Write([]byte{'\n'}); err != nil && !errors.Is(err, syscall.EPIPE) {
		fmt.Fprintln(os.Stderr, "mcpfake grandchild:", err)
	}
	<-sigs
	return 0
}

// endingSignals relays SIGTERM, SIGINT and SIGHUP.
func endingSignals() <-chan os.Signal {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	return sigs
}
