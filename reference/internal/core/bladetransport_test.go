package core

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// headerLog records one header of every request a handler gets.
type headerLog struct {
	mu     sync.Mutex
	name   string
	values []string
}

func (l *headerLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.values = append(l.values, r.Method+" "+r.Header.Get(l.name))
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *headerLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.values)
}

// TestBladeTransports: a Blade session speaks Streamable HTTP to an http
// entry and the legacy HTTP+SSE transport to an sse entry, sends the
// entry's headers on every request (BL-TRN-03..06), and a server that
// does not speak its entry's transport reports status error with the
// transport's rule.
func TestBladeTransports(t *testing.T) {
	fake := newFake("docs", echo("search"))
	getServer := func(*http.Request) *mcp.Server { return fake.srv }
	handlers := map[string]http.Handler{
		TransportHTTP: mcp.NewStreamableHTTPHandler(getServer, nil),
		TransportSSE:  mcp.NewSSEHandler(getServer, nil),
	}
	tests := []struct {
		name, entry, served string
		rule                string // of the failure, "" when it connects
	}{
		{"http entry, Streamable HTTP server", TransportHTTP, TransportHTTP, ""},
		{"sse entry, SSE server", TransportSSE, TransportSSE, ""},
		{"http entry, SSE-only server", TransportHTTP, TransportSSE, "BL-TRN-05"},
		{"sse entry, Streamable-HTTP-only server", TransportSSE, TransportHTTP, "BL-TRN-03"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := &headerLog{name: "X-Team"}
			srv := httptest.NewServer(log.wrap(handlers[tt.served]))
			t.Cleanup(srv.Close)
			model := calls(call(1, "mcp__docs__search", `{"q":"go"}`))
			entry := NamedBladeServer{Name: "docs", Config: BladeServerConfig{ServerConfig: ServerConfig{
				Type: tt.entry, URL: srv.URL, Headers: map[string]string{"X-Team": "blue"},
			}}}
			h, err := NewSession(context.Background(), Options{Environ: []string{}, Model: model, Permission: allowAll}, []NamedBladeServer{entry})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { h.Close() })
			s := state(h, "docs")
			if tt.rule != "" {
				if s.Status != StatusFailed || RuleOf(s.Err) != tt.rule {
					t.Errorf("Expected: status failed with %s\n  Actual: %s, %v", tt.rule, s.Status, s.Err)
				}
				return
			}
			if s.Status != StatusConnected || len(s.Tools) != 1 {
				t.Fatalf("Expected: connected with one tool\n  Actual: %+v", s)
			}
			if _, err := h.Send(context.Background(), "search"); err != nil {
				t.Fatal(err)
			}
			if msgs := model.toolMessages(); len(msgs) != 1 || msgs[0].IsError {
				t.Fatalf("the call over %s: Expected one result, Actual %+v", tt.entry, msgs)
			}
			contains(t, "the call's result", model.toolMessages()[0].Text, `{\"q\":\"go\"}`)
			reqs := log.all()
			// The SSE transport opens its event stream first; Streamable
			// HTTP starts with a POST of initialize.
			first := map[string]string{TransportSSE: "GET blue", TransportHTTP: "POST blue"}[tt.entry]
			if len(reqs) == 0 || reqs[0] != first {
				t.Errorf("the transport of a %s entry\nExpected: first request %q\n  Actual: %q", tt.entry, first, reqs)
			}
			for _, r := range reqs {
				if !slices.Contains([]string{"GET blue", "POST blue", "DELETE blue"}, r) {
					t.Errorf("BL-TRN-04/06: every request carries the entry's headers\nExpected: X-Team: blue\n  Actual: %q among %q", r, reqs)
				}
			}
			if err := h.MCPDisconnect(context.Background(), "docs"); err != nil {
				t.Fatal(err)
			}
			if s := state(h, "docs"); s.Connected {
				t.Errorf("after mcpDisconnect: Expected not connected, Actual %+v", s)
			}
		})
	}
}
