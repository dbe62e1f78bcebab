package main

import (
	"context"
	"fmt"
	"io"

	"github.com/mcpconform/mcpconform/conformance"
)

// Exit codes (README, "Exit status"; `mcpconform run -h`).
const (
	exitOK      = 0 // every selected scenario passed or was skipped, and one passed
	exitFailure = 1 // a scenario failed, was undefined, pending or flaky
	exitUsage   = 2 // bad flags, unknown rule, empty selection, a target that claims no system, a run where every scenario was skipped
	exitTarget  = 3 // the target could not be started or failed its handshake: a broken adapter, no scenario ran
)

// exitStatusHelp is the exit-status table of `mcpconform run -h`.
const exitStatusHelp = `
exit status:
  0  every selected scenario passed (or was skipped for a system or capability the adapter does not declare)
  1  a scenario failed, was undefined, pending, or flaky (--repeat)
  2  usage: bad flags, an unknown rule, an empty selection, a target that claims no system, every scenario skipped
  3  the target could not be started or failed its handshake (a broken adapter, not a failing implementation);
     the report (--format json/junit too) says why, with the adapter's stderr tail
`

const usage = `usage: mcpconform <command> [flags]

commands:
  run       run the conformance suite against an implementation
  list      list the rules of the catalog
  explain   explain one rule: its statement, seed sentence, scenarios with
            the definition of each step, and the reference code that enforces it
  adapter   serve the reference over the adapter protocol, or check an adapter
  baseline  write a baseline of a report's failures
  report    merge shard reports, or draw an HTML matrix of several runs
  version   print the version

Run "mcpconform <command> -h" for the flags of a command.
`

// runCLI dispatches a command line and returns the exit code.
func runCLI(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return cmdRun(ctx, args[1:], stdout, stderr)
	case "list":
		return cmdList(args[1:], stdout, stderr)
	case "explain":
		return cmdExplain(args[1:], stdout, stderr)
	case "adapter":
		return cmdAdapter(ctx, args[1:], stdout, stderr)
	case "baseline":
		return cmdBaseline(args[1:], stdout, stderr)
	case "report":
		return cmdReport(args[1:], stdout, stderr)
	case "version":
		fmt.Fprintf(stdout, "mcpconform %s\n", conformance.Version)
		return exitOK
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "mcpconform: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}
