package conformance

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// Steps about the processes of stdio servers: their environment, their
// command lines, the sandbox, the probe.

// registerProcessSteps defines the steps whose methods are in this file.
func (w *world) registerProcessSteps(sc stepDefiner) {
	sc.Step(`^the agent starts stdio servers through the fake sandbox$`, w.throughSandbox)
	sc.Step(`^the agent option mcpTransports is "([^"]*)"$`, w.mcpTransports)
	sc.Step(`^(every|no) process of "([^"]*)" had "([^"]*)" in its environment$`, w.processEnv)
	sc.Step(`^"([^"]*)" was started (\d+) times with the same command line, directory and environment$`, w.startedSame)
	sc.Step(`^the first process of "([^"]*)" had exited when that returned$`, w.firstExitedBy)
	sc.Step(`^only the last process of "([^"]*)" received "([^"]*)"$`, w.onlyLastReceived)
	sc.Step(`^the sandbox ran the command line of "([^"]*)" (\d+) times$`, w.sandboxRan)
	sc.Step(`^every process of "([^"]*)" was started by the sandbox$`, w.startedBySandbox)
	sc.Step(`^"([^"]*)" appears in no log, event, list\(\) entry, model request or adapter output$`, w.appearsNowhere)
	sc.Step(`^every process of "([^"]*)" has exited$`, w.processesExited)
	sc.Step(`^the stdin of (\d+) process(?:es)? of "([^"]*)" (?:has|have) closed$`, w.stdinsClosed)
}

// throughSandbox: Given the agent starts stdio servers through the fake sandbox
func (w *world) throughSandbox() error {
	w.opts.Sandbox = append(slices.Clone(w.run.opts.FakeCommand), mcpfake.SandboxArgs(w.rec.Addr())...)
	return nil
}

// mcpTransports: Given the agent option mcpTransports is "stdio"
func (w *world) mcpTransports(list string) error {
	w.opts.MCPTransports = splitNames(list)
	return nil
}

// envEntries checks a process's environment for "NAME" or "NAME=value".
func envHas(env []string, want string) bool {
	if strings.Contains(want, "=") {
		return slices.Contains(env, want)
	}
	return slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, want+"=") })
}

// processEnv: Then every process of "p" had "PATH, HOME" in its environment |
// Then no process of "p" had "SECRET" in its environment
func (w *world) processEnv(quantifier, name, entries string) error {
	starts := startsOf(w.log.Records(), name)
	if len(starts) == 0 {
		return w.expect(false, fmt.Sprintf("%q was started", name), "it never was")
	}
	var wrong []string
	for _, s := range starts {
		for _, want := range splitNames(entries) {
			has := envHas(s.Env, want)
			if has == (quantifier == "no") {
				wrong = append(wrong, fmt.Sprintf("pid %d has %s: %v", s.PID, want, has))
			}
		}
	}
	expected := fmt.Sprintf("every process of %q had %s in its environment", name, entries)
	if quantifier == "no" {
		expected = fmt.Sprintf("no process of %q had %s in its environment", name, entries)
	}
	return w.expect(len(wrong) == 0, expected, "%v", wrong)
}

// startedSame: Then "p" was started 2 times with the same command line, directory and environment
func (w *world) startedSame(name string, n int) error {
	starts := startsOf(w.log.Records(), name)
	if err := w.expect(len(starts) == n, fmt.Sprintf("%q was started %d times", name, n), "%d times: %s", len(starts), summarize(starts)); err != nil {
		return err
	}
	first := starts[0]
	for _, s := range starts[1:] {
		sameEnv := slices.Equal(sortedEnv(s.Env), sortedEnv(first.Env))
		if !slices.Equal(s.Argv, first.Argv) || s.Cwd != first.Cwd || !sameEnv {
			return w.expect(false, "the same command line, directory and environment",
				"pid %d: argv %q cwd %q; pid %d: argv %q cwd %q; same environment: %v", first.PID, first.Argv, first.Cwd, s.PID, s.Argv, s.Cwd, sameEnv)
		}
	}
	return w.expect(true, "", "")
}

// sortedEnv is an environment without the variables every process
// differs in, sorted.
func sortedEnv(env []string) []string {
	out := slices.Clone(env)
	slices.Sort(out)
	return out
}

// firstExitedBy: Then the first process of "p" had exited when that returned
func (w *world) firstExitedBy(name string) error {
	if w.last == nil {
		return fmt.Errorf("no action happened yet")
	}
	rs := w.log.Records()[:w.last.mark]
	starts := startsOf(rs, name)
	if len(starts) == 0 {
		return w.expect(false, fmt.Sprintf("%q was started before %s returned", name, w.last.what), "it was not")
	}
	exited := slices.ContainsFunc(rs, func(r record.Record) bool {
		return r.Kind == record.KindExit && r.Instance == starts[0].Instance
	})
	return w.expect(exited, fmt.Sprintf("the first process of %q (pid %d) had exited when %s returned", name, starts[0].PID, w.last.what),
		"it was still running")
}

// onlyLastReceived: Then only the last process of "p" received "tools/call"
func (w *world) onlyLastReceived(name, method string) error {
	rs := w.log.Records()
	starts := startsOf(rs, name)
	if len(starts) == 0 {
		return w.expect(false, fmt.Sprintf("%q was started", name), "it never was")
	}
	last := starts[len(starts)-1].Instance
	got := requestsOf(rs, name, method)
	var elsewhere []record.Record
	for _, r := range got {
		if r.Instance != last {
			elsewhere = append(elsewhere, r)
		}
	}
	return w.expect(len(got) > 0 && len(elsewhere) == 0, fmt.Sprintf("only the last process of %q received %s", name, method),
		"%d received in all; elsewhere: %s", len(got), summarize(elsewhere))
}

// sandboxRan: Then the sandbox ran the command line of "p" 2 times
func (w *world) sandboxRan(name string, n int) error {
	f, err := w.fake(name)
	if err != nil {
		return err
	}
	want := append([]string{w.run.opts.FakeCommand[0]}, w.stdioArgs(f)...)
	var runs, other []record.Record
	for _, r := range w.log.Records() {
		if r.Kind != record.KindSandbox {
			continue
		}
		if slices.Equal(r.Argv, want) {
			runs = append(runs, r)
		} else {
			other = append(other, r)
		}
	}
	return w.expect(len(runs) == n, fmt.Sprintf("the sandbox ran %q %d times", strings.Join(want, " "), n),
		"%d times; other command lines: %v", len(runs), argvs(other))
}

func argvs(rs []record.Record) [][]string {
	var out [][]string
	for _, r := range rs {
		out = append(out, r.Argv)
	}
	return out
}

// startedBySandbox: Then every process of "p" was started by the sandbox
// — the sandbox execs the server, so each server process has a sandbox
// run with the same pid before it.
func (w *world) startedBySandbox(name string) error {
	rs := w.log.Records()
	sandboxed := map[int]bool{}
	for _, r := range rs {
		if r.Kind == record.KindSandbox {
			sandboxed[r.PID] = true
		}
	}
	starts := startsOf(rs, name)
	var not []int
	for _, s := range starts {
		if !sandboxed[s.PID] {
			not = append(not, s.PID)
		}
	}
	return w.expect(len(starts) > 0 && len(not) == 0, fmt.Sprintf("every process of %q ran inside the sandbox", name), "%d started; not through the sandbox: %v", len(starts), not)
}

// appearsNowhere: Then "X" appears in no log, event, list() entry, model request or adapter output
func (w *world) appearsNowhere(ctx context.Context, canary string) error {
	surfaces, err := w.surfacesNow(ctx)
	if err != nil {
		return err
	}
	hits := sweep(surfaces, []secret{{value: canary, what: fmt.Sprintf("%q", canary)}})
	var where []string
	for _, f := range hits {
		where = append(where, f.actual)
	}
	return w.expect(len(hits) == 0, fmt.Sprintf("%q appears nowhere", canary), "%s", strings.Join(where, "; "))
}

// processesExited: Then every process of "p" has exited — waits up to the
// step timeout for the exit records.
func (w *world) processesExited(ctx context.Context, name string) error {
	sctx, cancel := context.WithTimeout(ctx, w.budget(5*time.Second))
	defer cancel()
	rs, err := w.log.Wait(sctx, func(rs []record.Record) bool { return len(liveProcesses(rs, name)) == 0 })
	return w.expect(err == nil, fmt.Sprintf("every process of %q has exited within 5 s", name),
		"pids %v are still running", liveProcesses(rs, name))
}

// stdinsClosed: When the stdin of 2 processes of "p" have closed — waits
// for them: the host began to shut them down (a server that keeps running
// when its stdin closes records it).
func (w *world) stdinsClosed(ctx context.Context, n int, name string) error {
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	count := func(rs []record.Record) int {
		c := 0
		for _, r := range rs {
			if r.Kind == record.KindStdinClosed && r.Server == name {
				c++
			}
		}
		return c
	}
	rs, err := w.log.Wait(sctx, func(rs []record.Record) bool { return count(rs) >= n })
	if err != nil {
		return fmt.Errorf("the stdin of %d processes of %q closed, not %d: %w", count(rs), name, n, err)
	}
	return nil
}
