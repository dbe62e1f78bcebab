package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/mcpconform/mcpconform/conformance"
)

const baselineUsage = `usage: mcpconform baseline write REPORT.json > baseline.yaml

Writes a baseline that expects every failure of the report, one entry per
scenario, to be given real reasons and committed; run with --baseline FILE.
`

// cmdBaseline is `mcpconform baseline`.
func cmdBaseline(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 || args[0] != "write" {
		fmt.Fprint(stderr, baselineUsage)
		return exitUsage
	}
	rep, err := conformance.ReadReport(args[1])
	if err != nil {
		fmt.Fprintf(stderr, "mcpconform baseline write: %v\n", err)
		return exitUsage
	}
	if err := conformance.WriteBaseline(stdout, rep); err != nil {
		fmt.Fprintf(stderr, "mcpconform baseline write: %v\n", err)
		return exitFailure
	}
	return exitOK
}

const reportUsage = `usage:
  mcpconform report merge [--baseline FILE] [--strict] [-o merged.json] SHARD.json...
      join the reports of the shards of one run into the report of the whole run;
      the exit status is the whole run's (0 pass, 1 fail, 2 no verdict)
  mcpconform report html [-o matrix.html] REPORT.json...
      draw a static HTML matrix of several runs: rules as rows, implementations as columns
  mcpconform report table [-o table.md] REPORT.json...
      a Markdown table of several runs: portable rules passed, failed and not applicable,
      and the three most serious failures
`

// cmdReport is `mcpconform report`.
func cmdReport(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, reportUsage)
		return exitUsage
	}
	fs := flag.NewFlagSet("report "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the file to write (default: stdout)")
	baseline := fs.String("baseline", "", "merge: the baseline the shards ran with")
	strict := fs.Bool("strict", false, "merge: SHOULD-level failures fail the merged run")
	if err := fs.Parse(args[1:]); err != nil {
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprint(stderr, reportUsage)
		return exitUsage
	}
	var reps []*conformance.Report
	for _, p := range fs.Args() {
		r, err := conformance.ReadReport(p)
		if err != nil {
			fmt.Fprintf(stderr, "mcpconform report %s: %v\n", args[0], err)
			return exitUsage
		}
		reps = append(reps, r)
	}
	var write func(io.Writer) error
	code := exitOK
	switch args[0] {
	case "merge":
		var b *conformance.Baseline
		if *baseline != "" {
			var err error
			if b, err = conformance.LoadBaseline(*baseline); err != nil {
				fmt.Fprintf(stderr, "mcpconform report merge: --baseline: %v\n", err)
				return exitUsage
			}
		}
		merged, err := conformance.MergeReports(reps, b, *strict)
		if err != nil {
			fmt.Fprintf(stderr, "mcpconform report merge: %v\n", err)
			return exitUsage
		}
		write = merged.WriteJSON
		switch {
		case merged.Inconclusive() != "":
			code = exitUsage
		case !merged.OK():
			code = exitFailure
		}
	case "html":
		var cols []conformance.Column
		for i, r := range reps {
			dir := filepath.Dir(fs.Arg(i))
			if *out != "" {
				if rel, err := filepath.Rel(filepath.Dir(*out), dir); err == nil {
					dir = rel
				}
			}
			cols = append(cols, conformance.Column{Report: r, Evidence: filepath.ToSlash(filepath.Join(dir, "evidence"))})
		}
		write = func(w io.Writer) error { return conformance.WriteHTML(w, cols) }
	case "table":
		write = func(w io.Writer) error { return conformance.WritePortableTable(w, reps) }
	default:
		fmt.Fprintf(stderr, "mcpconform report: unknown command %q\n\n%s", args[0], reportUsage)
		return exitUsage
	}
	if *out == "" {
		if err := write(stdout); err != nil {
			fmt.Fprintf(stderr, "mcpconform report %s: %v\n", args[0], err)
			return exitFailure
		}
		return code
	}
	if err := writeFile(*out, write); err != nil {
		fmt.Fprintf(stderr, "mcpconform report %s: %v\n", args[0], err)
		return exitFailure
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return code
}
