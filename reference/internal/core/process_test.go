package core

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// resultText is the text of a tool message holding one text item.
func resultText(t *testing.T, m Message) string {
	t.Helper()
	var r struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal([]byte(m.Text), &r); err != nil || len(r.Content) != 1 || m.IsError {
		t.Fatalf("a tool result of one text item\nExpected: {\"content\":[{\"type\":\"text\",...}]}\n  Actual: %+v (%v)", m, err)
	}
	return r.Content[0].Text
}

// TestStdioProcess: a stdio server is a child process started from the
// host's PATH, with the safe default environment and its entry's env and
// nothing else of the host's (LA-SEC-16, LA-SEC-17), and Close reaps it
// (LA-TRN-12). Both profiles start it the same way.
func TestStdioProcess(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	environ := []string{"PATH=" + filepath.Dir(exe), "HOME=/home/test", "SECRET=host-only", "LANG=C"}
	entry := ServerConfig{Command: filepath.Base(exe), Args: []string{stdioServerCommand}, Env: map[string]string{"TOKEN": "for-the-child"}}
	for _, p := range []Profile{LiteAgent(), Blade()} {
		t.Run(p.Name, func(t *testing.T) {
			model := calls(call(1, "mcp__proc__env", `{}`), call(2, "mcp__proc__pid", `{}`))
			opts := Options{Workdir: t.TempDir(), Environ: environ, Model: model, Permission: allowAll}
			var h *Host
			if p.Name == Blade().Name {
				h, err = NewSession(context.Background(), opts, []NamedBladeServer{{Name: "proc", Config: BladeServerConfig{ServerConfig: entry}}})
			} else {
				opts.MCPServers = []NamedServer{{Name: "proc", Config: entry}}
				h, err = New(opts, p)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if _, err := h.Send(context.Background(), "env"); err != nil {
				t.Fatal(err)
			}
			msgs := model.toolMessages()
			if len(msgs) != 2 {
				t.Fatalf("tool messages: Expected 2, Actual %+v", msgs)
			}
			env := strings.Split(resultText(t, msgs[0]), "\n")
			want := []string{"HOME=/home/test", "PATH=" + filepath.Dir(exe), "TOKEN=for-the-child"}
			if strings.Join(env, " ") != strings.Join(want, " ") {
				t.Errorf("LA-SEC-16, LA-SEC-17: the child's environment\nExpected: %q\n  Actual: %q", want, env)
			}
			pid, err := strconv.Atoi(resultText(t, msgs[1]))
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Close(); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("LA-TRN-12: after Close\nExpected: process %d reaped (ESRCH)\n  Actual: %v", pid, err)
			}
		})
	}
}

// TestStdioStartFails: a command that is not in PATH is a transport error
// naming the server and the profile's rule.
func TestStdioStartFails(t *testing.T) {
	tests := []struct {
		profile Profile
		rule    string
	}{
		{LiteAgent(), "LA-TRN-03"},
		{Blade(), "BL-TRN-01"},
	}
	for _, tt := range tests {
		t.Run(tt.profile.Name, func(t *testing.T) {
			opts := Options{Workdir: t.TempDir(), Environ: []string{"PATH=" + t.TempDir()}, Permission: allowAll}
			entry := ServerConfig{Command: "no-such-server"}
			var err error
			if tt.profile.Name == Blade().Name {
				h, nerr := NewSession(context.Background(), opts, []NamedBladeServer{{Name: "x", Config: BladeServerConfig{ServerConfig: entry}}})
				if nerr != nil {
					t.Fatal(nerr)
				}
				defer h.Close()
				err = state(h, "x").Err
			} else {
				h, nerr := New(opts, tt.profile)
				if nerr != nil {
					t.Fatal(nerr)
				}
				defer h.Close()
				err = h.MCP().Register(context.Background(), "x", entry)
			}
			wantErr(t, "starting a command not in PATH", err, KindTransport, tt.rule)
			contains(t, "the error", err.Error(), `"no-such-server" not found in PATH`)
		})
	}
}

// TestProcessExitsDuringACall: a stdio server that exits during a call
// loses its connection at once: the call fails saying so (LA-CAT-03), the
// server is stale, and the next run starts a new process (LA-CAT-05).
func TestProcessExitsDuringACall(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	model := &script{turns: []ModelResponse{
		{ToolCalls: []ToolCall{call(1, "mcp__proc__pid", `{}`), call(2, "mcp__proc__exit", `{}`)}},
		{Text: "first run"},
		{ToolCalls: []ToolCall{call(3, "mcp__proc__pid", `{}`)}},
	}}
	entry := ServerConfig{Command: exe, Args: []string{stdioServerCommand}}
	h := testHost(t, LiteAgent(), Options{Workdir: t.TempDir(), Model: model, Permission: allowAll, MCPServers: []NamedServer{{Name: "proc", Config: entry}}}, nil)
	ctx := context.Background()
	if _, err := h.Send(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	msgs := model.toolMessages()
	if len(msgs) != 2 || !msgs[1].IsError {
		t.Fatalf("Expected: two tool messages, the second an error\n  Actual: %+v", msgs)
	}
	first := resultText(t, msgs[0])
	contains(t, "the call the server exited in", msgs[1].Text, "LA-CAT-03", `the connection to server "proc" was lost during the call of "mcp__proc__exit"`, "the server process exited with status 4")
	if s := h.MCP().List()[0]; s.Status != StatusStale {
		t.Errorf("LA-CAT-03: after the exit\nExpected: status stale\n  Actual: %+v", s)
	}
	if _, err := h.Send(ctx, "again"); err != nil {
		t.Fatal(err)
	}
	msgs = model.toolMessages()
	if len(msgs) != 1 {
		t.Fatalf("second run: Expected one tool message, Actual %+v", msgs)
	}
	if second := resultText(t, msgs[0]); second == first {
		t.Errorf("LA-CAT-05: the next run\nExpected: a new process\n  Actual: the same pid %s", second)
	}
	if s := h.MCP().List()[0]; s.Status != StatusConnected {
		t.Errorf("after reconnecting: Expected connected, Actual %+v", s)
	}
}
