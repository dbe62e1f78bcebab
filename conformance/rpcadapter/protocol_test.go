package rpcadapter_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
	"github.com/mcpconform/mcpconform/internal/fault"
)

// verdicts maps scenario IDs to their status and, for failures, the step
// that failed.
func verdicts(rep *conformance.Report) map[string]string {
	out := map[string]string{}
	for _, s := range rep.Scenarios {
		out[s.ID] = verdict(s.Status, s.Step)
	}
	return out
}

// verdict is one scenario's entry in [verdicts].
func verdict(status conformance.Status, step string) string {
	if status == conformance.StatusPassed || status == conformance.StatusSkipped {
		return string(status)
	}
	return string(status) + " " + step
}

// referenceVerdicts are the verdicts of the whole suite against the
// reference in-process, as TestReferenceConforms (package conformance, run
// under -race too) requires them: every scenario passes, but for the
// real-time variants (@adapter-lacks:clock), which its clock skips. Taking
// them from there, not from a second run of the suite here, halves this
// package's time under -race and proves the same.
func referenceVerdicts(t *testing.T) map[string]string {
	t.Helper()
	scs, err := conformance.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, s := range scs {
		out[s.ID] = verdict(conformance.StatusPassed, "")
		if slices.Contains(s.Lacks, adapter.CapClock) {
			out[s.ID] = verdict(conformance.StatusSkipped, "")
		}
	}
	return out
}

// TestSameVerdictsThroughTheProtocol runs the whole suite against the
// reference through the adapter protocol (the reference served by this
// test binary), and requires the verdict it has in-process for every
// scenario ([referenceVerdicts]); every message of the protocol run must
// match its JSON Schema. A mutated reference must fail the same scenarios
// in-process and through the protocol (both run here).
func TestSameVerdictsThroughTheProtocol(t *testing.T) {
	schemas, err := rpcadapter.LoadSchemas()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		inproc   *refadapter.Target // nil: [referenceVerdicts]
		protocol *rpcadapter.Target
		rules    []string
		step     time.Duration // the runs' StepTimeout; 0: the default
	}{
		{"reference", nil, adapterTarget(t, "reference"), nil, 0},
		// A red scenario waits out its step (and, through the protocol,
		// again in a fresh process): 10 s, not the default 20.
		{"mutant", &refadapter.Target{Faults: []fault.Fault{fault.AliasLength}},
			adapterTarget(t, "mutant", string(fault.AliasLength)), []string{"LA-NAME-02", "LA-NAME-03"}, 10 * time.Second},
	}
	for _, tc := range cases {
		// As `mcpconform run` has it: processes serve scenarios in turn
		// (a process per scenario is what the hostile and corrupting
		// adapters' tests run, and the corruptions' whole runs).
		tc.protocol.Reuse = true
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var bad []string
			messages := 0
			tc.protocol.Observe = func(tr rpcadapter.Traffic) {
				err := schemas.Validate(tr)
				mu.Lock()
				defer mu.Unlock()
				messages++
				if err != nil && len(bad) < 10 {
					bad = append(bad, err.Error())
				}
			}
			ctx := context.Background()
			var a map[string]string
			if tc.inproc == nil {
				a = referenceVerdicts(t)
			} else {
				in, err := conformance.Run(ctx, conformance.Options{Target: *tc.inproc, Rules: tc.rules, StepTimeout: tc.step})
				if err != nil {
					t.Fatal(err)
				}
				if in.Summary.Failed == 0 {
					t.Error("the mutant failed nothing; the comparison proves little")
				}
				a = verdicts(in)
			}
			over, err := conformance.Run(ctx, conformance.Options{Target: tc.protocol, Rules: tc.rules, StepTimeout: tc.step})
			if err != nil {
				t.Fatal(err)
			}
			b := verdicts(over)
			if len(a) != len(b) {
				t.Fatalf("%d scenarios in-process, %d through the protocol", len(a), len(b))
			}
			for _, sc := range over.Scenarios {
				if sc.Rerun != "" && sc.Status == conformance.StatusPassed {
					t.Errorf("%s failed in a reused adapter process and passed in a fresh one: %s", sc.ID, sc.Rerun)
				}
				if v := a[sc.ID]; b[sc.ID] != v {
					t.Errorf("%s: in-process %q, through the protocol %q\n%s\nevidence:\n  %s", sc.ID, v, b[sc.ID],
						sc.Error, strings.Join(sc.Evidence[:min(len(sc.Evidence), 40)], "\n  "))
				}
			}
			mu.Lock()
			defer mu.Unlock()
			for _, e := range bad {
				t.Errorf("message does not match its schema: %s", e)
			}
			if messages == 0 {
				t.Error("no protocol message was observed")
			}
			t.Logf("%d scenarios, %d protocol messages validated; summary %+v", len(a), messages, over.Summary)
		})
	}
}

// TestAdapterFailures checks that an adapter that dies, hangs or writes
// garbage mid-scenario fails that scenario with a clear reason, never
// passes it, lets the run go on, and leaves no process behind.
func TestAdapterFailures(t *testing.T) {
	exe, _ := os.Executable()
	tests := []struct {
		mode string
		says []string
	}{
		{"die", []string{"adapter failure during agent/send", "exited", "misbehaving adapter: die"}},
		{"hang", []string{"adapter failure during agent/send", "did not answer agent/send within 3s"}},
		{"garbage", []string{"adapter failure during agent/send", "malformed message at byte offset", "this is not JSON-RPC"}},
		{"lie", []string{"adapter failure during agent/send", "id 987654, which was never sent"}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			before := processesOf(exe)
			rep, err := conformance.Run(context.Background(), conformance.Options{
				Target:      adapterTarget(t, tt.mode),
				Rules:       []string{"LA-CFG-02", "LA-CFG-13", "LA-NAME-02"},
				StepTimeout: 3 * time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			failedSend, passed := 0, 0
			for _, s := range rep.Scenarios {
				text := s.Error + "\n" + strings.Join(s.Evidence, "\n")
				switch {
				case s.Status == conformance.StatusPassed:
					passed++
				case s.Status == conformance.StatusFailed && strings.Contains(text, "agent/send"):
					failedSend++
					for _, want := range tt.says {
						if !strings.Contains(text, want) {
							t.Errorf("%s: the failure does not say %q:\n%s", s.Name, want, text)
						}
					}
				}
			}
			// Scenarios that send fail; the ones that never send (the
			// register() rows of LA-NAME-02) still run and pass.
			if failedSend == 0 || passed == 0 {
				t.Errorf("%d scenarios failed at agent/send and %d passed; want both (summary %+v)", failedSend, passed, rep.Summary)
			}
			if left := slices.DeleteFunc(processesOf(exe), func(pid int) bool { return slices.Contains(before, pid) }); len(left) > 0 {
				t.Errorf("processes left behind: %v", left)
			}
		})
	}
}

// processesOf lists the pids of running processes of executable exe,
// except this one.
func processesOf(exe string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil || pid == os.Getpid() {
			continue
		}
		link, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if strings.Contains(string(stat), ") Z ") {
			continue // a zombie is not running
		}
		if strings.TrimSuffix(link, " (deleted)") == exe {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestUnknownProtocolVersionIsRefused checks the handshake of an adapter
// that speaks another version: the run fails to start with a message
// naming both versions.
func TestUnknownProtocolVersionIsRefused(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "v2.sh")
	if err := os.WriteFile(script, []byte(`#!/bin/sh
read line
echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2","adapter":{"name":"x","version":"1"},"implementation":{"name":"y","version":"1"},"systems":["lite-agent"],"capabilities":[],"operations":["agent/create"]}}'
cat >/dev/null
`), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := conformance.Run(context.Background(), conformance.Options{Target: &rpcadapter.Target{Command: []string{script}}})
	if err == nil || !strings.Contains(err.Error(), `protocol version "2"`) || !strings.Contains(err.Error(), `"1"`) {
		t.Errorf("got %v, want a refusal naming versions 2 and 1", err)
	}
}
