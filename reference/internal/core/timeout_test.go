package core

import (
	"context"
	"io"
	"net"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// slow answers after delay on the bubble's clock, or when the call is
// cancelled.
func slow(name string, delay time.Duration) fakeTool {
	return fakeTool{name: name, answer: func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-time.After(delay):
			return textResult("slow answer"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
}

// TestCallTimeouts: a call is bounded by its entry's timeoutMs, 30 s by
// default (LA-TMO-02, LA-TMO-04); one that times out is a tool error,
// sent once and never again (LA-TMO-06). The bubble's clock measures the
// time exactly.
func TestCallTimeouts(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration // the entry's; 0 is the default
		delay   time.Duration // the tool's
		want    time.Duration // when the call ends
		timeOut bool
	}{
		{"the default, 30 s", 0, time.Hour, DefaultTimeout, true},
		{"timeoutMs 300", 300 * time.Millisecond, time.Second, 300 * time.Millisecond, true},
		{"an answer within timeoutMs", 300 * time.Millisecond, 100 * time.Millisecond, 100 * time.Millisecond, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFake("s", slow("wait", tt.delay))
				var started, ended time.Time
				hooks := Hooks{
					ToolStart: func(context.Context, ToolEvent) { started = time.Now() },
					ToolEnd:   func(context.Context, ToolEvent) { ended = time.Now() },
				}
				model := calls(call(1, "mcp__s__wait", `{}`))
				servers := []NamedServer{{Name: "s", Config: ServerConfig{Command: "fake-s", Timeout: tt.timeout}}}
				h := testHost(t, LiteAgent(), Options{Permission: allowAll, Model: model, Hooks: hooks, MCPServers: servers}, map[string]*fakeServer{"s": f})
				if _, err := h.Send(context.Background(), "wait"); err != nil {
					t.Fatal(err)
				}
				if got := ended.Sub(started); got != tt.want {
					t.Errorf("the call's duration\nExpected: %v\n  Actual: %v", tt.want, got)
				}
				msg := model.toolMessages()[0]
				if msg.IsError != tt.timeOut {
					t.Errorf("a tool error\nExpected: %v\n  Actual: %v (%s)", tt.timeOut, msg.IsError, msg.Text)
				}
				if tt.timeOut {
					contains(t, "the timed-out call", msg.Text, "not retried")
				}
				h.Close()
				if n := f.count("tools/call"); n != 1 {
					t.Errorf("LA-TMO-06: Expected the call sent once, Actual %d times", n)
				}
			})
		})
	}
}

// TestConnectTimeouts: connecting is bounded by the entry's timeoutMs, 30
// s by default (LA-TMO-01, LA-TMO-04): a server that never answers fails
// register() with a timeout error then, and is left unregistered.
func TestConnectTimeouts(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		want    time.Duration
	}{
		{"the default, 30 s", 0, DefaultTimeout},
		{"timeoutMs 300", 300 * time.Millisecond, 300 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := testHost(t, LiteAgent(), Options{Permission: allowAll}, nil)
				// A server that reads everything and never answers.
				h.dial = func(string) (io.ReadWriteCloser, error) {
					c, s := net.Pipe()
					go io.Copy(io.Discard, s)
					return c, nil
				}
				start := time.Now()
				err := h.MCP().Register(context.Background(), "mute", ServerConfig{Command: "fake-mute", Timeout: tt.timeout})
				if got := time.Since(start); got != tt.want {
					t.Errorf("register()'s duration\nExpected: %v\n  Actual: %v", tt.want, got)
				}
				wantErr(t, "register() of a mute server", err, KindTimeout, "LA-TMO-04")
				if n := len(h.MCP().List()); n != 0 {
					t.Errorf("after the timeout: Expected no server registered, Actual %d", n)
				}
				h.Close()
			})
		})
	}
}
