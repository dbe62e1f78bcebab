package mcpfake

import (
	"os"
	"syscall"
	"testing"
)

// TestMain lets the test binary act as every fake process, as the
// mcpconform binary does (conformance/fakeproc.go): the tests spawn
// os.Args[0] with a hidden subcommand. The fake processes end with
// syscall.Exit: under -race, os.Exit(0) would first sleep a second
// (GORACE atexit_sleep_ms) and every fake would take that long to end.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case Subcommand:
			syscall.Exit(RunStdio(os.Args[2:]))
		case GrandchildSubcommand:
			syscall.Exit(RunGrandchild(os.Args[2:]))
		case SandboxSubcommand:
			syscall.Exit(RunSandbox(os.Args[2:]))
		}
	}
	os.Exit(m.Run())
}
