package oauth

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/mcpconform/mcpconform/fakes/record"
)

// TestLoginEndToEnd runs what a host does, over plain HTTP and over TLS:
// protected resource metadata from the mount's 401, authorization server
// metadata, dynamic registration, the authorization URL with PKCE S256,
// state and resource, the user's consent, the callback (code, state, iss),
// the exchange, the bearer token accepted by the guarded mount through a
// go-sdk MCP client, a refresh that rotates the refresh token, and
// client_credentials.
func TestLoginEndToEnd(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		tls  bool
	}{{"http", false}, {"https", true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envConfig{tls: tc.tls})
			c := ctx(t)
			wantScheme := map[bool]string{false: "http://", true: "https://"}[tc.tls]
			if !strings.HasPrefix(e.as.Issuer(), wantScheme+"127.0.0.1:") || !strings.HasPrefix(e.as.OtherOrigin(), wantScheme+"127.0.0.1:") || e.as.Issuer() == e.as.OtherOrigin() {
				t.Fatalf("issuer %s, other origin %s", e.as.Issuer(), e.as.OtherOrigin())
			}

			l := e.newLogin(c)
			l.run(t)
			if l.prm.Resource != e.mount || !slices.Equal(l.prm.AuthorizationServers, []string{e.as.Issuer()}) {
				t.Errorf("protected resource metadata %+v", l.prm)
			}
			if !l.meta.AuthorizationResponseIssParameterSupported || !slices.Equal(l.meta.CodeChallengeMethodsSupported, []string{"S256"}) {
				t.Errorf("metadata %+v", l.meta)
			}
			if l.reg.ClientSecret != "" {
				t.Errorf("a public client got a secret")
			}
			q := l.callback.Query()
			if q.Get("code") == "" || q.Get("state") != l.state || q.Get("iss") != e.as.Issuer() || l.callback.String()[:len(redirectURI)] != redirectURI {
				t.Errorf("callback %s", l.callback)
			}
			tok := l.token
			if tok.TokenType != "Bearer" || tok.RefreshToken == "" || tok.ExpiresIn < 3500 || tok.ExpiresIn > 3600 {
				t.Errorf("token type %q, refresh %q, expires_in %d", tok.TokenType, tok.RefreshToken, tok.ExpiresIn)
			}
			if active, aud, _ := e.as.Introspect(c, tok.AccessToken); !active || !slices.Equal(aud, []string{e.mount}) {
				t.Errorf("introspection: active %v, audience %v", active, aud)
			}
			if active, _, _ := e.as.Introspect(c, tok.RefreshToken); active {
				t.Error("a refresh token introspects as an active access token")
			}
			if tools, err := e.listTools(c, tok.AccessToken); err != nil || !slices.Equal(tools, []string{"echo"}) {
				t.Fatalf("tools %v, %v", tools, err)
			}

			// Refresh: a new pair; the refresh token rotates.
			ts := l.cfg.TokenSource(l.ctx, &oauth2.Token{RefreshToken: tok.RefreshToken, Expiry: time.Now().Add(-time.Minute)})
			tok2, err := ts.Token()
			if err != nil {
				t.Fatalf("refresh: %v", err)
			}
			if tok2.AccessToken == tok.AccessToken || tok2.RefreshToken == "" || tok2.RefreshToken == tok.RefreshToken || tok2.TokenType != "Bearer" {
				t.Fatalf("refreshed token %+v", tok2)
			}
			if tools, err := e.listTools(c, tok2.AccessToken); err != nil || len(tools) != 1 {
				t.Fatalf("tools with the refreshed token: %v, %v", tools, err)
			}
			if status, _, err := e.post(c, tok.AccessToken); err != nil || status != http.StatusUnauthorized {
				t.Errorf("the old access token after a refresh: %d, %v", status, err)
			}
			// The old refresh token no longer works; its reuse revokes the
			// whole family (fosite), the new tokens included.
			old := l.cfg.TokenSource(l.ctx, &oauth2.Token{RefreshToken: tok.RefreshToken, Expiry: time.Now().Add(-time.Minute)})
			var re *oauth2.RetrieveError
			if _, err := old.Token(); !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
				t.Fatalf("reusing the old refresh token: %v", err)
			}
			if status, _, err := e.post(c, tok2.AccessToken); err != nil || status != http.StatusUnauthorized {
				t.Errorf("the new access token after a refresh token reuse: %d, %v", status, err)
			}

			// client_credentials, for a pre-registered confidential client.
			if err := e.as.RegisterClient("cc-client", "cc-secret", nil, nil); err != nil {
				t.Fatal(err)
			}
			cc := &clientcredentials.Config{ClientID: "cc-client", ClientSecret: "cc-secret", TokenURL: l.meta.TokenEndpoint, AuthStyle: oauth2.AuthStyleInHeader, EndpointParams: url.Values{"resource": {e.mount}}}
			ctok, err := cc.Token(l.ctx)
			if err != nil {
				t.Fatalf("client_credentials: %v", err)
			}
			if ctok.RefreshToken != "" || ctok.TokenType != "Bearer" {
				t.Errorf("client_credentials token %+v", ctok)
			}
			if tools, err := e.listTools(c, ctok.AccessToken); err != nil || len(tools) != 1 {
				t.Fatalf("tools with a client_credentials token: %v, %v", tools, err)
			}
			bad := &clientcredentials.Config{ClientID: "cc-client", ClientSecret: "wrong", TokenURL: l.meta.TokenEndpoint, AuthStyle: oauth2.AuthStyleInHeader}
			if _, err := bad.Token(l.ctx); !errors.As(err, &re) || re.ErrorCode != "invalid_client" {
				t.Errorf("a wrong secret: %v", err)
			}

			// The record: one per request, named by endpoint, with its
			// parameters.
			rs := e.log.Records()
			instance := "as@" + e.as.Issuer()
			for _, want := range []struct {
				method string
				n      int
				params map[string]string
			}{
				{EndpointMetadata, 1, nil},
				{EndpointRegister, 1, map[string]string{"token_endpoint_auth_method": "none"}},
				{EndpointAuthorize, 1, map[string]string{"code_challenge_method": "S256", "resource": e.mount, "state": l.state, "client_id": l.reg.ClientID, "response_type": "code"}},
				{EndpointToken, 5, map[string]string{"grant_type": "authorization_code", "code_verifier": l.verifier, "resource": e.mount, "code": q.Get("code")}},
			} {
				got := asRecords(rs, want.method)
				if len(got) != want.n {
					t.Errorf("%d %s records, want %d", len(got), want.method, want.n)
					continue
				}
				r := got[0]
				if r.Instance != instance || r.HTTP == nil || r.HTTP.Path != paths[want.method] || !strings.HasSuffix(e.as.Issuer(), "://"+r.HTTP.Host) {
					t.Errorf("%s record %+v %+v", want.method, r, r.HTTP)
				}
				if want.params != nil {
					p := paramsOf(t, r)
					for k, v := range want.params {
						if p[k] != v {
							t.Errorf("%s record: %s = %v, want %q", want.method, k, p[k], v)
						}
					}
				}
			}
			// The bearer of each request to the mount is in its record.
			var bearers int
			for _, r := range rs {
				if r.Server == "tools" && r.Kind == record.KindHTTP && http.Header(r.HTTP.Header).Get("Authorization") == "Bearer "+tok.AccessToken {
					bearers++
				}
			}
			if bearers == 0 {
				t.Error("no record of the mount carries the access token")
			}
		})
	}
}
