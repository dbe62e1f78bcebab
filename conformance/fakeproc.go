package conformance

import (
	"os"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
)

// Any binary that links this package can serve as the stdio fake MCP
// server: run with [mcpfake.Subcommand] as its first argument, it becomes
// the fake and never returns. This is what lets scenarios hand an
// implementation under test a command it can spawn — the mcpconform binary
// itself, or the test binary under `go test` — without building anything.
func init() {
	if len(os.Args) > 1 && os.Args[1] == mcpfake.Subcommand {
		os.Exit(mcpfake.RunStdio(os.Args[2:]))
	}
}
