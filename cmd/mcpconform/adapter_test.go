package main

import (
	"context"
	"encoding/json"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/internal/fakebin"
	"github.com/mcpconform/mcpconform/internal/procs"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/internal/hollow"
)

// TestMain lets the test binary serve as `mcpconform adapter ...`, so that
// targets can name it as their adapter command, and as the adapter that
// implements nothing (`hollow-adapter CLAIMS`, package hollow).
func TestMain(m *testing.M) {
	mcpfake.Main()             // the stdio fakes the scenarios hand implementations
	procs.SpareRaceExitSleep() // the adapters this binary starts of itself
	log.SetOutput(io.Discard)  // see main
	if len(os.Args) > 1 && os.Args[1] == "adapter" {
		os.Exit(runCLI(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	if len(os.Args) == 3 && os.Args[1] == "hollow-adapter" {
		claims, ok := hollow.ClaimsNamed(os.Args[2])
		if !ok || hollow.Serve(os.Stdin, os.Stdout, claims) != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(fakebin.Run(m)) // the scenarios' stdio fakes from the small binary
}

func self(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func TestAdapterCheckOfServeReference(t *testing.T) {
	code, out, errs := run(t, "adapter", "check", "--target", "cmd:"+self(t)+" adapter serve-reference")
	if code != exitOK || !strings.Contains(out, "all 20 checks passed") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}

func TestAdapterCheckReportsABrokenAdapter(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "mute.sh") // reads everything, answers nothing
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec cat >/dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "adapter", "check", "--target", "cmd:"+script)
	if code != exitFailure || !strings.Contains(out, "FAILED  handshake") || !strings.Contains(out, "closed its stdout") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}

func TestRunThroughTheProtocol(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "adapter.json")
	if err := os.WriteFile(cfg, []byte(`{"command": ["`+self(t)+`", "adapter", "serve-reference"], "env": {"X_ADAPTER": "1"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"cmd:" + self(t) + " adapter serve-reference", "file:" + cfg} {
		code, out, errs := run(t, "run", "--rules", "LA-CFG-13,LA-NAME-04", "--target", target)
		if code != exitOK || !strings.Contains(out, "PASS: 7 scenarios: 7 passed") {
			t.Errorf("%s: exit %d\n%s\n%s", target, code, out, errs)
		}
	}
	// A process per scenario (--fresh-adapters): every failure in a reused
	// one would run again.
	code, out, _ := run(t, "run", "--fresh-adapters", "--rules", "LA-NAME-02", "--target", "cmd:"+self(t)+" adapter serve-reference --mutate "+"LA-NAME-02/alias-25-characters")
	if code != exitFailure || !strings.Contains(out, "FAILED lite-agent/naming.feature") {
		t.Errorf("a mutated reference behind the protocol: exit %d\n%s", code, out)
	}
}

func TestTargetSyntax(t *testing.T) {
	tests := []struct {
		in   string
		argv []string
		bad  string
	}{
		{"node a.mjs --x", []string{"node", "a.mjs", "--x"}, ""},
		{`node 'my adapter.mjs' "--name=a b" c\ d`, []string{"node", "my adapter.mjs", "--name=a b", "c d"}, ""},
		{`say "it's \"quoted\""`, []string{"say", `it's "quoted"`}, ""},
		{`''`, []string{""}, ""},
		{`unterminated 'quote`, nil, "unterminated single quote"},
		{`unterminated "quote`, nil, "unterminated double quote"},
	}
	for _, tt := range tests {
		argv, err := splitCommandLine(tt.in)
		if tt.bad != "" {
			if err == nil || !strings.Contains(err.Error(), tt.bad) {
				t.Errorf("%q: %v, want an error about %q", tt.in, err, tt.bad)
			}
			continue
		}
		if err != nil || !slices.Equal(argv, tt.argv) {
			t.Errorf("%q: %q %v, want %q", tt.in, argv, err, tt.argv)
		}
	}
	for _, bad := range []string{"cmd:", "cmd:   ", "file:/no/such/file.json", "nonsense"} {
		if _, err := parseTarget(bad); err == nil {
			t.Errorf("parseTarget(%q) accepted it", bad)
		}
	}
}

// TestAdapterCheckOfAnAdapterClaimingNoSystem: the check reports the
// missing systems, skips what needs an agent, and runs the rest.
func TestAdapterCheckOfAnAdapterClaimingNoSystem(t *testing.T) {
	code, out, errs := run(t, "adapter", "check", "--target", "cmd:"+self(t)+" hollow-adapter no-system")
	for _, want := range []string{"FAILED  handshake", "no systems", "skipped agents", "unknown method", "shutdown", "unknown version"} {
		if !strings.Contains(out, want) {
			t.Errorf("the check does not say %q", want)
		}
	}
	if code != exitFailure {
		t.Errorf("exit %d, want %d\n%s\n%s", code, exitFailure, out, errs)
	}
}

// TestABrokenAdapterHasItsOwnExitStatus: an adapter that dies before its
// handshake is no failing implementation: the run exits 3, and every
// report format says why, with the adapter's stderr.
func TestABrokenAdapterHasItsOwnExitStatus(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "broken.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'cannot load @acme/agent: \033[31mmodule not found' >&2\nexit 9\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"pretty", "json", "junit"} {
		code, out, errs := run(t, "run", "--target", "cmd:"+script, "--format", format, "--out", dir)
		if code != exitTarget {
			t.Errorf("%s: exit %d, want %d\n%s\n%s", format, code, exitTarget, out, errs)
		}
		shown := out
		switch format {
		case "json":
			b, _ := os.ReadFile(filepath.Join(dir, "report.json"))
			var rep struct {
				Verdict string
				Error   struct {
					Message  string
					Evidence []string
				}
			}
			if err := json.Unmarshal(b, &rep); err != nil || rep.Verdict != "error" || !strings.Contains(rep.Error.Message, "exit status 9") {
				t.Errorf("report.json: verdict %q, error %q (%v)", rep.Verdict, rep.Error.Message, err)
			}
			shown = strings.Join(rep.Error.Evidence, "\n")
		case "junit":
			b, _ := os.ReadFile(filepath.Join(dir, "junit.xml"))
			if !strings.Contains(string(b), `errors="1"`) {
				t.Errorf("junit.xml has no error:\n%s", b)
			}
			shown = string(b)
		}
		if !strings.Contains(shown, `cannot load @acme/agent: \x1b[31mmodule not found`) {
			t.Errorf("%s: the report does not show the adapter's stderr, escaped:\n%s", format, shown)
		}
	}
}

// TestAdapterCheckEscapesWhatTheAdapterSays: a name with a terminal
// escape is shown spelled out.
func TestAdapterCheckEscapesWhatTheAdapterSays(t *testing.T) {
	script := filepath.Join(t.TempDir(), "evil.sh")
	hello := `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"1","adapter":{"name":"\u001b[2J\u001b[32mevil","version":"1"},"implementation":{"name":"x","version":"1"},"systems":["lite-agent"],"capabilities":[],"operations":["agent/create"]}}`
	if err := os.WriteFile(script, []byte("#!/bin/sh\nread line\necho '"+hello+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, out, _ := run(t, "adapter", "check", "--target", "cmd:"+script)
	if strings.ContainsRune(out, 0x1b) || !strings.Contains(out, `\x1b[2J\x1b[32mevil`) {
		t.Errorf("the check shows the adapter's name raw or not at all:\n%q", out)
	}
}

// TestRelativeAdapterPaths: the README's "cmd:node ./my-adapter.mjs" works
// from the caller's directory, although the adapter runs in each
// scenario's scratch directory.
func TestRelativeAdapterPaths(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "my-adapter.mjs"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		argv, want []string
	}{
		{[]string{"node", "./my-adapter.mjs", "--x"}, []string{"node", filepath.Join(dir, "my-adapter.mjs"), "--x"}},
		{[]string{"node", "my-adapter.mjs"}, []string{"node", filepath.Join(dir, "my-adapter.mjs")}},
		{[]string{"bin/adapter", "lite-agent"}, []string{filepath.Join(dir, "bin/adapter"), "lite-agent"}},
		{[]string{"node", "../up.mjs"}, []string{"node", filepath.Join(filepath.Dir(dir), "up.mjs")}},
		{[]string{"/abs/x", "-f", "plain"}, []string{"/abs/x", "-f", "plain"}},
	}
	for _, tt := range tests {
		if got := resolvePaths(tt.argv, dir); !slices.Equal(got, tt.want) {
			t.Errorf("%v: %v, want %v", tt.argv, got, tt.want)
		}
	}
}
