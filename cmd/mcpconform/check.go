package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// cmdCheck is `mcpconform adapter check`.
func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	target := fs.String("target", "", `the adapter: "cmd:<command line>" or "file:<adapter.json>"`)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	t, err := parseTarget(*target)
	if err != nil {
		fmt.Fprintf(stderr, "mcpconform adapter check: --target: %v\n", err)
		return exitUsage
	}
	rt, ok := t.(*rpcadapter.Target)
	if !ok {
		fmt.Fprintln(stderr, "mcpconform adapter check: --target must be an adapter program (cmd: or file:)")
		return exitUsage
	}
	results := rpcadapter.Check(ctx, rt)
	bad := 0
	for _, r := range results {
		// The detail quotes the adapter: capped and escaped.
		fmt.Fprintf(stdout, "%-7s %-26s %s\n", r.Verdict, r.Check, safetext.Text(r.Detail, safetext.Message))
		if r.Verdict == rpcadapter.CheckFailed {
			bad++
		}
	}
	if bad > 0 {
		fmt.Fprintf(stdout, "\n%d of %d checks failed\n", bad, len(results))
		return exitFailure
	}
	fmt.Fprintf(stdout, "\nall %d checks passed\n", len(results))
	return exitOK
}
