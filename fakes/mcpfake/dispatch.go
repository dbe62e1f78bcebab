package mcpfake

// Dispatch runs the fake that args (a binary's arguments after its path)
// name with their first element, one of [Subcommand], [SandboxSubcommand]
// and [GrandchildSubcommand], and returns its exit code and true; it
// returns false, running nothing, for any other arguments. Every binary
// that serves as the fakes calls it first: the mcpconform binary and the
// conformance test binaries (package conformance's init), and
// mcpconform-fake, the small binary that does nothing else.
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
	}
	return 0, false
}
