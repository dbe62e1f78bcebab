package reference_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpconform/mcpconform/reference"
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

	a, err := reference.New(reference.Options{Workdir: t.TempDir(), Environ: []string{}, Permission: &reference.Policy{Allow: []string{"mcp_connect"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	err = a.MCP().Register(context.Background(), "old", reference.ServerConfig{Type: "http", URL: hs.URL})
	if reference.KindOf(err) != reference.KindProtocol || reference.RuleOf(err) != "LA-TRN-02" || !strings.Contains(err.Error(), "2026-07-28") {
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
