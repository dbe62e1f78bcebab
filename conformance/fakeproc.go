package conformance

import (
	"os"
	"syscall"

	"github.com/mcpconform/mcpconform/conformance/internal/quietinit"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
)

// Any binary that links this package can serve as the fakes that
// implementations under test start: run with one of these hidden
// subcommands as its first argument, it becomes that fake and never
// returns. This is what lets scenarios hand an implementation a command it
// can spawn — the mcpconform binary itself, or the test binary under
// `go test` — without building anything.
func init() {
	quietinit.Restore() // godog's initialization is over: PATH as it came
	if len(os.Args) < 2 {
		return
	}
	// syscall.Exit, not os.Exit: under the race detector os.Exit waits a
	// second before exiting, which a fake must not add to the timings of
	// the implementation under test.
	switch os.Args[1] {
	case mcpfake.Subcommand: // a stdio MCP server
		syscall.Exit(mcpfake.RunStdio(os.Args[2:]))
	case mcpfake.SandboxSubcommand: // a sandbox wrapper that records and execs
		syscall.Exit(mcpfake.RunSandbox(os.Args[2:]))
	case mcpfake.GrandchildSubcommand: // a stdio server's child
		syscall.Exit(mcpfake.RunGrandchild(os.Args[2:]))
	}
}
