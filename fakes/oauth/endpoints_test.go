package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcpconform/mcpconform/fakes/record"
)

// TestCoHosted runs the whole login against an authorization server
// co-hosted on the MCP fake's origin (LA-OAU-22), over TLS: the issuer is
// the fake's BaseURL, the endpoints are on it, and each request is
// recorded once, by the authorization server.
func TestCoHosted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{tls: true, coHosted: true})
	c := ctx(t)
	if e.as.Issuer() != e.mcp.BaseURL() {
		t.Fatalf("issuer %s, MCP origin %s", e.as.Issuer(), e.mcp.BaseURL())
	}
	l := e.newLogin(c)
	l.run(t)
	if !slices.Equal(l.prm.AuthorizationServers, []string{e.mcp.BaseURL()}) || l.meta.TokenEndpoint != e.mcp.BaseURL()+"/oauth/token" {
		t.Errorf("metadata %+v %+v", l.prm, l.meta)
	}
	if tools, err := e.listTools(c, l.token.AccessToken); err != nil || len(tools) != 1 {
		t.Fatalf("tools %v %v", tools, err)
	}
	rs := e.log.Records()
	for _, ep := range []string{EndpointMetadata, EndpointRegister, EndpointAuthorize, EndpointToken} {
		got := asRecords(rs, ep)
		if len(got) != 1 || got[0].Instance != "as@"+e.mcp.BaseURL() {
			t.Errorf("%s records %+v", ep, got)
		}
	}
	for _, r := range rs {
		if r.Kind == record.KindHTTP && r.Server != "as" && r.Server != "tools" {
			t.Errorf("a record of the MCP fake for the co-hosted server: %+v", r)
		}
	}
	// A closed co-hosted server answers 503 through its co-host.
	if err := e.as.Close(); err != nil {
		t.Fatal(err)
	}
	if resp, _, err := e.getJSON(c, e.mcp.BaseURL()+MetadataPath); err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("after Close: %v %v", resp, err)
	}
}

// TestNewCoHostedRefusesABadIssuer checks the issuer NewCoHosted takes: an
// http(s) origin.
func TestNewCoHostedRefusesABadIssuer(t *testing.T) {
	t.Parallel()
	for _, issuer := range []string{"", "127.0.0.1:80", "ftp://127.0.0.1", "http://127.0.0.1/path", "http://127.0.0.1?x=1"} {
		if s, err := NewCoHosted(Options{}, issuer); err == nil {
			s.Close()
			t.Errorf("NewCoHosted accepted %q", issuer)
		}
	}
}

// TestAuthorizationCodeChecks checks what the server refuses in the code
// flow: no PKCE, plain PKCE, a wrong verifier, a resource outside the
// grant at the token endpoint, a redirect URI that was not registered, and
// insecure redirect URIs at registration.
func TestAuthorizationCodeChecks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// run returns the OAuth error the server answered.
		run  func(t *testing.T, l *login) string
		want string
	}{
		{"no PKCE", func(t *testing.T, l *login) string {
			cb, err := l.e.as.Authorize(l.ctx, l.cfg.AuthCodeURL("state-12345678", oauth2.SetAuthURLParam("resource", l.e.mount)))
			return callbackError(t, cb, err)
		}, "invalid_request"},
		{"plain PKCE", func(t *testing.T, l *login) string {
			cb, err := l.e.as.Authorize(l.ctx, l.cfg.AuthCodeURL("state-12345678", oauth2.SetAuthURLParam("code_challenge", oauth2.GenerateVerifier()), oauth2.SetAuthURLParam("code_challenge_method", "plain")))
			return callbackError(t, cb, err)
		}, "invalid_request"},
		{"short state", func(t *testing.T, l *login) string {
			cb, err := l.e.as.Authorize(l.ctx, l.cfg.AuthCodeURL("short", oauth2.S256ChallengeOption(oauth2.GenerateVerifier())))
			return callbackError(t, cb, err)
		}, "invalid_state"},
		{"wrong verifier", func(t *testing.T, l *login) string {
			if err := l.authorize(); err != nil {
				t.Fatal(err)
			}
			_, err := l.cfg.Exchange(l.ctx, l.callback.Query().Get("code"), oauth2.VerifierOption(oauth2.GenerateVerifier()))
			return retrieveError(t, err)
		}, "invalid_grant"},
		{"resource outside the grant", func(t *testing.T, l *login) string {
			if err := l.authorize(); err != nil {
				t.Fatal(err)
			}
			_, err := l.cfg.Exchange(l.ctx, l.callback.Query().Get("code"), oauth2.VerifierOption(l.verifier), oauth2.SetAuthURLParam("resource", l.e.mcp.BaseURL()+"/mcp/other"))
			return retrieveError(t, err)
		}, "invalid_target"},
		{"code used twice", func(t *testing.T, l *login) string {
			if err := l.authorize(); err != nil {
				t.Fatal(err)
			}
			if err := l.exchange(); err != nil {
				t.Fatal(err)
			}
			_, err := l.cfg.Exchange(l.ctx, l.callback.Query().Get("code"), oauth2.VerifierOption(l.verifier))
			return retrieveError(t, err)
		}, "invalid_grant"},
		{"unregistered redirect URI", func(t *testing.T, l *login) string {
			cfg := *l.cfg
			cfg.RedirectURL = "http://127.0.0.1:43117/elsewhere"
			_, err := l.e.as.Authorize(l.ctx, cfg.AuthCodeURL("state-12345678", oauth2.S256ChallengeOption(oauth2.GenerateVerifier())))
			if err == nil || !strings.Contains(err.Error(), "400") {
				t.Fatalf("Authorize: %v", err)
			}
			return "invalid_request"
		}, "invalid_request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envConfig{})
			l := e.newLogin(ctx(t))
			l.mustReach(t, "registration")
			if got := tc.run(t, l); got != tc.want {
				t.Errorf("error %q, want %q", got, tc.want)
			}
		})
	}
}

// callbackError returns the error of an error callback.
func callbackError(t *testing.T, cb string, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(cb)
	if err != nil || u.Query().Has("code") {
		t.Fatalf("callback %s", cb)
	}
	return u.Query().Get("error")
}

// retrieveError returns the OAuth error of a token request.
func retrieveError(t *testing.T, err error) string {
	t.Helper()
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		t.Fatalf("token request: %v", err)
	}
	return re.ErrorCode
}

// TestRegistrationChecks checks what dynamic registration refuses, and a
// confidential client's method being enforced at the token endpoint.
func TestRegistrationChecks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	c := ctx(t)
	l := e.newLogin(c)
	l.mustReach(t, "discovery")
	for _, tc := range []struct {
		name, body string
		status     int
		error      string
	}{
		{"http redirect URI", `{"redirect_uris":["http://example.com/cb"],"token_endpoint_auth_method":"none"}`, 400, "invalid_redirect_uri"},
		{"fragment", `{"redirect_uris":["http://127.0.0.1:1/cb#x"],"token_endpoint_auth_method":"none"}`, 400, "invalid_redirect_uri"},
		{"no redirect URI", `{"token_endpoint_auth_method":"none"}`, 400, "invalid_redirect_uri"},
		{"unknown method", `{"redirect_uris":["http://127.0.0.1:1/cb"],"token_endpoint_auth_method":"private_key_jwt"}`, 400, "invalid_client_metadata"},
		{"public client_credentials", `{"grant_types":["client_credentials"],"token_endpoint_auth_method":"none"}`, 400, "invalid_client_metadata"},
		{"implicit", `{"redirect_uris":["http://127.0.0.1:1/cb"],"grant_types":["implicit"]}`, 400, "invalid_client_metadata"},
		{"not JSON", `redirect_uris=x`, 400, "invalid_client_metadata"},
		{"https", `{"redirect_uris":["https://host.example/cb"],"token_endpoint_auth_method":"none"}`, 201, ""},
		{"confidential", `{"grant_types":["client_credentials"],"token_endpoint_auth_method":"client_secret_post"}`, 201, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, m := e.postFor(t, l.meta.RegistrationEndpoint, "application/json", tc.body, "")
			if resp.StatusCode != tc.status || (tc.error != "" && m["error"] != tc.error) {
				t.Fatalf("%s %v", resp.Status, m)
			}
			if tc.name != "confidential" {
				return
			}
			id, secret := m["client_id"].(string), m["client_secret"].(string)
			for _, style := range []struct {
				style oauth2.AuthStyle
				ok    bool
			}{{oauth2.AuthStyleInParams, true}, {oauth2.AuthStyleInHeader, false}} {
				cfg := &oauth2.Config{ClientID: id, ClientSecret: secret, Endpoint: oauth2.Endpoint{TokenURL: l.meta.TokenEndpoint, AuthStyle: style.style}}
				_, err := cfg.Exchange(l.ctx, "unused", oauth2.SetAuthURLParam("grant_type", "client_credentials"))
				var re *oauth2.RetrieveError
				if style.ok && err != nil || !style.ok && (!errors.As(err, &re) || re.ErrorCode != "invalid_client") {
					t.Errorf("auth style %v: %v", style.style, err)
				}
			}
		})
	}
}

// TestOtherEndpointsAreRecorded checks revocation, end-session,
// introspection and unknown paths, on both origins: each answers and is
// recorded with its endpoint name and parameters.
func TestOtherEndpointsAreRecorded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	c := ctx(t)
	access, _ := e.mint(t, e.mount, 0)
	for _, tc := range []struct {
		method, url, body string
		status            int
		endpoint          string
		origin            string
	}{
		{"POST", e.as.Issuer() + "/oauth/revoke", "token=" + access + "&token_type_hint=access_token", 200, EndpointRevoke, e.as.Issuer()},
		{"GET", e.as.Issuer() + "/oauth/end-session?post_logout_redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2F", "", 200, EndpointEndSession, e.as.Issuer()},
		{"POST", e.as.OtherOrigin() + "/oauth/introspect", "token=" + url.QueryEscape(access), 200, EndpointIntrospect, e.as.OtherOrigin()},
		{"GET", e.as.OtherOrigin() + "/.well-known/openid-configuration", "", 404, EndpointOther, e.as.OtherOrigin()},
		{"GET", e.as.Issuer() + "/nothing?x=1&x=2", "", 404, EndpointOther, e.as.Issuer()},
	} {
		t.Run(tc.endpoint, func(t *testing.T) {
			if tc.endpoint != EndpointOther {
				defer func() {
					if n := len(asRecords(e.log.Records(), tc.endpoint)); n != 1 {
						t.Errorf("%d %s records", n, tc.endpoint)
					}
				}()
			}
			req, _ := http.NewRequestWithContext(c, tc.method, tc.url, strings.NewReader(tc.body))
			if tc.body != "" {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			resp, err := e.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			_ = jsonDecode(resp, &m)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("%s", resp.Status)
			}
			if tc.endpoint == EndpointIntrospect && (m["active"] != true || !slices.Equal(toStrings(m["aud"]), []string{e.mount})) {
				t.Errorf("introspection %v", m)
			}
			got := asRecords(e.log.Records(), tc.endpoint)
			if len(got) == 0 || got[len(got)-1].Instance != "as@"+tc.origin || got[len(got)-1].HTTP.Path != req.URL.Path {
				t.Fatalf("records %+v", got)
			}
			last := got[len(got)-1]
			if last.Params == nil {
				return
			}
			p := paramsOf(t, last)
			switch tc.endpoint {
			case EndpointRevoke:
				if p["token"] != access {
					t.Errorf("params %v", p)
				}
			case EndpointEndSession:
				if p["post_logout_redirect_uri"] != "http://127.0.0.1:1/" {
					t.Errorf("params %v", p)
				}
			case EndpointOther:
				if last.HTTP.Path == "/nothing" && !slices.Equal(toStrings(p["x"]), []string{"1", "2"}) {
					t.Errorf("params %v", p)
				}
			}
		})
	}
	// Revocation only records: the token still works.
	if status, _, err := e.post(c, access); err != nil || status != http.StatusOK {
		t.Errorf("after revocation: %d %v", status, err)
	}
}

// TestAuthorizeVisitsLoopbackOnly checks that the user never leaves the
// machine.
func TestAuthorizeVisitsLoopbackOnly(t *testing.T) {
	t.Parallel()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, u := range []string{"https://la-oauth.invalid/oauth/authorize", "http://10.0.0.1/authorize", "file:///etc/passwd"} {
		if _, err := s.Authorize(ctx(t), u); err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("Authorize(%s): %v", u, err)
		}
	}
}

// TestGoSDKAuthorizationCodeHandler logs in with go-sdk's own OAuth client
// (auth.AuthorizationCodeHandler: discovery, registration, PKCE, resource,
// iss check), which the Streamable HTTP transport runs on the mount's 401.
func TestGoSDKAuthorizationCodeHandler(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{tls: true})
	c := ctx(t)
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs:            []string{redirectURI},
			TokenEndpointAuthMethod: "none",
			GrantTypes:              []string{"authorization_code", "refresh_token"},
		}},
		RedirectURL: redirectURI,
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			cb, err := e.as.Authorize(ctx, args.URL)
			if err != nil {
				return nil, err
			}
			u, err := url.Parse(cb)
			if err != nil {
				return nil, err
			}
			q := u.Query()
			return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
		},
		Client: e.client,
	})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "go-sdk-oauth", Version: "1"}, nil).Connect(c, &mcp.StreamableClientTransport{
		Endpoint: e.mount, HTTPClient: e.client, OAuthHandler: h, DisableStandaloneSSE: true,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res, err := cs.ListTools(c, nil); err != nil || len(res.Tools) != 1 {
		t.Fatalf("tools %v %v", res, err)
	}
	rs := e.log.Records()
	authz := asRecords(rs, EndpointAuthorize)
	if len(authz) != 1 || paramsOf(t, authz[0])["resource"] != e.mount || paramsOf(t, authz[0])["code_challenge_method"] != "S256" {
		t.Errorf("authorization records %+v", authz)
	}
}
