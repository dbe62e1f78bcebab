package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
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
// behind the protocol, so that the suite can run through a process boundary.
func cmdServeReference(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve-reference", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mutate := fs.String("mutate", "", "deliberately break the reference with these faults (RULE/what), comma separated")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	tuneGC()
	dir, _ := os.Getwd()
	t, err := referenceTarget(*mutate)
	if err != nil {
		fmt.Fprintf(stderr, "mcpconform adapter serve-reference: --mutate: %v\n", err)
		return exitUsage
	}
	if err := rpcadapter.Serve(ctx, os.Stdin, os.Stdout, t, adapter.Env{Dir: dir, Environ: os.Environ()}); err != nil {
		fmt.Fprintf(stderr, "mcpconform adapter serve-reference: %v\n", err)
		return exitFailure
	}
	return exitOK
}
