package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
	"github.com/mcpconform/mcpconform/internal/safetext"
	"github.com/mcpconform/mcpconform/internal/servereference"
)

// cmdRun is `mcpconform run`.
func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	target := fs.String("target", "reference", `the implementation under test: "reference" (built in), "reference+mutate=MUTATION[,...]" (a deliberately broken reference), "cmd:<adapter command line>" or "file:<adapter.json>" (spec/adapter-protocol.md); relative paths are the caller's`)
	rules := fs.String("rules", "", "run only scenarios of these rule IDs, comma separated")
	tags := fs.String("tags", "", `run only scenarios matching this godog tag expression, e.g. "@lite-agent && ~@slow"`)
	format := fs.String("format", "pretty", "report formats, comma separated: pretty (always, on stdout), json (DIR/report.json), junit (DIR/junit.xml), html (DIR/report.html)")
	out := fs.String("out", "mcpconform-report", "directory for the json, junit and html reports and, with any of them, the evidence of every failed scenario (DIR/evidence/<scenario-id>/)")
	concurrency := fs.Int("concurrency", 4, "scenarios run at once")
	seed := fs.Int64("seed", 0, "shuffle scenarios within each feature with this seed (-1: random)")
	baseline := fs.String("baseline", "", "a baseline file (YAML) of the failures the target is known to have")
	strict := fs.Bool("strict", false, "fail the run on SHOULD-level failures too (otherwise warnings)")
	shard := fs.String("shard", "", "run only part i of n of the selection, e.g. 2/3 (stable across machines; join with `mcpconform report merge`)")
	rerun := fs.String("rerun-failed", "", "run only the scenarios that failed, were undefined or pending in this report.json")
	multiplier := fs.Float64("timeout-multiplier", 1, "scale every step deadline and real-time budget, for slow machines and adapters")
	portable := fs.Bool("portable", false, "run only the scenarios of portable rules (what any MCP host must do; mcpconform list --portable), not a product's own surface")
	fresh := fs.Bool("fresh-adapters", false, "start an adapter process for every scenario, even when the adapter declares the capability reuse (one process serving scenarios in turn; spec/adapter-protocol.md §1)")
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
	servereference.TuneGC()
	formats, err := parseFormats(*format)
	if err != nil {
		fmt.Fprintf(stderr, "mcpconform run: --format %v\n", err)
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
	if rt, ok := t.(*rpcadapter.Target); ok {
		rt.Reuse = !*fresh
	}
	live := newProgress(stderr)
	opts := conformance.Options{
		Target: t, Tags: *tags, Concurrency: *concurrency, Seed: *seed, Repeat: *repeat,
		OnStart: live.start, OnResult: live.done, Strict: *strict, TimeoutMultiplier: *multiplier, Portable: *portable,
	}
	if len(formats) > 1 {
		opts.EvidenceDir = filepath.Join(*out, "evidence")
	}
	if *rules != "" {
		for _, id := range strings.Split(*rules, ",") {
			opts.Rules = append(opts.Rules, strings.TrimSpace(id))
		}
	}
	if *shard != "" {
		if opts.Shard, err = conformance.ParseShard(*shard); err != nil {
			fmt.Fprintf(stderr, "mcpconform run: --shard: %v\n", err)
			return exitUsage
		}
	}
	if *baseline != "" {
		if opts.Baseline, err = conformance.LoadBaseline(*baseline); err != nil {
			fmt.Fprintf(stderr, "mcpconform run: --baseline: %v\n", err)
			return exitUsage
		}
	}
	if *rerun != "" {
		prev, err := conformance.ReadReport(*rerun)
		if err != nil {
			fmt.Fprintf(stderr, "mcpconform run: --rerun-failed: %v\n", err)
			return exitUsage
		}
		for _, s := range prev.Scenarios {
			if s.Status == conformance.StatusFailed || s.Status == conformance.StatusUndefined || s.Status == conformance.StatusPending {
				opts.Only = append(opts.Only, s.ID)
			}
		}
		if len(opts.Only) == 0 {
			fmt.Fprintf(stdout, "nothing failed in %s: nothing to run again\n", *rerun)
			return exitOK
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
		if err := writeReports(rep, formats, *out, stdout); err != nil {
			fmt.Fprintf(stderr, "mcpconform run: writing the report: %v\n", err)
		}
		return exitTarget
	case err != nil:
		fmt.Fprintf(stderr, "mcpconform run: %s\n", safetext.Text(err.Error(), safetext.Message))
		return exitFailure
	}
	if err := writeReports(rep, formats, *out, stdout); err != nil {
		fmt.Fprintf(stderr, "mcpconform run: writing the report: %v\n", err)
		return exitFailure
	}
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		if err := appendSummary(path, rep); err != nil {
			fmt.Fprintf(stderr, "mcpconform run: writing the GitHub step summary: %v\n", err)
		}
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

// parseFormats reads --format: pretty is always written.
func parseFormats(s string) ([]string, error) {
	out := []string{"pretty"}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		switch f {
		case "pretty", "":
		case "json", "junit", "html":
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		default:
			return nil, fmt.Errorf("%q: use pretty, json, junit or html, comma separated", f)
		}
	}
	return out, nil
}

// writeReports writes the report in each format; the text report always
// goes to stdout.
func writeReports(rep *conformance.Report, formats []string, dir string, stdout io.Writer) error {
	var written []string
	for _, format := range formats {
		var name string
		var write func(io.Writer) error
		switch format {
		case "json":
			name, write = "report.json", rep.WriteJSON
		case "junit":
			name, write = "junit.xml", rep.WriteJUnit
		case "html":
			name, write = "report.html", func(w io.Writer) error {
				return conformance.WriteHTML(w, []conformance.Column{{Report: rep, Evidence: "evidence"}})
			}
		default:
			continue
		}
		path := filepath.Join(dir, name)
		if err := writeFile(path, write); err != nil {
			return err
		}
		written = append(written, path)
	}
	if err := rep.WriteText(stdout); err != nil {
		return err
	}
	for _, p := range written {
		fmt.Fprintf(stdout, "report: %s\n", p)
	}
	return nil
}

// writeFile writes a file through write, making its directory.
func writeFile(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// appendSummary appends the run's Markdown summary to a GitHub step summary.
func appendSummary(path string, rep *conformance.Report) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if err := rep.WriteMarkdown(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// liveProgress reports a run as it goes: on a terminal one line kept up to
// date (done/total, failures so far, the longest-running scenario), plain
// lines otherwise.
type liveProgress struct {
	w       io.Writer
	live    bool
	mu      sync.Mutex
	running map[string]time.Time // scenario name → start
	counts  map[conformance.Status]int
}

func newProgress(w io.Writer) *liveProgress {
	return &liveProgress{w: w, live: isTerminal(w), running: map[string]time.Time{}, counts: map[conformance.Status]int{}}
}

// start notes a scenario that began.
func (p *liveProgress) start(s conformance.Scenario) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running[s.ID] = time.Now()
}

// done reports a finished scenario.
func (p *liveProgress) done(r conformance.ScenarioResult, done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, r.ID)
	p.counts[r.Status]++
	if !p.live {
		again := ""
		if r.Rerun == conformance.RerunPending {
			again = " (in a reused adapter process: " + conformance.RerunPending + ")"
		}
		fmt.Fprintf(p.w, "%-9s %s %s%s\n", strings.ToUpper(string(r.Status)), conformance.Printable(r.ID), conformance.Printable(r.Name), again)
		return
	}
	slowest, since := "", time.Time{}
	for id, t := range p.running {
		if since.IsZero() || t.Before(since) {
			slowest, since = id, t
		}
	}
	line := fmt.Sprintf("[%d/%d] %d passed, %d failed, %d skipped", done, total, p.counts[conformance.StatusPassed],
		p.counts[conformance.StatusFailed]+p.counts[conformance.StatusUndefined]+p.counts[conformance.StatusPending], p.counts[conformance.StatusSkipped])
	if slowest != "" {
		line += fmt.Sprintf("; running longest: %s (%v)", conformance.Printable(slowest), time.Since(since).Round(time.Second))
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", truncateLine(line, 160))
	if done == total {
		fmt.Fprintln(p.w)
	}
}

// truncateLine keeps a progress line on one terminal line.
func truncateLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
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
