package core

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// TestBladeRedirect checks the session's redirect URI before any flow:
// Blade's three exactly, the default when none is given, and the rule
// that refuses every other (BL-OAU-03..05).
func TestBladeRedirect(t *testing.T) {
	tests := []struct {
		uri, want, rule string
	}{
		{"", DefaultBladeRedirect, ""},
		{"http://localhost:7777/oauth/callback", "http://localhost:7777/oauth/callback", ""},
		{"http://127.0.0.1:7777/oauth/callback", "http://127.0.0.1:7777/oauth/callback", ""},
		{"http://[::1]:7777/oauth/callback", "http://[::1]:7777/oauth/callback", ""},
		{"HTTP://LOCALHOST:7777/oauth/callback", "HTTP://LOCALHOST:7777/oauth/callback", ""},
		{"http://localhost:7778/oauth/callback", "", "BL-OAU-04"},
		{"http://localhost:7777/callback", "", "BL-OAU-04"},
		{"https://localhost:7777/oauth/callback", "", "BL-OAU-04"},
		{"http://localhost:7777/oauth/callback/x", "", "BL-OAU-04"},
		{"http://localhost:7777/oauth/callback?x=1", "", "BL-OAU-04"},
		{"http://localhost/oauth/callback", "", "BL-OAU-04"},
		{"http://127.0.0.2:7777/oauth/callback", "", "BL-OAU-04"},
		{"/oauth/callback", "", "BL-OAU-04"},
		{"https://app.example.com/oauth/callback", "", "BL-OAU-05"},
		{"http://192.168.1.5:7777/oauth/callback", "", "BL-OAU-05"},
	}
	for _, tt := range tests {
		got, err := bladeRedirect(tt.uri, fault.Set{})
		if tt.rule != "" {
			wantErr(t, tt.uri, err, KindSecurity, tt.rule)
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q:\n  Expected: %q\n  Actual:   %q, %v", tt.uri, tt.want, got, err)
		}
	}
}

// TestLoopbackListener runs one login's listener on a free loopback port
// (the redirect's port is not checked there): an unknown state is refused
// and the login goes on, the login's own state is taken once, a second
// delivery is refused, and nothing listens once the login returned.
func TestLoopbackListener(t *testing.T) {
	a := &Host{opts: Options{Clock: realClock{}}}
	var redirect string
	get := func(q string) int {
		resp, err := http.Get(redirect + "?" + q)
		if err != nil {
			return 0
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	var statuses []int
	a.opts.OpenBrowser = func(ctx context.Context, server, authURL string) error {
		statuses = append(statuses, get("code=c1&state=other-state"), get("code=c1&state=s-123456789"), get("code=c1&state=s-123456789"))
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// The port was free a moment ago: another process may take it before
	// the listener does, and the login then fails before it began. Another
	// port then, a bounded number of times.
	var cb string
	var err error
	for range 10 {
		redirect = "http://127.0.0.1:" + freePort(t) + "/oauth/callback"
		cb, err = a.runLoopbackLogin(ctx, "docs", redirect, "http://127.0.0.1:1/authorize?"+url.Values{"state": {"s-123456789"}}.Encode())
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindTransport || statuses != nil {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{400, 200, 400}; !slices.Equal(statuses, want) {
		t.Errorf("the listener's answers:\n  Expected: %v\n  Actual:   %v", want, statuses)
	}
	if !strings.HasPrefix(cb, redirect+"?") || !strings.Contains(cb, "state=s-123456789") {
		t.Errorf("the callback:\n  Expected: %s?...state=s-123456789\n  Actual:   %s", redirect, cb)
	}
	if s := get("code=c1&state=s-123456789"); s != 0 {
		t.Errorf("after the login:\n  Expected: no listener\n  Actual:   HTTP %d", s)
	}
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}
