package mcpfake

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSandboxWrapsAStdioFake runs a real stdio fake through the fake
// sandbox, found by path and through PATH: the sandbox record names the
// wrapped command line, and the fake it execs is the same process, with
// the same environment, and works.
func TestSandboxWrapsAStdioFake(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	if err := os.Symlink(os.Args[0], filepath.Join(bin, "mcpfake-under-test")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, cmd string }{
		{"absolute path", os.Args[0]},
		{"looked up in PATH", "mcpfake-under-test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rc := newRecorder(t)
			script := writeScript(t, &Script{Name: "wrapped", Tools: []Tool{{Name: "t"}}})
			wrapped := append([]string{tc.cmd}, StdioArgs(script, rc.srv.Addr())...)
			cmd := exec.Command(os.Args[0], append(SandboxArgs(rc.srv.Addr()), wrapped...)...)
			cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "SANDBOX_CANARY=1")
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "t"}); err != nil {
				t.Fatal(err)
			}
			cs.Close()
			rs := rc.log.Records()
			sb, starts := of(rs, record.KindSandbox), of(rs, record.KindStart)
			if len(sb) != 1 || len(starts) != 1 {
				t.Fatalf("records %s", dump(rs))
			}
			s, st := sb[0], starts[0]
			if s.Seq > st.Seq || s.Server != "wrapped" || !slices.Equal(s.Argv, wrapped) {
				t.Errorf("sandbox record %s", dump(sb))
			}
			if s.PID != st.PID || s.PID != cmd.Process.Pid {
				t.Errorf("sandbox pid %d, fake pid %d, spawned %d: the sandbox did not exec", s.PID, st.PID, cmd.Process.Pid)
			}
			if !slices.Equal(s.Env, st.Env) || !slices.Contains(s.Env, "SANDBOX_CANARY=1") || s.Cwd != st.Cwd {
				t.Error("the wrapped fake has another environment or directory")
			}
			if st.Argv[0] != tc.cmd {
				t.Errorf("the fake runs as %q", st.Argv)
			}
			// The sandbox connection leaves no exit of its own.
			ex := rc.wait(t, "the fake's exit", func(rs []record.Record) bool { return len(of(rs, record.KindExit)) > 0 })
			if n := len(of(ex, record.KindExit)); n != 1 {
				t.Errorf("%d exits", n)
			}
		})
	}
}

// TestSandboxFailures checks the exit codes of a sandbox that cannot run
// its command.
func TestSandboxFailures(t *testing.T) {
	t.Parallel()
	rc := newRecorder(t)
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		record bool
	}{
		{"no command", SandboxArgs(rc.srv.Addr()), 2, false},
		{"not in PATH", append(SandboxArgs(rc.srv.Addr()), "no-such-command-mcpfake"), 127, true},
		{"no such file", append(SandboxArgs(rc.srv.Addr()), "/no/such/file"), 127, true},
		{"not executable", append(SandboxArgs(rc.srv.Addr()), writeScript(t, &Script{Name: "data"})), 126, true},
		{"no record server", []string{SandboxSubcommand, "--record", "127.0.0.1:1", "--", "true"}, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(of(rc.log.Records(), record.KindSandbox))
			cmd := exec.Command(os.Args[0], tc.args...)
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != tc.code || !strings.Contains(string(out), "mcpfake sandbox") {
				t.Errorf("exit %d (%v), want %d: %s", code, err, tc.code, out)
			}
			if got := len(of(rc.log.Records(), record.KindSandbox)) - before; got != map[bool]int{false: 0, true: 1}[tc.record] {
				t.Errorf("%d sandbox records", got)
			}
		})
	}
}
