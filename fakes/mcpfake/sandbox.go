package mcpfake

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/mcpconform/mcpconform/fakes/record"
)

// SandboxSubcommand is the hidden first argument under which a binary that
// calls [RunSandbox] acts as a fake sandbox wrapper.
const SandboxSubcommand = "__mcpconform-fake-sandbox"

// SandboxArgs returns the arguments, after the binary's path, of a fake
// sandbox wrapper reporting to the record server at recordAddr; the
// wrapped command and its arguments follow them.
func SandboxArgs(recordAddr string) []string {
	return []string{SandboxSubcommand, "--record", recordAddr, "--"}
}

// RunSandbox runs the fake sandbox wrapper with args (everything after
// [SandboxSubcommand]): --record ADDR -- CMD ARGS... It reports a
// [record.KindSandbox] record (Argv: CMD ARGS..., Env, Cwd, PID, PPID;
// Server: the script's name when CMD runs a stdio fake, from its --script)
// and then execs CMD with ARGS and the same environment, looking CMD up in
// PATH when it has no slash. It returns only on failure: 2 for bad usage
// or an unreachable record server, 127 when CMD is not found, 126 when it
// cannot be executed.
func RunSandbox(args []string) int {
	fs := flag.NewFlagSet(SandboxSubcommand, flag.ContinueOnError)
	recordAddr := fs.String("record", "", "the record server, host:port")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	argv := fs.Args()
	if len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "mcpfake sandbox: no command to wrap; usage: --record ADDR -- CMD ARGS...")
		return 2
	}
	cwd, _ := os.Getwd()
	pid := os.Getpid()
	r := record.Record{
		Kind: record.KindSandbox, Server: wrappedServer(argv), Instance: fmt.Sprintf("sandbox/pid-%d", pid),
		PID: pid, PPID: os.Getppid(), Argv: argv, Env: os.Environ(), Cwd: cwd,
	}
	if err := record.Report(*recordAddr, r); err != nil {
		fmt.Fprintln(os.Stderr, "mcpfake sandbox:", err)
		return 2
	}
	path := argv[0]
	if !strings.Contains(path, "/") {
		found, err := exec.LookPath(path)
		if err != nil && !errors.Is(err, exec.ErrDot) {
			fmt.Fprintln(os.Stderr, "mcpfake sandbox:", err)
			return 127
		}
		path = found
	}
	err := syscall.Exec(path, argv, os.Environ())
	fmt.Fprintln(os.Stderr, "mcpfake sandbox:", err)
	if errors.Is(err, syscall.ENOENT) {
		return 127
	}
	return 126
}

// wrappedServer is the name of the script of a wrapped stdio fake, or "".
func wrappedServer(argv []string) string {
	for i, a := range argv {
		path, ok := strings.CutPrefix(a, "--script=")
		if !ok && a == "--script" && i+1 < len(argv) {
			path, ok = argv[i+1], true
		}
		if ok {
			if s, err := ReadScript(path); err == nil {
				return s.Name
			}
		}
	}
	return ""
}
