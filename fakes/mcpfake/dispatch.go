package mcpfake

import (
	"fmt"
	"os"

	"github.com/mcpconform/mcpconform/fakes"
)

// DigestSubcommand is the hidden first argument under which a binary that
// calls [Dispatch] prints [fakes.Digest], the digest of the fakes it
// runs, and exits.
const DigestSubcommand = "__mcpconform-fake-digest"

// Dispatch runs the fake that args (a binary's arguments after its path)
// name with their first element, one of [Subcommand], [SandboxSubcommand],
// [GrandchildSubcommand] and [DigestSubcommand], and returns its exit code and true; it
// returns false, running nothing, for any other arguments. Every binary
// that serves as the fakes calls it first, through [Main] (the mcpconform
// binary, the test binaries that run the suite) or directly
// (mcpconform-fake, the small binary that does nothing else).
func Dispatch(args []string) (int, bool) {
	if len(args) == 0 {
		return 0, false
	}
	switch args[0] {
	case Subcommand: // a stdio MCP server
		return RunStdio(args[1:]), true
	case SandboxSubcommand: // a sandbox wrapper that records and execs
		return RunSandbox(args[1:]), true
	case GrandchildSubcommand: // a stdio server's child
		return RunGrandchild(args[1:]), true
	case DigestSubcommand: // which fakes this binary runs
		fmt.Fprintln(os.Stdout, fakes.Digest())
		return 0, true
	}
	return 0, false
}
