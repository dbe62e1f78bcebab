package core

import (
	"context"
	"errors"
	"math"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// httpEntry is the entry of an HTTP server at u.
func httpEntry(u string) ServerConfig { return ServerConfig{Type: TransportHTTP, URL: u} }

// TestOAuthLogin: register() of a server that answers 401 runs the whole
// login: discovery, dynamic registration, the host's authorize() with
// PKCE and state, the code exchange; the tokens and the client are saved
// bound to the issuer, and the server gets the Bearer token.
func TestOAuthLogin(t *testing.T) {
	w := newOAuthWorld(t)
	p := &memProvider{}
	var authURLs []string
	authorize := w.authorize(nil)
	h := testHost(t, LiteAgent(), Options{Permission: allowAll, MCPOAuth: map[string]OAuthConfig{"docs": {
		ServerURL: w.url(), AllowedOrigins: []string{w.as.URL}, Provider: p,
		Authorize: func(ctx context.Context, u string) (string, error) {
			authURLs = append(authURLs, u)
			return authorize(ctx, u)
		},
	}}}, nil)
	if err := h.MCP().Register(context.Background(), "docs", httpEntry(w.url())); err != nil {
		t.Fatal(err)
	}
	if len(authURLs) != 1 {
		t.Fatalf("authorize() calls: Expected 1, Actual %d", len(authURLs))
	}
	q, _ := url.Parse(authURLs[0])
	for k, want := range map[string]string{"response_type": "code", "client_id": "registered-client", "code_challenge_method": "S256",
		"resource": w.url(), "scope": "read offline_access", "prompt": "consent", "redirect_uri": "http://127.0.0.1:7777/callback"} {
		if got := q.Query().Get(k); got != want {
			t.Errorf("the authorization URL's %s: Expected %q, Actual %q", k, want, got)
		}
	}
	if len(q.Query().Get("state")) != 43 {
		t.Errorf("the state %q is not 32 random bytes in base64url", q.Query().Get("state"))
	}
	if got, want := p.savedList(), []string{"client registered-client", "tokens at-2"}; !slices.Equal(got, want) {
		t.Errorf("the provider saved:\n  Expected: %v\n  Actual:   %v", want, got)
	}
	if p.info.Issuer != w.as.URL || p.tokens.Issuer != w.as.URL {
		t.Errorf("the saved client and tokens are bound to %q and %q, not the issuer %q", p.info.Issuer, p.tokens.Issuer, w.as.URL)
	}
	if l := h.MCP().List(); l[0].Status != StatusConnected || strings.Contains(l[0].Target, "at-") {
		t.Errorf("list(): Expected docs connected, without its token; Actual %+v", l[0])
	}

	// A second agent with the provider's tokens connects without a login.
	authURLs = nil
	h2 := testHost(t, LiteAgent(), Options{Permission: allowAll, MCPServers: []NamedServer{{Name: "docs", Config: httpEntry(w.url())}},
		Model: &script{}, MCPOAuth: map[string]OAuthConfig{"docs": {ServerURL: w.url(), AllowedOrigins: []string{w.as.URL}, Provider: p, Authorize: authorize}}}, nil)
	h.Close()
	if _, err := h2.Send(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.Join(w.asRequests(), "\n"), "authorization_code"); n != 1 {
		t.Errorf("code exchanges: Expected only the first agent's, Actual %d", n)
	}
}

// TestOAuthRefreshOnce: a run whose token is refused refreshes it once,
// sends the refused request once more, and saves the new tokens; it never
// logs in.
func TestOAuthRefreshOnce(t *testing.T) {
	w := newOAuthWorld(t)
	p := &memProvider{}
	logins := 0
	authorize := w.authorize(nil)
	model := calls(call(1, "mcp__docs__search", `{"q":"x"}`))
	h := testHost(t, LiteAgent(), Options{Permission: allowAll, Model: model, MCPOAuth: map[string]OAuthConfig{"docs": {
		ServerURL: w.url(), AllowedOrigins: []string{w.as.URL}, Provider: p,
		Authorize: func(ctx context.Context, u string) (string, error) { logins++; return authorize(ctx, u) },
	}}}, nil)
	ctx := context.Background()
	if err := h.MCP().Register(ctx, "docs", httpEntry(w.url())); err != nil {
		t.Fatal(err)
	}
	w.revoke()
	if _, err := h.Send(ctx, "search"); err != nil {
		t.Fatal(err)
	}
	if msg := model.toolMessages()[0]; msg.IsError {
		t.Errorf("the call after the refresh failed: %s", msg.Text)
	}
	if logins != 1 {
		t.Errorf("logins: Expected only register()'s, Actual %d", logins)
	}
	refreshes := 0
	for _, r := range w.asRequests() {
		if strings.HasSuffix(r, "refresh_token") {
			refreshes++
		}
	}
	if refreshes != 1 || !strings.HasPrefix(p.tokens.AccessToken, "at-") || p.tokens.AccessToken == "at-2" {
		t.Errorf("refreshes: Expected 1 and new tokens saved; Actual %d, tokens %+v", refreshes, p.tokens)
	}
	if got := w.fake.called(); !slices.Equal(got, []string{"search"}) {
		t.Errorf("the server executed %v: Expected the call once", got)
	}
}

// TestOAuthClientCredentials: a client-credentials binding gets its token
// with the grant, no user, and only from the expected issuer.
func TestOAuthClientCredentials(t *testing.T) {
	for _, tt := range []struct {
		name, issuer, rule string
	}{{"expected issuer", "", ""}, {"another issuer", "https://elsewhere.test", "LA-CC-03"}} {
		t.Run(tt.name, func(t *testing.T) {
			w := newOAuthWorld(t)
			issuer := tt.issuer
			if issuer == "" {
				issuer = w.as.URL
			}
			h := testHost(t, LiteAgent(), Options{Permission: allowAll, MCPOAuth: map[string]OAuthConfig{"docs": {
				ServerURL: w.url(), AllowedOrigins: []string{w.as.URL},
				ClientCredentials: &ClientCredentials{ClientID: "machine", ClientSecret: "s3cret", ExpectedIssuer: issuer},
			}}}, nil)
			err := h.MCP().Register(context.Background(), "docs", httpEntry(w.url()))
			if RuleOf(err) != tt.rule {
				t.Fatalf("register():\n  Expected: rule %q\n  Actual:   %v", tt.rule, err)
			}
			reqs := strings.Join(w.asRequests(), "\n")
			if sent := strings.Contains(reqs, "client_credentials"); sent != (tt.rule == "") {
				t.Errorf("the grant was sent: %v; requests %s", sent, reqs)
			}
			if strings.Contains(reqs, "/authorize") || strings.Contains(reqs, "/register") {
				t.Errorf("client credentials visited the authorization or registration endpoint: %s", reqs)
			}
		})
	}
}

// TestOAuthLoginRefusals: a login fails, naming its rule, when anything
// about it is not as it must be, and no token is redeemed.
func TestOAuthLoginRefusals(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(q url.Values)
		fail    error // what authorize() returns
		origins []string
		issuer  string // the metadata's
		kind    Kind
		rule    string
	}{
		{name: "another state", edit: func(q url.Values) { q.Set("state", "forged") }, kind: KindSecurity, rule: "LA-OAU-17"},
		{name: "a repeated code", edit: func(q url.Values) { q.Add("code", "again") }, kind: KindSecurity, rule: "LA-OAU-18"},
		{name: "an error", edit: func(q url.Values) { q.Del("code"); q.Set("error", "access_denied") }, kind: KindSecurity, rule: "LA-OAU-20"},
		{name: "another iss", edit: func(q url.Values) { q.Set("iss", "https://evil.test") }, kind: KindSecurity, rule: "LA-OAU-19"},
		{name: "no code", edit: func(q url.Values) { q.Del("code") }, kind: KindSecurity, rule: "LA-OAU-17"},
		{name: "authorize fails", fail: errors.New("the user closed the window"), kind: KindSecurity, rule: "LA-OAU-20"},
		{name: "an origin not allowed", origins: []string{}, kind: KindSecurity, rule: "LA-OAU-21"},
		{name: "the metadata's issuer", issuer: "https://other.test", kind: KindSecurity, rule: "LA-OAU-19"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newOAuthWorld(t)
			w.issuer = tt.issuer
			origins := []string{w.as.URL}
			if tt.origins != nil {
				origins = tt.origins
			}
			authorize := w.authorize(tt.edit)
			if tt.fail != nil {
				authorize = func(context.Context, string) (string, error) { return "", tt.fail }
			}
			p := &memProvider{}
			h := testHost(t, LiteAgent(), Options{Permission: allowAll, MCPOAuth: map[string]OAuthConfig{"docs": {
				ServerURL: w.url(), AllowedOrigins: origins, Provider: p, Authorize: authorize}}}, nil)
			err := h.MCP().Register(context.Background(), "docs", httpEntry(w.url()))
			wantErr(t, "register()", err, tt.kind, tt.rule)
			if p.tokens != nil || strings.Contains(strings.Join(w.asRequests(), " "), "authorization_code") {
				t.Errorf("a code was redeemed: %v", w.asRequests())
			}
			if len(h.MCP().List()) != 0 {
				t.Error("the server is in the registry")
			}
		})
	}
}

// TestOAuthForbidden: a 403 is an authentication failure; no wider scope
// is asked for.
func TestOAuthForbidden(t *testing.T) {
	w := newOAuthWorld(t)
	p := &memProvider{}
	h := testHost(t, LiteAgent(), Options{Permission: allowAll, MCPOAuth: map[string]OAuthConfig{"docs": {
		ServerURL: w.url(), AllowedOrigins: []string{w.as.URL}, Provider: p, Authorize: w.authorize(nil)}}}, nil)
	w.forbid = true
	err := h.MCP().Register(context.Background(), "docs", httpEntry(w.url()))
	wantErr(t, "register() of a server that answers 403", err, KindAuth, "LA-OAU-36")
	contains(t, "the error", err.Error(), `insufficient scope "write"`)
}

// TestOAuthLoginDeadline: a login that outlives timeoutMs fails as a
// timeout, and what authorize() returns then is never redeemed.
func TestOAuthLoginDeadline(t *testing.T) {
	w := newOAuthWorld(t)
	ms := 20.0
	late := w.authorize(nil)
	h := testHost(t, LiteAgent(), Options{Permission: allowAll, MCPOAuth: map[string]OAuthConfig{"docs": {
		ServerURL: w.url(), AllowedOrigins: []string{w.as.URL}, Provider: &memProvider{}, TimeoutMs: &ms,
		Authorize: func(ctx context.Context, u string) (string, error) {
			<-ctx.Done() // the user takes longer than the deadline
			return late(context.Background(), u)
		}}}}, nil)
	err := h.MCP().Register(context.Background(), "docs", httpEntry(w.url()))
	if KindOf(err) != KindTimeout {
		t.Errorf("register():\n  Expected: a timeout\n  Actual:   %v", err)
	}
	if strings.Contains(strings.Join(w.asRequests(), " "), "authorization_code") {
		t.Error("a late code was redeemed")
	}
}

// TestOAuthBindings: what the mcpOAuth option refuses at construction,
// and the entries a binding does not fit.
func TestOAuthBindings(t *testing.T) {
	p := &memProvider{}
	auth := func(context.Context, string) (string, error) { return "", nil }
	nan, frac := math.NaN(), 1.5
	good := OAuthConfig{ServerURL: "https://x.test/mcp", Provider: p, Authorize: auth}
	with := func(f func(*OAuthConfig)) OAuthConfig { c := good; f(&c); return c }
	tests := []struct {
		name  string
		cfg   OAuthConfig
		alias string
		entry *ServerConfig
		rule  string
	}{
		{"valid", good, "docs", nil, ""},
		{"a bad alias", good, "a.b", nil, "LA-NAME-03"},
		{"a bad serverUrl", with(func(c *OAuthConfig) { c.ServerURL = "http://x.test/mcp" }), "docs", nil, "LA-OAU-25"},
		{"timeoutMs NaN", with(func(c *OAuthConfig) { c.TimeoutMs = &nan }), "docs", nil, "LA-OAU-32"},
		{"timeoutMs 1.5", with(func(c *OAuthConfig) { c.TimeoutMs = &frac }), "docs", nil, "LA-OAU-32"},
		{"provider and credentials", with(func(c *OAuthConfig) { c.ClientCredentials = &ClientCredentials{ClientID: "a", ClientSecret: "b"} }), "docs", nil, "LA-CC-01"},
		{"neither", with(func(c *OAuthConfig) { c.Provider = nil }), "docs", nil, "LA-OAU-07"},
		{"no authorize", with(func(c *OAuthConfig) { c.Authorize = nil }), "docs", nil, "LA-CC-02"},
		{"credentials with authorize", with(func(c *OAuthConfig) {
			c.Provider, c.ClientCredentials = nil, &ClientCredentials{ClientID: "a", ClientSecret: "b", ExpectedIssuer: "https://as.test"}
		}), "docs", nil, "LA-CC-02"},
		{"credentials without secret", with(func(c *OAuthConfig) {
			c.Provider, c.Authorize, c.ClientCredentials = nil, nil, &ClientCredentials{ClientID: "a", ExpectedIssuer: "https://as.test"}
		}), "docs", nil, "LA-CC-01"},
		{"a bad expected issuer", with(func(c *OAuthConfig) {
			c.Provider, c.Authorize, c.ClientCredentials = nil, nil, &ClientCredentials{ClientID: "a", ClientSecret: "b", ExpectedIssuer: "ftp://as"}
		}), "docs", nil, "LA-CC-03"},
		{"an origin with a path", with(func(c *OAuthConfig) { c.AllowedOrigins = []string{"https://as.test/x"} }), "docs", nil, "LA-OAU-21"},
		{"a stdio server", good, "docs", &ServerConfig{Command: "x"}, "LA-OAU-01"},
		{"static headers", good, "docs", &ServerConfig{Type: TransportHTTP, URL: "https://x.test/mcp", Headers: map[string]string{"X-A": "b"}}, "LA-OAU-27"},
		{"another URL", good, "docs", &ServerConfig{Type: TransportHTTP, URL: "https://x.test/mcp/"}, "LA-OAU-23"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{Workdir: t.TempDir(), Environ: []string{}, MCPOAuth: map[string]OAuthConfig{tt.alias: tt.cfg}}
			if tt.entry != nil {
				opts.MCPServers = []NamedServer{{Name: tt.alias, Config: *tt.entry}}
			}
			h, err := New(opts, LiteAgent())
			if RuleOf(err) != tt.rule {
				t.Errorf("New:\n  Expected: rule %q\n  Actual:   %v", tt.rule, err)
			}
			if err == nil {
				h.Close()
			}
		})
	}
}

// TestOAuthProviderServesOneConnection: one provider bound to two servers
// serves the first active connection only.
func TestOAuthProviderServesOneConnection(t *testing.T) {
	w := newOAuthWorld(t)
	p := &memProvider{}
	cfg := OAuthConfig{ServerURL: w.url(), AllowedOrigins: []string{w.as.URL}, Provider: p, Authorize: w.authorize(nil)}
	h := testHost(t, LiteAgent(), Options{Permission: allowAll, MCPOAuth: map[string]OAuthConfig{"a": cfg, "b": cfg}}, nil)
	ctx := context.Background()
	if err := h.MCP().Register(ctx, "a", httpEntry(w.url())); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "register() of the second server", h.MCP().Register(ctx, "b", httpEntry(w.url())), KindConflict, "LA-OAU-10")
	if err := h.MCP().Unregister(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := h.MCP().Register(ctx, "b", httpEntry(w.url())); err != nil {
		t.Errorf("register() once the provider is free: %v", err)
	}
	if slices.Contains(p.savedList(), "invalidated") {
		t.Error("unregister() invalidated the provider's credentials")
	}
}
