// Command mcpconform runs the MCP host conformance suite against an
// implementation, lists and explains the rule catalog, and doubles as the
// stdio fake MCP server that scenarios ask implementations to spawn.
package main

import (
	"os"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == mcpfake.Subcommand {
		os.Exit(mcpfake.RunStdio(os.Args[2:]))
	}
	os.Exit(runCLI(os.Args[1:], os.Stdout, os.Stderr))
}
