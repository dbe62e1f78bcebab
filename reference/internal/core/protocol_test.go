package core

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOldServerIsRefused checks the protocol pin: a server that speaks only
// an older protocol version is refused with a protocol error, and is never
// sent the legacy initialize handshake go-sdk would fall back to.
func TestOldServerIsRefused(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "old", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	mcp.AddTool(srv, &mcp.Tool{Name: "t"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	var mu sync.Mutex
	var methods []string
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			mu.Lock()
			methods = append(methods, method)
			mu.Unlock()
			return next(ctx, method, req)
		}
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true}))
	defer hs.Close()

	a, err := New(Options{Workdir: t.TempDir(), Environ: []string{}, Permission: &Policy{Allow: []string{"mcp_connect"}}}, LiteAgent())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	err = a.MCP().Register(context.Background(), "old", ServerConfig{Type: "http", URL: hs.URL})
	if KindOf(err) != KindProtocol || RuleOf(err) != "LA-TRN-02" || !strings.Contains(err.Error(), "2026-07-28") {
		t.Fatalf("got %v, want a LA-TRN-02 protocol error naming 2026-07-28", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, m := range methods {
		if m == "initialize" {
			t.Errorf("the server received initialize: the client fell back to an older protocol (%v)", methods)
		}
	}
	if len(a.MCP().List()) != 0 {
		t.Error("the refused server is in the registry")
	}
}

// TestRefusalsSayWhatWasSeen: a server that cannot be used is refused with
// the right kind, and the message names what was expected, what was seen
// and what to do.
func TestRefusalsSayWhatWasSeen(t *testing.T) {
	handler := func(srv *mcp.Server, opts *mcp.StreamableHTTPOptions) http.Handler {
		return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts)
	}
	newServer := func(versions ...string) *mcp.Server {
		return mcp.NewServer(&mcp.Implementation{Name: "old", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: versions})
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		http http.Handler // nil: cfg is used as it is
		cfg  ServerConfig
		kind Kind
		rule string
		says []string
	}{
		{"go-sdk's stateful HTTP server", handler(newServer(), &mcp.StreamableHTTPOptions{}), ServerConfig{}, KindProtocol, "LA-TRN-02",
			[]string{"does not speak MCP 2026-07-28", `offers MCP "2025-11-25"`, "upgrade the server"}},
		{"an old server refusing 2026-07-28", handler(newServer("2025-06-18"), &mcp.StreamableHTTPOptions{Stateless: true}), ServerConfig{}, KindProtocol, "LA-TRN-02",
			[]string{"server/discover failed with", `speaks MCP "2025-06-18"`, "upgrade the server"}},
		{"an HTTP status for server/discover", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "this server knows no server/discover", http.StatusBadRequest)
		}), ServerConfig{}, KindProtocol, "LA-TRN-02",
			[]string{"HTTP 400 Bad Request", "this server knows no server/discover", "upgrade the server"}},
		{"a stdio server that exits", nil, ServerConfig{Command: exe, Args: []string{exitServerCommand}}, KindTransport, "LA-TRN-03",
			[]string{"exited with status 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			if tt.http != nil {
				hs := httptest.NewServer(tt.http)
				defer hs.Close()
				cfg = ServerConfig{Type: "http", URL: hs.URL}
			}
			a, err := New(Options{Workdir: t.TempDir(), Environ: os.Environ(), Permission: &Policy{Allow: []string{"mcp_connect"}}}, LiteAgent())
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			err = a.MCP().Register(context.Background(), "srv", cfg)
			if KindOf(err) != tt.kind || RuleOf(err) != tt.rule {
				t.Fatalf("got %v, want a %s %s error", err, tt.rule, tt.kind)
			}
			for _, s := range tt.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%v\ndoes not say %q", err, s)
				}
			}
			if !strings.Contains(err.Error(), `"srv"`) && !strings.Contains(err.Error(), "srv:") {
				t.Errorf("%v does not name the server", err)
			}
		})
	}
}
