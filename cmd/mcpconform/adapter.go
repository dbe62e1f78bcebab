package main

import (
	"context"
	"fmt"
	"io"

	"github.com/mcpconform/mcpconform/internal/servereference"
)

const adapterUsage = `usage: mcpconform adapter <command> [flags]

commands:
  serve-reference   serve the reference implementation over the adapter protocol on stdin/stdout
  check             send every message type once to an adapter and report what it gets wrong
`

// cmdAdapter is `mcpconform adapter`.
func cmdAdapter(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, adapterUsage)
		return exitUsage
	}
	switch args[0] {
	case "serve-reference":
		return cmdServeReference(ctx, args[1:], stderr)
	case "check":
		return cmdCheck(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "mcpconform adapter: unknown command %q\n\n%s", args[0], adapterUsage)
	return exitUsage
}

// cmdServeReference is `mcpconform adapter serve-reference`: the reference
// behind the protocol, so that the suite can run through a process boundary
// (cmd/mcpconform-reference is the same in a binary that starts faster).
func cmdServeReference(ctx context.Context, args []string, stderr io.Writer) int {
	return servereference.Main(ctx, "mcpconform adapter serve-reference", args, stderr)
}
