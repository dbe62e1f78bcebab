package core

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRegister: register() is atomic: it returns once the server is
// approved, connected and discovered, or leaves nothing; names are unique
// until unregistered.
func TestRegister(t *testing.T) {
	fakes := map[string]*fakeServer{"docs": newFake("docs", echo("search")), "bad": newFake("bad", echo("a.b"))}
	h := testHost(t, LiteAgent(), Options{Permission: allowAll, MCPServers: declared("docs")}, fakes)
	ctx := context.Background()
	entry := ServerConfig{Command: "x"}

	wantErr(t, "register() of a declared name", h.MCP().Register(ctx, "docs", entry), KindConflict, "LA-REG-05")
	wantErr(t, "register() of a bad alias", h.MCP().Register(ctx, "a.b", entry), KindName, "LA-NAME-03")
	wantErr(t, "register() of an invalid entry", h.MCP().Register(ctx, "c", ServerConfig{Type: "http", URL: "http://example.com/mcp"}), KindSecurity, "LA-NET-03")
	wantErr(t, "register() of a server with an invalid tool", h.MCP().Register(ctx, "bad", entry), KindName, "LA-NAME-06")
	if names := listNames(h); !slices.Equal(names, []string{"docs"}) {
		t.Fatalf("after failed registrations: Expected only docs, Actual %v", names)
	}

	fakes["more"] = newFake("more", echo("t"))
	if err := h.MCP().Register(ctx, "more", entry); err != nil {
		t.Fatal(err)
	}
	l := h.MCP().List()
	if len(l) != 2 || l[1].Name != "more" || l[1].Status != StatusConnected || l[1].Source != SourceInstance || !slices.Equal(l[1].Tools, []string{"mcp__more__t"}) {
		t.Fatalf("after register(): Expected more connected from instance with its tool; Actual %+v", l)
	}
	if l[0].Status != StatusConfigured {
		t.Errorf("register() connected docs too: %+v", l[0])
	}
	wantErr(t, "register() twice", h.MCP().Register(ctx, "more", entry), KindConflict, "LA-REG-05")

	if err := h.MCP().Unregister(ctx, "more"); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "unregister() of an unknown name", h.MCP().Unregister(ctx, "more"), KindNotFound, "LA-REG-12")
	if err := h.MCP().Register(ctx, "more", entry); err != nil {
		t.Errorf("register() after unregister(): %v", err)
	}
}

// listNames returns the names List reports.
func listNames(h *Host) []string {
	var out []string
	for _, s := range h.MCP().List() {
		out = append(out, s.Name)
	}
	return out
}

// TestListHoldsNoCredentials: list() shows what a server runs or contacts,
// never its env, headers, or the query of its URL.
func TestListHoldsNoCredentials(t *testing.T) {
	h := testHost(t, LiteAgent(), Options{MCPServers: []NamedServer{
		{Name: "p", Config: ServerConfig{Command: "node", Args: []string{"s.js"}, Env: map[string]string{"TOKEN": "s3cret"}}},
		{Name: "h", Config: ServerConfig{Type: TransportHTTP, URL: "https://x.test/mcp?key=s3cret", Headers: map[string]string{"X-Key": "s3cret"}}},
	}}, nil)
	raw, _ := json.Marshal(h.MCP().List())
	if strings.Contains(string(raw), "s3cret") {
		t.Errorf("list() holds a credential: %s", raw)
	}
	contains(t, "list()", string(raw), `"target":"node s.js"`, `"target":"https://x.test/mcp"`, `"transport":"http"`)
}

// TestMergeSources: the files and the option merge; equal entries are one;
// the same name with another entry is an error naming both places.
func TestMergeSources(t *testing.T) {
	tests := []struct {
		name    string
		project string
		global  string
		option  []NamedServer
		want    []string // names, in order, with their sources
		rule    string
	}{
		{"distinct names merge", `{"mcpServers":{"p":{"command":"x"}}}`, `{"mcpServers":{"g":{"command":"y"}}}`, declared("o"),
			[]string{"g:global", "p:project", "o:option"}, ""},
		{"equal entries are one", `{"mcpServers":{"s":{"command":"x","type":"stdio"}}}`, `{"mcpServers":{"s":{"command":"x"}}}`, nil,
			[]string{"s:global"}, ""},
		{"different entries conflict", `{"mcpServers":{"s":{"command":"x"}}}`, "", []NamedServer{{Name: "s", Config: ServerConfig{Command: "y"}}},
			nil, "LA-REG-04"},
		{"33 servers", "", "", manyServers(33), nil, "LA-LIM-01"},
		{"32 servers", "", "", manyServers(32), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, home := t.TempDir(), t.TempDir()
			if tt.project != "" {
				writeFile(t, ProjectConfigPath(dir), tt.project)
			}
			if tt.global != "" {
				writeFile(t, GlobalConfigPath(home+"/.lite-agent"), tt.global)
			}
			h, err := New(Options{Workdir: dir, Environ: []string{"HOME=" + home}, MCPServers: tt.option}, LiteAgent())
			if RuleOf(err) != tt.rule {
				t.Fatalf("New:\n  Expected: rule %q\n  Actual:   %v", tt.rule, err)
			}
			if err != nil {
				return
			}
			defer h.Close()
			if tt.want == nil {
				return
			}
			var got []string
			for _, s := range h.MCP().List() {
				got = append(got, s.Name+":"+string(s.Source))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("the registry:\n  Expected: %v\n  Actual:   %v", tt.want, got)
			}
		})
	}
}

// manyServers declares n stdio servers.
func manyServers(n int) []NamedServer {
	var out []NamedServer
	for i := range n {
		out = append(out, NamedServer{Name: fmt.Sprintf("s%d", i), Config: ServerConfig{Command: "x"}})
	}
	return out
}

// TestStrictAndTransports: strictMcpConfig reads no file, not even a
// broken one; mcpTransports refuses other transports wherever declared.
func TestStrictAndTransports(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, ProjectConfigPath(dir), `{not json`)
	h, err := New(Options{Workdir: dir, Environ: []string{}, StrictMCPConfig: true}, LiteAgent())
	if err != nil {
		t.Fatalf("strict mode read the broken file: %v", err)
	}
	h.Close()
	_, err = New(Options{Workdir: t.TempDir(), Environ: []string{}, MCPTransports: []string{"http"}, MCPServers: declared("s")}, LiteAgent())
	wantErr(t, "a stdio server when only http is allowed", err, KindConfig, "LA-SEC-21")
	_, err = New(Options{Workdir: t.TempDir(), Environ: []string{}, MCPTransports: []string{"ws"}}, LiteAgent())
	wantErr(t, "an unknown transport", err, KindConfig, "LA-SEC-21")
}

// TestDiscoveryRefusesTheWholeServer: any problem of one tool, or of the
// catalog, fails the whole server with the rule that decided it.
func TestDiscoveryRefusesTheWholeServer(t *testing.T) {
	many := func(n int) []fakeTool {
		var ts []fakeTool
		for i := range n {
			ts = append(ts, echo(fmt.Sprintf("t%03d", i)))
		}
		return ts
	}
	big := strings.Repeat("d", 40<<10)
	huge := func(n int) []fakeTool {
		var ts []fakeTool
		for i := range n {
			ts = append(ts, fakeTool{name: fmt.Sprintf("t%d", i), schema: `{"type":"object","description":"` + big + `"}`})
		}
		return ts
	}
	tests := []struct {
		name  string
		fake  *fakeServer
		alias string
		kind  Kind
		rule  string
	}{
		{"128 tools", newFake("s", many(128)...), "s", "", ""},
		{"129 tools", newFake("s", many(129)...), "s", KindLimit, "LA-LIM-02"},
		{"an invalid name", newFake("s", echo("ok"), echo("bad name")), "s", KindName, "LA-NAME-06"},
		{"a full name too long", newFake("s", echo(strings.Repeat("t", 60))), "s", KindName, "LA-NAME-05"},
		{"an invalid schema", newFake("s", fakeTool{name: "t", schema: `{"type":"object","properties":{"a":{"type":7}}}`}), "s", KindValidation, "LA-VAL-02"},
		{"a catalog over 512 KiB", newFake("s", huge(14)...), "s", KindLimit, "LA-LIM-04"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := testHost(t, LiteAgent(), Options{Permission: allowAll}, map[string]*fakeServer{tt.alias: tt.fake})
			err := h.MCP().Register(context.Background(), tt.alias, ServerConfig{Command: "x"})
			if tt.rule == "" {
				if err != nil {
					t.Fatalf("register(): %v", err)
				}
				return
			}
			wantErr(t, "register()", err, tt.kind, tt.rule)
			if len(h.MCP().List()) != 0 {
				t.Error("the refused server is in the registry")
			}
		})
	}
}

// TestDiscoveryPages: at most 16 pages of tools/list are read; the 17th is
// never asked for.
func TestDiscoveryPages(t *testing.T) {
	for _, pages := range []int{16, 17} {
		t.Run(fmt.Sprint(pages), func(t *testing.T) {
			f := newFake("s")
			f.srv = mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, &mcp.ServerOptions{PageSize: 1})
			for i := range pages {
				f.add(echo(fmt.Sprintf("t%02d", i)))
			}
			var lists int
			f.srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
				return func(ctx context.Context, m string, r mcp.Request) (mcp.Result, error) {
					if m == "tools/list" {
						lists++
					}
					return next(ctx, m, r)
				}
			})
			h := testHost(t, LiteAgent(), Options{Permission: allowAll}, map[string]*fakeServer{"s": f})
			err := h.MCP().Register(context.Background(), "s", ServerConfig{Command: "x"})
			if pages == 16 && err != nil {
				t.Fatalf("16 pages: %v", err)
			}
			if pages == 17 {
				wantErr(t, "17 pages", err, KindLimit, "LA-LIM-03")
			}
			if lists > 16 {
				t.Errorf("tools/list requests: Expected at most 16 (twice with the probe), Actual %d", lists)
			}
		})
	}
}

// TestDuplicateTools: a server that offers a name twice is refused; names
// that differ in letter case are two tools.
func TestDuplicateTools(t *testing.T) {
	for _, tt := range []struct {
		names []string
		rule  string
	}{{[]string{"a", "a"}, "LA-NAME-08"}, {[]string{"a", "A"}, ""}} {
		f := newFake("s", echo("x"))
		f.srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, m string, r mcp.Request) (mcp.Result, error) {
				res, err := next(ctx, m, r)
				if lr, ok := res.(*mcp.ListToolsResult); ok {
					lr.Tools = nil
					for _, n := range tt.names {
						lr.Tools = append(lr.Tools, &mcp.Tool{Name: n, InputSchema: map[string]any{"type": "object"}})
					}
				}
				return res, err
			}
		})
		h := testHost(t, LiteAgent(), Options{Permission: allowAll}, map[string]*fakeServer{"s": f})
		err := h.MCP().Register(context.Background(), "s", ServerConfig{Command: "x"})
		if RuleOf(err) != tt.rule {
			t.Errorf("tools %v:\n  Expected: rule %q\n  Actual:   %v", tt.names, tt.rule, err)
		}
	}
}

// TestCollisionAcrossServers: a full name another server has taken fails
// the later server (LA-NAME-09); Blade cites BL-NAME-03.
func TestCollisionAcrossServers(t *testing.T) {
	for _, p := range []Profile{LiteAgent(), Blade()} {
		t.Run(p.Name, func(t *testing.T) {
			fakes := map[string]*fakeServer{"a_": newFake("a_", echo("b")), "a": newFake("a", echo("_b"))}
			h := testHost(t, p, Options{Permission: allowAll}, fakes)
			ctx := context.Background()
			if _, err := h.reg.connectAndCommit(ctx, &server{name: "a_", cfg: ServerConfig{Command: "x"}, status: StatusConfigured}, true); err != nil {
				t.Fatal(err)
			}
			_, err := h.reg.connectAndCommit(ctx, &server{name: "a", cfg: ServerConfig{Command: "x"}, status: StatusConfigured}, true)
			wantErr(t, "the second server", err, KindName, p.Rules.Collision)
		})
	}
}

// TestStaleServersAreConnectedAgain: a changed tool list, or a lost
// connection, makes a server stale; the next run connects it again, asking
// mcp_connect again, and offers its tools as they are now. It runs in a
// synctest bubble: go-sdk debounces list_changed, and the host notices a
// lost session on a goroutine of its own.
func TestStaleServersAreConnectedAgain(t *testing.T) {
	for _, how := range []string{"list changed", "connection lost"} {
		synctest.Test(t, func(t *testing.T) {
			f := newFake("s", echo("a"))
			ask := &approvals{}
			model := &script{}
			h := testHost(t, LiteAgent(), Options{MCPServers: declared("s"), Model: model, Approval: ask}, map[string]*fakeServer{"s": f})
			ctx := context.Background()
			if _, err := h.Send(ctx, "one"); err != nil {
				t.Fatal(err)
			}
			switch how {
			case "list changed":
				f.add(echo("b"))
			case "connection lost":
				f.dropSessions()
			}
			time.Sleep(time.Second) // past go-sdk's debounce, on the bubble's clock
			synctest.Wait()
			if st := h.MCP().List()[0].Status; st != StatusStale {
				t.Fatalf("after the %s: Expected s stale, Actual %s", how, st)
			}
			if how == "connection lost" {
				f.add(echo("b"))
			}
			if _, err := h.Send(ctx, "two"); err != nil {
				t.Fatal(err)
			}
			if got := ask.capabilities(); !slices.Equal(got, []string{ConnectCapability, ConnectCapability}) {
				t.Errorf("asked: Expected mcp_connect at both runs, Actual %v", got)
			}
			reqs := model.requests()
			if n := len(reqs[len(reqs)-1].Tools); n != 3 {
				t.Errorf("tools of the second run: Expected a, b and context, Actual %d", n)
			}
			if l := h.MCP().List()[0]; l.Status != StatusConnected || len(l.Tools) != 2 {
				t.Errorf("after the refresh: Expected connected with 2 tools, Actual %+v", l)
			}
		})
	}
}

// TestAFailedServerIsTriedAgain: a server that failed at one run is
// connected at the next, and the others stay connected meanwhile.
func TestAFailedServerIsTriedAgain(t *testing.T) {
	ok, flaky := newFake("ok", echo("t")), newFake("flaky", echo("t"))
	ask := &approvals{answer: map[string]Decision{}}
	h := testHost(t, LiteAgent(), Options{MCPServers: declared("ok", "flaky"), Model: &script{}, Approval: ask}, map[string]*fakeServer{"ok": ok, "flaky": flaky})
	deny := 0
	h.opts.Approval = ApprovalFunc(func(ctx context.Context, req ApprovalRequest) (Decision, error) {
		if req.Server == "flaky" && deny == 0 {
			deny++
			return Deny, nil
		}
		return Allow, nil
	})
	_, err := h.Send(context.Background(), "one")
	wantErr(t, "the first run", err, KindPermission, "LA-SEC-02")
	if l := h.MCP().List(); l[0].Status != StatusConnected || l[1].Status != StatusFailed {
		t.Fatalf("after the first run: Expected ok connected and flaky failed; Actual %+v", l)
	}
	if _, err := h.Send(context.Background(), "two"); err != nil {
		t.Fatalf("the second run: %v", err)
	}
	if l := h.MCP().List(); l[1].Status != StatusConnected || ok.count("server/discover") != 2 {
		t.Errorf("after the second run: Expected flaky connected and ok not connected again; Actual %+v, ok discovered %d times", l, ok.count("server/discover"))
	}
}
