package core

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// oauthWorld is an MCP server on loopback HTTP that wants a Bearer token,
// its protected resource metadata, and a small authorization server
// (metadata, dynamic registration, authorization code with PKCE, refresh
// and client credentials) on another origin: what the OAuth flow of the
// core talks to in its tests. fosite serves the conformance suite; these
// tests need only the shapes.
type oauthWorld struct {
	mcp, as *httptest.Server
	fake    *fakeServer

	mu sync.Mutex
	// valid are the access tokens the MCP server takes now.
	valid map[string]bool
	// codes are the codes issued, with the challenge and redirect URI
	// they were issued for.
	codes map[string]codeGrant
	// requests logs the authorization server's requests ("POST /token
	// grant_type=...").
	requests []string
	// forbid makes the MCP server answer 403 to every token.
	forbid bool
	// issuer is what the metadata names; "" is the server's URL.
	issuer string
	next   int
}

type codeGrant struct{ challenge, redirect string }

func newOAuthWorld(t *testing.T) *oauthWorld {
	w := &oauthWorld{valid: map[string]bool{}, codes: map[string]codeGrant{}, fake: newFake("docs", echo("search"))}
	w.as = httptest.NewServer(http.HandlerFunc(w.serveAS))
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return w.fake.srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	w.mcp = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/oauth-protected-resource/mcp" {
			writeJSON(rw, map[string]any{"resource": w.mcp.URL + "/mcp", "authorization_servers": []string{w.as.URL}, "scopes_supported": []string{"read"}})
			return
		}
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.mu.Lock()
		ok, forbid := w.valid[tok], w.forbid
		w.mu.Unlock()
		switch {
		case !ok:
			rw.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata=%q`, w.mcp.URL+"/.well-known/oauth-protected-resource/mcp"))
			http.Error(rw, "unauthorized", http.StatusUnauthorized)
		case forbid:
			rw.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="write"`)
			http.Error(rw, "forbidden", http.StatusForbidden)
		default:
			handler.ServeHTTP(rw, r)
		}
	}))
	t.Cleanup(func() { w.mcp.Close(); w.as.Close() })
	return w
}

// url is the MCP endpoint.
func (w *oauthWorld) url() string { return w.mcp.URL + "/mcp" }

// revoke makes every token issued so far invalid.
func (w *oauthWorld) revoke() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.valid = map[string]bool{}
}

// asRequests returns the authorization server's requests.
func (w *oauthWorld) asRequests() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string{}, w.requests...)
}

func writeJSON(rw http.ResponseWriter, v any) {
	rw.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(rw).Encode(v)
}

func (w *oauthWorld) serveAS(rw http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.requests = append(w.requests, r.Method+" "+r.URL.Path+" "+r.PostForm.Get("grant_type"))
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		issuer := w.issuer
		if issuer == "" {
			issuer = w.as.URL
		}
		writeJSON(rw, map[string]any{
			"issuer": issuer, "authorization_endpoint": w.as.URL + "/authorize", "token_endpoint": w.as.URL + "/token",
			"registration_endpoint": w.as.URL + "/register", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}, "scopes_supported": []string{"read", "offline_access"},
			"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post", "none"},
		})
	case "/register":
		writeJSON(rw, map[string]any{"client_id": "registered-client"})
	case "/token":
		w.token(rw, r)
	default:
		http.NotFound(rw, r)
	}
}

// token answers the token endpoint; w.mu is held.
func (w *oauthWorld) token(rw http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	switch f.Get("grant_type") {
	case "authorization_code":
		g, ok := w.codes[f.Get("code")]
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge || f.Get("redirect_uri") != g.redirect {
			rw.WriteHeader(http.StatusBadRequest)
			writeJSON(rw, map[string]string{"error": "invalid_grant", "error_description": "secret details"})
			return
		}
		delete(w.codes, f.Get("code"))
	case "refresh_token":
		if !strings.HasPrefix(f.Get("refresh_token"), "rt-") {
			rw.WriteHeader(http.StatusBadRequest)
			writeJSON(rw, map[string]string{"error": "invalid_grant"})
			return
		}
	case "client_credentials":
		if id, secret, ok := r.BasicAuth(); !ok || id != "machine" || secret != "s3cret" {
			rw.WriteHeader(http.StatusUnauthorized)
			writeJSON(rw, map[string]string{"error": "invalid_client"})
			return
		}
	default:
		rw.WriteHeader(http.StatusBadRequest)
		return
	}
	w.next++
	at := fmt.Sprintf("at-%d", w.next)
	w.valid[at] = true
	writeJSON(rw, map[string]any{"access_token": at, "token_type": "Bearer", "refresh_token": fmt.Sprintf("rt-%d", w.next), "expires_in": 3600})
}

// authorize is the host's login step: it plays the user, who approves,
// and returns the callback URL the authorization server would redirect
// to; edit changes the callback's query first.
func (w *oauthWorld) authorize(edit func(q url.Values)) func(context.Context, string) (string, error) {
	return func(_ context.Context, authURL string) (string, error) {
		u, err := url.Parse(authURL)
		if err != nil {
			return "", err
		}
		q := u.Query()
		w.mu.Lock()
		w.next++
		code := fmt.Sprintf("code-%d", w.next)
		w.codes[code] = codeGrant{challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri")}
		w.mu.Unlock()
		cb := url.Values{"code": {code}, "state": {q.Get("state")}, "iss": {w.as.URL}}
		if edit != nil {
			edit(cb)
		}
		return q.Get("redirect_uri") + "?" + cb.Encode(), nil
	}
}

// memProvider is an OAuth provider that keeps everything in memory.
type memProvider struct {
	mu       sync.Mutex
	info     *ClientInformation
	tokens   *Tokens
	verifier string
	saved    []string // what was saved, in order
	metaURL  string   // a client ID metadata document URL, if any
}

func (p *memProvider) RedirectURL(context.Context) (string, error) {
	return "http://127.0.0.1:7777/callback", nil
}
func (p *memProvider) ClientMetadata(context.Context) (ClientMetadata, error) {
	return ClientMetadata{RedirectURIs: []string{"http://127.0.0.1:7777/callback"}, ClientName: "test", GrantTypes: []string{"authorization_code", "refresh_token"}}, nil
}
func (p *memProvider) ClientInformation(context.Context) (*ClientInformation, error) {
	return copyLocked(&p.mu, &p.info), nil
}
func (p *memProvider) SaveClientInformation(_ context.Context, i ClientInformation) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.info, p.saved = &i, append(p.saved, "client "+i.ClientID)
	return nil
}
func (p *memProvider) Tokens(context.Context) (*Tokens, error) {
	return copyLocked(&p.mu, &p.tokens), nil
}

// copyLocked returns a copy of the value *field points to, read under mu,
// or nil, so that the flow never shares the provider's own value.
func copyLocked[T any](mu *sync.Mutex, field **T) *T {
	mu.Lock()
	defer mu.Unlock()
	if *field == nil {
		return nil
	}
	c := **field
	return &c
}
func (p *memProvider) SaveTokens(_ context.Context, t Tokens) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tokens, p.saved = &t, append(p.saved, "tokens "+t.AccessToken)
	return nil
}
func (p *memProvider) CodeVerifier(context.Context) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.verifier, nil
}
func (p *memProvider) SaveCodeVerifier(_ context.Context, v string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.verifier = v
	return nil
}
func (p *memProvider) InvalidateCredentials(context.Context, string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.saved = append(p.saved, "invalidated")
	return nil
}

// savedList returns what the provider saved.
func (p *memProvider) savedList() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string{}, p.saved...)
}
