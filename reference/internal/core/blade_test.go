package core

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bladeHost builds a Blade session of servers over fakes.
func bladeHost(t *testing.T, opts Options, servers []NamedBladeServer, fakes map[string]*fakeServer) (*Host, error) {
	t.Helper()
	if opts.Environ == nil {
		opts.Environ = []string{}
	}
	h, err := newSession(context.Background(), opts, servers, dialer(t, fakes))
	if h != nil {
		t.Cleanup(func() { h.Close() })
	}
	return h, err
}

// stdio is a Blade stdio entry of name.
func stdio(name string, mod ...func(*BladeServerConfig)) NamedBladeServer {
	c := BladeServerConfig{ServerConfig: ServerConfig{Type: TransportStdio, Command: "fake-" + name}}
	for _, m := range mod {
		m(&c)
	}
	return NamedBladeServer{Name: name, Config: c}
}

func disabled(c *BladeServerConfig) { c.Disabled = true }

// state returns the named server's state.
func state(h *Host, name string) ServerState {
	for _, s := range h.ServerStates() {
		if s.Name == name {
			return s
		}
	}
	return ServerState{}
}

// TestBladeSessionConnectsAtCreation: a session connects its servers when
// it is created, except disabled ones; a failing server does not fail it;
// its runtime API connects, disconnects and reconnects.
func TestBladeSessionConnectsAtCreation(t *testing.T) {
	fakes := map[string]*fakeServer{"a": newFake("a", echo("t")), "off": newFake("off", echo("t")), "gone": nil}
	h, err := bladeHost(t, Options{}, []NamedBladeServer{stdio("a"), stdio("off", disabled), stdio("gone")}, fakes)
	if err != nil {
		t.Fatal(err)
	}
	if s := state(h, "gone"); s.Status != StatusFailed || RuleOf(s.Err) != "BL-TRN-01" {
		t.Errorf("a server that cannot be reached: Expected failed with BL-TRN-01, the session created; Actual %+v", s)
	}
	if s := state(h, "a"); s.Status != StatusConnected || len(s.Tools) != 1 || s.ConnectedAt.IsZero() {
		t.Errorf("a after creation: Expected connected with its tool; Actual %+v", s)
	}
	if s := state(h, "off"); s.Status != StatusConfigured || fakes["off"].count("server/discover") != 0 {
		t.Errorf("the disabled server: Expected not connected, never contacted; Actual %+v", s)
	}
	if fakes["a"].count("server/discover") != 1 {
		t.Errorf("a was contacted %d times: Expected once, no probe process", fakes["a"].count("server/discover"))
	}
	ctx := context.Background()
	if err := h.MCPConnect(ctx, "off"); err != nil {
		t.Fatal(err)
	}
	if err := h.MCPConnect(ctx, "off"); err != nil || fakes["off"].count("server/discover") != 1 {
		t.Errorf("mcpConnect of a connected server: Expected nothing done; Actual %v, %d connections", err, fakes["off"].count("server/discover"))
	}
	if err := h.MCPDisconnect(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if s := state(h, "a"); s.Status != StatusConfigured || s.Connected || len(s.LastTools) != 1 {
		t.Errorf("a after mcpDisconnect: Expected not connected, its last tools kept; Actual %+v", s)
	}
	if err := h.MCPDisconnect(ctx, "a"); err != nil {
		t.Errorf("mcpDisconnect of a disconnected server: %v", err)
	}
	before := state(h, "off").ConnectedAt
	if err := h.MCPReconnect(ctx, "off"); err != nil {
		t.Fatal(err)
	}
	if s := state(h, "off"); !s.Connected || !s.ConnectedAt.After(before) && !s.ConnectedAt.Equal(before) || fakes["off"].count("server/discover") != 2 {
		t.Errorf("mcpReconnect: Expected a new connection; Actual %+v, %d connections", s, fakes["off"].count("server/discover"))
	}
	for _, op := range []func(context.Context, string) error{h.MCPConnect, h.MCPDisconnect, h.MCPReconnect} {
		wantErr(t, "an unknown server", op(ctx, "nope"), KindNotFound, "BL-RT-06")
	}
}

// TestBladeRefusals: what a session refuses at creation, and the servers
// it keeps in error without failing the session.
func TestBladeRefusals(t *testing.T) {
	on := true
	tests := []struct {
		name    string
		servers []NamedBladeServer
		kind    Kind
		rule    string
		failed  string // a server in error, with its rule
		failure string
	}{
		{"an sse entry with a command", []NamedBladeServer{{Name: "s", Config: BladeServerConfig{ServerConfig: ServerConfig{Type: TransportSSE, Command: "x", URL: "https://x.test/sse"}}}}, KindConfig, "BL-CFG-02", "", ""},
		{"an unknown type", []NamedBladeServer{{Name: "s", Config: BladeServerConfig{ServerConfig: ServerConfig{Type: "ws", URL: "https://x.test"}}}}, KindConfig, "BL-CFG-03", "", ""},
		{"a url without a type", []NamedBladeServer{{Name: "s", Config: BladeServerConfig{ServerConfig: ServerConfig{URL: "https://x.test"}}}}, KindConfig, "BL-CFG-03", "", ""},
		{"a stdio entry without command", []NamedBladeServer{{Name: "s", Config: BladeServerConfig{ServerConfig: ServerConfig{Type: TransportStdio}}}}, KindConfig, "BL-CFG-02", "", ""},
		{"a stdio entry with a url", []NamedBladeServer{{Name: "s", Config: BladeServerConfig{ServerConfig: ServerConfig{Command: "x", URL: "https://x.test"}}}}, KindConfig, "BL-CFG-02", "", ""},
		{"plain http", []NamedBladeServer{{Name: "s", Config: BladeServerConfig{ServerConfig: ServerConfig{Type: TransportHTTP, URL: "http://example.com/mcp"}}}}, KindSecurity, "LA-NET-03", "", ""},
		{"a bad key", []NamedBladeServer{stdio("a.b")}, KindName, "LA-NAME-03", "", ""},
		{"keys equal after normalization", []NamedBladeServer{stdio("my-srv"), stdio("My_Srv")}, "", "", "My_Srv", "BL-NAME-03"},
		{"oauth enabled", []NamedBladeServer{stdio("o", func(c *BladeServerConfig) { c.OAuth = &BladeOAuth{Provider: "github", Enabled: &on} })}, "", "", "o", "BL-OAU-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fakes := map[string]*fakeServer{}
			for _, s := range tt.servers {
				fakes[s.Name] = newFake(s.Name, echo("t"))
			}
			h, err := bladeHost(t, Options{}, tt.servers, fakes)
			if tt.rule != "" {
				wantErr(t, "NewSession", err, tt.kind, tt.rule)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := state(h, tt.failed)
			if s.Status != StatusFailed || RuleOf(s.Err) != tt.failure {
				t.Errorf("%s: Expected failed with %s; Actual %+v", tt.failed, tt.failure, s)
			}
			wantErr(t, "mcpConnect of it", h.MCPConnect(context.Background(), tt.failed), KindOf(s.Err), tt.failure)
		})
	}
}

// TestBladeToolNamesCollide: two tools of one server equal after
// normalization fail that server; other servers are unaffected.
func TestBladeToolNamesCollide(t *testing.T) {
	fakes := map[string]*fakeServer{"data": newFake("data", echo("get-data"), echo("get_data")), "other": newFake("other", echo("search"))}
	h, err := bladeHost(t, Options{}, []NamedBladeServer{stdio("other"), stdio("data")}, fakes)
	if err != nil {
		t.Fatal(err)
	}
	if s := state(h, "data"); s.Status != StatusFailed || RuleOf(s.Err) != "BL-NAME-03" || s.Connected {
		t.Errorf("data: Expected failed with BL-NAME-03 and no connection; Actual %+v", s)
	}
	if s := state(h, "other"); s.Status != StatusConnected {
		t.Errorf("other: Expected connected; Actual %+v", s)
	}
}

// TestBladeToolOrder: the own tools first, then the MCP tools, each group
// in UTF-16 code-unit order, whatever the order of configuration; an MCP
// tool named like an application tool never replaces it.
func TestBladeToolOrder(t *testing.T) {
	fakes := map[string]*fakeServer{"zeta": newFake("zeta", echo("b"), echo("Read")), "alpha": newFake("alpha", echo("a"))}
	model := &script{}
	own := []Tool{&hostTool{name: "\U0001F600x", schema: &stdSchema{}}, &hostTool{name: "Read", schema: &stdSchema{}}, &hostTool{name: "\uFF5Ax", schema: &stdSchema{}}}
	h, err := bladeHost(t, Options{Model: model, Tools: own}, []NamedBladeServer{stdio("zeta"), stdio("alpha")}, fakes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	// U+1F600 is two surrogates from U+D83D: before U+FF5A in code units,
	// after it in code points.
	want := []string{"Read", ContextTool, "\U0001F600x", "\uFF5Ax", "mcp__alpha__a", "mcp__zeta__Read", "mcp__zeta__b"}
	if got := model.offered(); !slices.Equal(got, want) {
		t.Errorf("tools offered:\n  Expected: %q\n  Actual:   %q", want, got)
	}
}

// TestBladePermissionCallback: the callback gets the exposed name; allow
// runs the tool without confirmation, ask needs it, deny and a failing
// callback deny, citing Blade's rules.
func TestBladePermissionCallback(t *testing.T) {
	tests := []struct {
		answer  string
		err     error
		confirm Decision
		ran     bool
		rule    string
	}{
		{"allow", nil, Deny, true, ""},
		{"ask", nil, Allow, true, ""},
		{"ask", nil, Deny, false, "BL-PERM-04"},
		{"deny", nil, Allow, false, "BL-PERM-03"},
		{"allow", errors.New("down"), Allow, false, "BL-PERM-03"},
	}
	for _, tt := range tests {
		t.Run(tt.answer, func(t *testing.T) {
			fakes := map[string]*fakeServer{"fs": newFake("fs", echo("read_file"))}
			var asked []string
			confirm := &approvals{answer: map[string]Decision{"mcp__fs__read_file": tt.confirm}}
			model := calls(call(1, "mcp__fs__read_file", `{}`))
			h, err := bladeHost(t, Options{Model: model, Approval: confirm, PermissionFunc: func(_ context.Context, name string) (string, error) {
				asked = append(asked, name)
				return tt.answer, tt.err
			}}, []NamedBladeServer{stdio("fs", func(c *BladeServerConfig) { c.AlwaysAllow = []string{"read_file"} })}, fakes)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := h.Send(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(asked, []string{"mcp__fs__read_file"}) {
				t.Errorf("the callback was asked about %v, not the exposed name", asked)
			}
			if got := len(fakes["fs"].called()) == 1; got != tt.ran {
				t.Errorf("the tool ran: Expected %v, Actual %v", tt.ran, got)
			}
			if msg := model.toolMessages()[0]; tt.rule != "" {
				contains(t, "the tool message", msg.Text, tt.rule)
			}
			if tt.answer == "allow" && tt.err == nil && len(confirm.capabilities()) != 0 {
				t.Errorf("allow asked for confirmation: %v", confirm.capabilities())
			}
		})
	}
}

// TestBladeHealthChecks: an enabled health check pings every intervalMs
// and, after failed pings, takes the server out of connected with
// BL-HC-02; a server without one is never pinged. The bubble's clock makes
// the intervals instant.
func TestBladeHealthChecks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		on, off, every := true, false, 100
		var pings atomic.Int32
		var failing atomic.Bool
		sick := newFake("sick", echo("t"))
		sick.srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, m string, r mcp.Request) (mcp.Result, error) {
				if m == "ping" {
					pings.Add(1)
					if failing.Load() {
						return nil, errors.New("not now")
					}
				}
				return next(ctx, m, r)
			}
		})
		quiet := newFake("quiet", echo("t"))
		check := func(enabled *bool, ms *int) func(*BladeServerConfig) {
			return func(c *BladeServerConfig) { c.HealthCheck = &BladeHealthCheck{Enabled: enabled, IntervalMs: ms} }
		}
		h, err := bladeHost(t, Options{}, []NamedBladeServer{stdio("sick", check(&on, &every)), stdio("quiet", check(&off, nil))},
			map[string]*fakeServer{"sick": sick, "quiet": quiet})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(550 * time.Millisecond)
		synctest.Wait()
		if n := pings.Load(); n != 5 {
			t.Errorf("pings in 550 ms at 100 ms: Expected 5, Actual %d", n)
		}
		if quiet.count("ping") != 0 {
			t.Errorf("a server whose health check is disabled was pinged %d times", quiet.count("ping"))
		}
		failing.Store(true)
		time.Sleep(time.Duration(healthFailures) * 100 * time.Millisecond)
		synctest.Wait()
		if s := state(h, "sick"); s.Status != StatusFailed || RuleOf(s.Err) != "BL-HC-02" || s.Connected {
			t.Errorf("after %d failed pings: Expected failed with BL-HC-02, disconnected; Actual %+v", healthFailures, s)
		}
		n := pings.Load()
		time.Sleep(time.Second)
		synctest.Wait()
		if pings.Load() != n {
			t.Errorf("the checks went on after the connection closed: %d more pings", pings.Load()-n)
		}
		if err := h.MCPReconnect(context.Background(), "sick"); err != nil {
			t.Fatal(err)
		}
		h.Close()
		m := pings.Load()
		time.Sleep(time.Second)
		synctest.Wait()
		if pings.Load() != m {
			t.Errorf("the checks outlived Close: %d more pings", pings.Load()-m)
		}
	})
}

// TestBladeDefaultHealthInterval: an enabled health check that names no
// interval pings every 30 s.
func TestBladeDefaultHealthInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		on := true
		f := newFake("s", echo("t"))
		if _, err := bladeHost(t, Options{}, []NamedBladeServer{stdio("s", func(c *BladeServerConfig) { c.HealthCheck = &BladeHealthCheck{Enabled: &on} })},
			map[string]*fakeServer{"s": f}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(DefaultHealthInterval - time.Millisecond)
		synctest.Wait()
		if n := f.count("ping"); n != 0 {
			t.Errorf("pings before 30 s: %d", n)
		}
		time.Sleep(2 * time.Millisecond)
		synctest.Wait()
		if n := f.count("ping"); n != 1 {
			t.Errorf("pings at 30 s: Expected 1, Actual %d", n)
		}
	})
}
