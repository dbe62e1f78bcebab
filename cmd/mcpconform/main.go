// Command mcpconform runs the MCP host conformance suite against an
// implementation, and lists and explains the rule catalog.
//
//	mcpconform run [--target T] [--rules ID,...] [--tags EXPR] [--format pretty|json|junit] [--out DIR] [--concurrency N]
//	mcpconform list [--json]
//	mcpconform explain ID
//
// It also serves as the stdio fake MCP server that scenarios hand to the
// implementation under test to spawn (a hidden subcommand, see
// package conformance).
package main

import (
	"context"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"io"
	"log"
	"os"
	"os/signal"
)

func main() {
	// First: restarted with a fake's subcommand, this binary is that fake.
	mcpfake.Main()
	// Only net/http writes to the standard logger here, about a server
	// misbehaving on purpose (a body longer than its Content-Length); the
	// scenarios judge that themselves, and the line would quote the body.
	log.SetOutput(io.Discard)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(runCLI(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
