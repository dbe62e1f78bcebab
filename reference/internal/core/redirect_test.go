package core

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestRedirectsAreRefused: an MCP server that answers with a redirect is
// refused, and the redirect is never followed (LA-NET-07), under both
// profiles.
func TestRedirectsAreRefused(t *testing.T) {
	var followed atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { followed.Add(1) }))
	t.Cleanup(target.Close)
	for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			srv := httptest.NewServer(http.RedirectHandler(target.URL+"/mcp", status))
			t.Cleanup(srv.Close)
			entry := ServerConfig{Type: TransportHTTP, URL: srv.URL}
			h := testHost(t, LiteAgent(), Options{Permission: allowAll}, nil)
			err := h.MCP().Register(context.Background(), "web", entry)
			wantErr(t, "register() of a redirecting server", err, KindSecurity, "LA-NET-07")
			contains(t, "the error", err.Error(), target.URL+"/mcp")

			b, err := NewSession(context.Background(), Options{Environ: []string{}}, []NamedBladeServer{{Name: "web", Config: BladeServerConfig{ServerConfig: entry}}})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if s := state(b, "web"); s.Status != StatusFailed || RuleOf(s.Err) != "LA-NET-07" {
				t.Errorf("a Blade session's redirecting server\nExpected: failed with LA-NET-07\n  Actual: %s %v", s.Status, s.Err)
			}
			if n := followed.Load(); n != 0 {
				t.Errorf("LA-NET-07: Expected the redirect never followed; Actual %d requests to its target", n)
			}
		})
	}
}
