// Command mcpconform-reference serves the reference implementation over
// the adapter protocol on stdin/stdout, as `mcpconform adapter
// serve-reference` does, from a binary that links only the reference and
// the protocol: a process of it starts and stops in less than half the CPU
// time of one of the CLI (BenchmarkAdapterStart), and a run through the
// protocol starts one per scenario.
//
//	mcpconform run --target 'cmd:bin/mcpconform-reference [--mutate RULE/what,...]'
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/mcpconform/mcpconform/internal/servereference"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := servereference.Main(ctx, "mcpconform-reference", os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}
