package rpcadapter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/internal/procs"
)

// The runner against the hostile adapters (hostile_test.go): it must
// neither show what they send raw, nor hold more than it bounds, nor
// wait on or leave behind what they leave running.

// quickRules select a handful of scenarios that send, register and list.
var quickRules = []string{"LA-CFG-13", "LA-NAME-04"}

// runHostile runs the quick rules against target.
func runHostile(t *testing.T, target *rpcadapter.Target) *conformance.Report {
	t.Helper()
	return runHostileSlowly(t, target, 1)
}

// runHostileSlowly is [runHostile] with every deadline multiplied.
func runHostileSlowly(t *testing.T, target *rpcadapter.Target, multiplier float64) *conformance.Report {
	t.Helper()
	return runHostileRules(t, target, multiplier, quickRules)
}

// runHostileRules runs the scenarios of rules against target, with every
// deadline multiplied, and requires that some ran.
func runHostileRules(t *testing.T, target *rpcadapter.Target, multiplier float64, rules []string) *conformance.Report {
	t.Helper()
	rep, err := conformance.Run(context.Background(), conformance.Options{Target: target, Rules: rules, StepTimeout: 10 * time.Second, TimeoutMultiplier: multiplier})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Scenarios) == 0 {
		t.Fatalf("no scenario of %v ran", rules)
	}
	return rep
}

// floodRules select the one scenario each flood runs against: every
// scenario creates an agent, where the floods start, and one flood of
// 10,001 notifications costs seconds under -race.
var floodRules = []string{"LA-CFG-13"}

// unsafeBytes describes the bytes of b that a terminal or a viewer would
// act on: control characters but newline and tab, DEL, invalid UTF-8.
func unsafeBytes(b []byte) string {
	if !utf8.Valid(b) {
		return "invalid UTF-8"
	}
	for i, c := range b {
		if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
			return fmt.Sprintf("byte %#x at offset %d", c, i)
		}
	}
	return ""
}

// jsonStrings returns every string in a JSON document.
func jsonStrings(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, jsonStrings(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for k, e := range x {
			out = append(out, k)
			out = append(out, jsonStrings(e)...)
		}
		return out
	}
	return nil
}

// TestEscapesEverywhere runs scenarios against an adapter whose errors,
// events and stderr hold a screen clear, a terminal title, a fake green
// PASS after a carriage return, NUL and bytes that are not UTF-8: every
// report shows them spelled out, none holds them raw.
func TestEscapesEverywhere(t *testing.T) {
	rep := runHostile(t, adapterTarget(t, "ansi"))
	if rep.Summary.Failed == 0 {
		t.Fatalf("no scenario failed against an adapter that fails every send: %+v", rep.Summary)
	}
	var text, js, junit bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"the text report": text.Bytes(), "report.json": js.Bytes(), "junit.xml": junit.Bytes()} {
		if bad := unsafeBytes(b); bad != "" {
			t.Errorf("%s holds %s", name, bad)
		}
		for _, want := range []string{`\x1b[2J`, `\x1b]0;owned\x07`, `\rPASS\x00\x7f`, `\xff\xfe junk`} {
			if !bytes.Contains(b, []byte(want)) && !bytes.Contains(b, []byte(strings.ReplaceAll(want, `\`, `\\`))) {
				t.Errorf("%s does not show %s spelled out", name, want)
			}
		}
	}
	var doc any
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, s := range jsonStrings(doc) {
		if bad := unsafeBytes([]byte(s)); bad != "" {
			t.Errorf("a string of report.json holds %s once decoded: %.120q", bad, s)
		}
	}
	// The evidence names the stderr line and the raw line it came in.
	evidence := ""
	for _, s := range rep.Scenarios {
		evidence += strings.Join(s.Evidence, "\n")
	}
	for _, want := range []string{`hostile adapter: \x1b[2J`, `\u001b[2J\u001b]0;owned\u0007\xff\xfe\r\u0000PASS`} {
		if !strings.Contains(evidence, want) {
			t.Errorf("the evidence does not show %s", want)
		}
	}
}

// TestFloodsFailTheScenario: an adapter that sends more notifications or
// bytes than one scenario may fails it as flooded, naming the bound,
// also when it floods while no operation waits for it.
func TestFloodsFailTheScenario(t *testing.T) {
	tests := []struct {
		mode   string
		limits rpcadapter.Limits
		says   string
	}{
		{"flood-notes", rpcadapter.Limits{}, "flooded: the adapter sent more than 10000 notifications in one scenario"},
		{"flood-bytes", rpcadapter.Limits{Bytes: 256 << 10}, "flooded: the adapter sent more than 262144 bytes of messages in one scenario"},
		{"flood-at-close", rpcadapter.Limits{}, "flooded: the adapter sent more than 10000 notifications in one scenario"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			target := adapterTarget(t, tt.mode)
			target.Limits = tt.limits
			// Sending 10,001 notifications can take longer than a step's
			// 10 s or close()'s 5 s on a loaded machine under -race; the
			// flood ends the scenario the moment the bound is passed, so
			// long deadlines cost nothing when the runner is right.
			rep := runHostileRules(t, target, 6, floodRules)
			for _, s := range rep.Scenarios {
				if s.Status != conformance.StatusFailed || !strings.Contains(s.Error, tt.says) {
					t.Errorf("%s: %s, %q; want it failed, saying %q", s.Name, s.Status, s.Error, tt.says)
				}
			}
		})
	}
}

// TestLeftoversOfTheAdapter runs scenarios against an adapter that leaves
// two processes holding its stdout when it exits, one in its process group
// and one in a session of its own, both ignoring SIGTERM. The runner waits
// for the adapter, not for its stdout: it kills them at once (neither ever
// gets the SIGTERM of a shutdown that waited for stdout to close), names
// them in each scenario's evidence and fails the scenario; none is left.
func TestLeftoversOfTheAdapter(t *testing.T) {
	// An adapter of another tool naming scheme is behind the runner's
	// translating wrapper, which must not hide what it left.
	for _, mode := range []string{"grandchild", "grandchild-renamed"} {
		t.Run(mode, func(t *testing.T) { leftoversOf(t, mode) })
	}
}

func leftoversOf(t *testing.T, mode string) {
	exe, _ := os.Executable()
	notes := filepath.Join(t.TempDir(), "sigterms")
	target := adapterTarget(t, mode)
	target.Env = map[string]string{"LINGER_FILE": notes}
	rep := runHostileRules(t, target, 1, []string{"LA-CFG-13"})
	requireLingerersNamed(t, rep, exe, notes, 2)
	if b, err := os.ReadFile(notes); err == nil {
		t.Errorf("a leftover got SIGTERM, so the runner went through the shutdown sequence:\n%s", b)
	}
	if alive := lingerers(exe); len(alive) > 0 {
		t.Errorf("leftovers still running: %v", alive)
	}
}

// requireLingerersNamed requires every scenario of rep to have failed,
// naming the want linger processes of exe (the hostile adapter's) that it
// killed.
func requireLingerersNamed(t *testing.T, rep *conformance.Report, exe, notes string, want int) {
	t.Helper()
	for _, s := range rep.Scenarios {
		left := 0
		for _, e := range s.Evidence {
			if strings.Contains(e, "left running by the adapter and killed: "+exe+" linger "+notes) {
				left++
			}
		}
		if s.Status != conformance.StatusFailed || left != want || !strings.Contains(s.Error, "no process outlives the scenario") {
			t.Errorf("%s: %s with %d leftovers named; want failed, naming %d:\n%s\n%s", s.ID, s.Status, left, want, s.Error, strings.Join(s.Evidence, "\n"))
		}
	}
}

// lingerers lists the running linger processes of exe.
func lingerers(exe string) []int {
	var out []int
	for _, p := range procs.All() {
		if argv := procs.Argv(p.PID); p.Running() && len(argv) > 1 && argv[0] == exe && argv[1] == "linger" {
			out = append(out, p.PID)
		}
	}
	return out
}

// TestHandshakeFailuresAreExplained: a handshake that times out names the
// timeout, and one that fails shows the adapter's stderr.
func TestHandshakeFailuresAreExplained(t *testing.T) {
	dir := t.TempDir()
	mute := filepath.Join(dir, "mute.sh") // reads, never answers, holds stdout
	dies := filepath.Join(dir, "dies.sh")
	_ = os.WriteFile(mute, []byte("#!/bin/sh\nwhile read -r line; do :; done\n"), 0o755)
	_ = os.WriteFile(dies, []byte("#!/bin/sh\necho 'cannot load the SDK: module @acme/agent not found' >&2\nexit 7\n"), 0o755)
	// The mute adapter must run out of its budget, so a short one; the one
	// that dies must be seen dying before its budget runs out, however
	// loaded the machine is, so a long one (it returns at the exit).
	tests := []struct {
		script string
		budget time.Duration
		says   []string
	}{
		{mute, 300 * time.Millisecond, []string{"the adapter did not answer initialize within 300ms"}},
		{dies, time.Minute, []string{"exit status 7", "cannot load the SDK: module @acme/agent not found"}},
	}
	for _, tt := range tests {
		_, err := (&rpcadapter.Target{Command: []string{tt.script}, HandshakeTimeout: tt.budget}).Info(context.Background())
		var se *rpcadapter.StartError
		if !errors.As(err, &se) {
			t.Fatalf("%s: %v, want a StartError", tt.script, err)
		}
		all := err.Error() + "\n" + strings.Join(se.Diagnostics(), "\n")
		for _, want := range tt.says {
			if !strings.Contains(all, want) {
				t.Errorf("%s: the failure does not say %q:\n%s", tt.script, want, all)
			}
		}
		if slices.Contains(se.Diagnostics(), "") {
			t.Errorf("%s: a blank line of evidence", tt.script)
		}
	}
}

// killFeature is a scenario that holds a stdio server mid-call until its
// step times out, two minutes later.
const killFeature = `@lite-agent
Feature: a runner killed mid-scenario

  @LA-CFG-13
  Scenario: a call held at a latch that is never released
    Given a stdio MCP server "p" with tools "slow"
    And the tool "slow" of "p" waits for the latch "never"
    And the mcpServers option declares "p"
    And the model calls "mcp__p__slow" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
`

// TestAKilledRunnerLeavesNothing SIGKILLs a runner mid-scenario, while
// the stdio server that a stubborn adapter (which never closes what it
// started) spawned is running: the server exits within seconds, although
// its parent, the adapter, lives on; and the next run removes the killed
// run's scratch directories.
func TestAKilledRunnerLeavesNothing(t *testing.T) {
	exe, _ := os.Executable()
	tmp, features := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(features, "kill.feature"), []byte(killFeature), 0o644); err != nil {
		t.Fatal(err)
	}
	runner := exec.Command(exe, "runner", features, "stubborn")
	runner.Env = append(os.Environ(), "TMPDIR="+tmp)
	if err := runner.Start(); err != nil {
		t.Fatal(err)
	}
	defer runner.Process.Kill()
	var fake, stubborn int
	waitUntil(t, time.Minute, "the scenario's stdio server to hold its call at the latch", func() bool {
		for _, p := range procs.All() {
			argv := strings.Join(procs.Argv(p.PID), " ")
			switch {
			case p.Running() && strings.Contains(argv, mcpfake.Subcommand) && strings.Contains(argv, tmp) && sockets(p.PID) >= 2:
				// Its record connection and the one it waits at the latch
				// on: the connection's server mid-call, not the probe.
				fake = p.PID
			case p.Running() && p.PPID == runner.Process.Pid && strings.HasSuffix(argv, " serve stubborn"):
				stubborn = p.PID
			}
		}
		return fake != 0 && stubborn != 0
	})
	defer syscall.Kill(-stubborn, syscall.SIGKILL)
	_ = runner.Process.Kill()
	_ = runner.Wait()
	waitUntil(t, 10*time.Second, fmt.Sprintf("the stdio server %d to exit once its runner was killed", fake), func() bool {
		p, err := procs.Stat(fake)
		return err != nil || !p.Running()
	})
	if p, err := procs.Stat(stubborn); err != nil || !p.Running() {
		t.Fatalf("the stubborn adapter %d is gone (%v): the server may have died of its parent's death, not of its runner's", stubborn, err)
	}
	_ = syscall.Kill(-stubborn, syscall.SIGKILL)

	owned := func() []string {
		m, _ := filepath.Glob(filepath.Join(tmp, fmt.Sprintf("mcpconform-%d-*", runner.Process.Pid)))
		return m
	}
	if len(owned()) == 0 {
		t.Fatal("the killed runner left no scratch directory; the cleanup proves nothing")
	}
	t.Setenv("TMPDIR", tmp)
	if _, err := conformance.Run(context.Background(), conformance.Options{Target: refadapter.Target{}, Rules: []string{"LA-NAME-04"}}); err != nil {
		t.Fatal(err)
	}
	if left := owned(); len(left) > 0 {
		t.Errorf("the next run left the killed run's scratch directories: %v", left)
	}
}

// sockets counts the sockets a process holds open.
func sockets(pid int) int {
	n := 0
	for _, f := range procs.Files(pid) {
		if strings.HasPrefix(f, "socket:[") {
			n++
		}
	}
	return n
}

// waitUntil polls cond until it holds, failing the test after d.
func waitUntil(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(d)
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("waited %s for %s", d, what)
		}
	}
}

// measureRun runs the scenarios of rules (all when none) against the
// adapter mode, in a runner process of its own, and returns what it
// measured.
func measureRun(t testing.TB, mode string, rules ...string) measurement {
	t.Helper()
	exe, _ := os.Executable()
	out, err := exec.Command(exe, append([]string{"measure", mode}, rules...)...).Output()
	if err != nil {
		t.Fatalf("the measured runner: %v", err)
	}
	var m measurement
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("the measured runner said %q: %v", out, err)
	}
	return m
}

// peakBound is the most resident memory the runner may take.
const peakBound = 512 << 10 // KiB

// BenchmarkRunnerMemory runs the whole suite, four scenarios at a time,
// in a runner process of its own, against the reference and against the
// adapter that sends the largest messages it may (huge: a million-entry
// handshake, a host/event and errors of 16 MiB lines, in every scenario),
// and reports the runner's peak resident memory, peak-MiB, which must stay
// under 512 MiB. Run it without the race detector, which multiplies
// memory:
//
//	go test -run '^$' -bench RunnerMemory -benchtime 1x ./conformance/rpcadapter
func BenchmarkRunnerMemory(b *testing.B) {
	for _, mode := range []string{"reference", "huge"} {
		b.Run(mode, func(b *testing.B) {
			for b.Loop() {
				m := measureRun(b, mode)
				b.ReportMetric(float64(m.PeakKiB)/1024, "peak-MiB")
				b.ReportMetric(float64(m.Scenarios), "scenarios")
				if m.PeakKiB > peakBound {
					b.Errorf("peak resident memory %d MiB, over %d MiB", m.PeakKiB>>10, peakBound>>10)
				}
			}
		})
	}
}
