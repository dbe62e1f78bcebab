package core

import (
	"net/url"
	"strings"
	"testing"
)

// The login the callback tests check callbacks against.
const (
	testRedirect = "http://127.0.0.1:8976/oauth/callback"
	testState    = "Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5"
	testIssuer   = "https://as.example.test"
)

func TestCheckCallback(t *testing.T) {
	ok := testRedirect + "?code=c1&state=" + testState + "&iss=" + url.QueryEscape(testIssuer)
	tests := []struct {
		name, raw   string
		issRequired bool
		rule        string // "" accepts
	}{
		{"whole and right", ok, true, ""},
		{"no iss, not required", testRedirect + "?code=c1&state=" + testState, false, ""},
		{"no iss, required", testRedirect + "?code=c1&state=" + testState, true, "LA-OAU-19"},
		{"wrong iss", testRedirect + "?code=c1&state=" + testState + "&iss=https://evil.test", false, "LA-OAU-19"},
		{"wrong state", testRedirect + "?code=c1&state=other", false, "LA-OAU-17"},
		{"no state", testRedirect + "?code=c1", false, "LA-OAU-17"},
		{"no code", testRedirect + "?state=" + testState, false, "LA-OAU-17"},
		{"https scheme", strings.Replace(ok, "http://", "https://", 1), false, "LA-OAU-17"},
		{"other host", strings.Replace(ok, "127.0.0.1", "localhost", 1), false, "LA-OAU-17"},
		{"other port", strings.Replace(ok, ":8976", ":8977", 1), false, "LA-OAU-17"},
		{"no port", strings.Replace(ok, ":8976", "", 1), false, "LA-OAU-17"},
		{"other path", strings.Replace(ok, "/oauth/callback", "/oauth/callback2", 1), false, "LA-OAU-17"},
		{"trailing slash", strings.Replace(ok, "/oauth/callback", "/oauth/callback/", 1), false, "LA-OAU-17"},
		{"fragment", ok + "#x", false, "LA-OAU-17"},
		{"empty fragment", ok + "#", false, "LA-OAU-17"},
		{"userinfo", strings.Replace(ok, "http://", "http://u:p@", 1), false, "LA-OAU-17"},
		{"two codes", ok + "&code=c2", false, "LA-OAU-18"},
		{"two states", ok + "&state=" + testState, false, "LA-OAU-18"},
		{"two isses", ok + "&iss=" + url.QueryEscape(testIssuer), false, "LA-OAU-18"},
		{"error", testRedirect + "?error=access_denied&state=" + testState, false, "LA-OAU-20"},
		{"error beside a code", ok + "&error=access_denied", false, "LA-OAU-20"},
		{"semicolon query", testRedirect + "?code=c1;state=" + testState, false, "LA-OAU-17"},
		{"not a URL", "::", false, "LA-OAU-17"},
	}
	a := &Host{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, err := a.checkCallback(tt.raw, testRedirect, testState, testIssuer, tt.issRequired)
			switch {
			case tt.rule == "" && err != nil:
				t.Fatalf("refused %q: %v", tt.raw, err)
			case tt.rule == "" && code != "c1":
				t.Fatalf("accepted %q with code %q, want c1", tt.raw, code)
			case tt.rule != "" && err == nil:
				t.Fatalf("accepted %q (code %q); want a refusal under %s", tt.raw, code, tt.rule)
			case tt.rule != "" && RuleOf(err) != tt.rule:
				t.Fatalf("refused %q under %s (%v); want %s", tt.raw, RuleOf(err), err, tt.rule)
			}
		})
	}
}

// FuzzCheckCallback checks that whatever callback URL authorize() returns,
// the validator never panics, and accepts it only when it is the redirect
// URL with one code, the login's state and, if any, the issuer.
func FuzzCheckCallback(f *testing.F) {
	for _, s := range []string{
		testRedirect + "?code=c1&state=" + testState + "&iss=" + url.QueryEscape(testIssuer),
		testRedirect + "?code=c1&state=" + testState,
		testRedirect + "?code=c1&code=c2&state=" + testState,
		testRedirect + "?error=access_denied",
		"HTTP://127.0.0.1:8976/oauth/callback?code=c&state=" + testState,
		"http://127.0.0.1:8976/oauth/%63allback?code=c&state=" + testState,
		"http://127.0.0.1:8976/oauth/callback?code=c&state=" + testState + "#",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	a := &Host{}
	want, _ := url.Parse(testRedirect)
	f.Fuzz(func(t *testing.T, raw string, issRequired bool) {
		code, err := a.checkCallback(raw, testRedirect, testState, testIssuer, issRequired)
		if err != nil {
			return
		}
		u, perr := url.Parse(raw)
		if perr != nil {
			t.Fatalf("accepted %q, which does not parse: %v", raw, perr)
		}
		q, _ := url.ParseQuery(u.RawQuery)
		switch {
		case !strings.EqualFold(u.Scheme, want.Scheme) || !strings.EqualFold(u.Hostname(), want.Hostname()) || u.Port() != want.Port():
			t.Fatalf("accepted %q: not the redirect URL's origin", raw)
		case u.EscapedPath() != want.EscapedPath():
			t.Fatalf("accepted %q: path %q is not %q", raw, u.EscapedPath(), want.EscapedPath())
		case strings.Contains(raw, "#") || u.User != nil:
			t.Fatalf("accepted %q: it has a fragment or user information", raw)
		case len(q["code"]) != 1 || code != q.Get("code") || code == "":
			t.Fatalf("accepted %q with code %q: want exactly one, non-empty code", raw, code)
		case len(q["state"]) != 1 || q.Get("state") != testState:
			t.Fatalf("accepted %q: state is not the login's", raw)
		case len(q["iss"]) > 1 || (len(q["iss"]) == 1 && q.Get("iss") != testIssuer) || (issRequired && len(q["iss"]) == 0):
			t.Fatalf("accepted %q: iss is wrong or missing", raw)
		case len(q["error"]) > 0:
			t.Fatalf("accepted %q: it reports an error", raw)
		}
	})
}
