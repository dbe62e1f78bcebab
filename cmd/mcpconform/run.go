package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// cmdRun is `mcpconform run`.
func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	target := fs.String("target", "reference", `the implementation under test: "reference" (built in), "reference+mutate=MUTATION[,...]" (a deliberately broken reference), "cmd:<adapter command line>" or "file:<adapter.json>" (spec/adapter-protocol.md)`)
	rules := fs.String("rules", "", "run only scenarios of these rule IDs, comma separated")
	tags := fs.String("tags", "", `run only scenarios matching this godog tag expression, e.g. "@lite-agent && ~@slow"`)
	format := fs.String("format", "pretty", "report format: pretty, json (writes DIR/report.json) or junit (writes DIR/junit.xml)")
	out := fs.String("out", "mcpconform-report", "directory for json and junit reports")
	concurrency := fs.Int("concurrency", 4, "scenarios run at once")
	seed := fs.Int64("seed", 0, "shuffle scenarios within each feature with this seed (-1: random)")
	repeat := fs.Int("repeat", 1, "run every selected scenario this many times, side by side; a scenario whose verdict differs between repetitions is flaky and fails the run")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: mcpconform run [flags]\n\nflags:\n")
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), exitStatusHelp)
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mcpconform run: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *format != "pretty" && *format != "json" && *format != "junit" {
		fmt.Fprintf(stderr, "mcpconform run: --format %q: use pretty, json or junit\n", *format)
		return exitUsage
	}
	if *concurrency < 1 {
		fmt.Fprintf(stderr, "mcpconform run: --concurrency %d: must be at least 1\n", *concurrency)
		return exitUsage
	}
	if *repeat < 1 {
		fmt.Fprintf(stderr, "mcpconform run: --repeat %d: must be at least 1\n", *repeat)
		return exitUsage
	}
	t, err := parseTarget(*target)
	if err != nil {
		fmt.Fprintf(stderr, "mcpconform run: --target: %v\n", err)
		return exitUsage
	}
	opts := conformance.Options{
		Target: t, Tags: *tags, Concurrency: *concurrency, Seed: *seed, Repeat: *repeat,
		OnResult: progress(stderr),
	}
	if *rules != "" {
		for _, id := range strings.Split(*rules, ",") {
			opts.Rules = append(opts.Rules, strings.TrimSpace(id))
		}
	}
	rep, err := conformance.Run(ctx, opts)
	var ue *conformance.UsageError
	var te *conformance.TargetError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "mcpconform run: %s\n", safetext.Text(ue.Msg, safetext.Message))
		return exitUsage
	case errors.As(err, &te) && rep != nil:
		// A broken adapter: the report says so, and the exit status tells
		// CI it is not a failing implementation.
		fmt.Fprintf(stderr, "mcpconform run: %s\n", rep.Error.Message)
		if err := writeReport(rep, *format, *out, stdout); err != nil {
			fmt.Fprintf(stderr, "mcpconform run: writing the report: %v\n", err)
		}
		return exitTarget
	case err != nil:
		fmt.Fprintf(stderr, "mcpconform run: %s\n", safetext.Text(err.Error(), safetext.Message))
		return exitFailure
	}
	if err := writeReport(rep, *format, *out, stdout); err != nil {
		fmt.Fprintf(stderr, "mcpconform run: writing the report: %v\n", err)
		return exitFailure
	}
	if why := rep.Inconclusive(); why != "" {
		fmt.Fprintf(stderr, "mcpconform run: %s\n", why)
		return exitUsage
	}
	if !rep.OK() {
		return exitFailure
	}
	return exitOK
}

// writeReport writes the report in the chosen format; the text report
// always goes to stdout.
func writeReport(rep *conformance.Report, format, dir string, stdout io.Writer) error {
	if format != "pretty" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		name, write := "report.json", rep.WriteJSON
		if format == "junit" {
			name, write = "junit.xml", rep.WriteJUnit
		}
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if err := write(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		defer fmt.Fprintf(stdout, "report: %s\n", filepath.Join(dir, name))
	}
	return rep.WriteText(stdout)
}

// progress reports finished scenarios: a live counter on a terminal, plain
// lines otherwise.
func progress(w io.Writer) func(conformance.ScenarioResult, int, int) {
	live := isTerminal(w)
	counts := map[conformance.Status]int{}
	return func(r conformance.ScenarioResult, done, total int) {
		counts[r.Status]++
		if !live {
			// A result's fields are sealed (escaped): a name from a
			// feature file outside the suite moves no cursor either.
			fmt.Fprintf(w, "%-9s %s:%d %s\n", strings.ToUpper(string(r.Status)), r.Feature, r.Line, r.Name)
			return
		}
		fmt.Fprintf(w, "\r[%d/%d] %d passed, %d failed, %d skipped ", done, total,
			counts[conformance.StatusPassed], counts[conformance.StatusFailed]+counts[conformance.StatusUndefined]+counts[conformance.StatusPending], counts[conformance.StatusSkipped])
		if done == total {
			fmt.Fprintln(w)
		}
	}
}

// isTerminal reports whether w is a character device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
