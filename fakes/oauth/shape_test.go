package oauth

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// TestMetadataShapes checks where each shape serves its metadata: at one
// well-known URL, answering 404 (recorded as EndpointOther) at every other
// one a client may try, with the issuer that URL was built from and, for
// the OpenID shapes, the fields OpenID Connect Discovery requires.
func TestMetadataShapes(t *testing.T) {
	t.Parallel()
	candidates := func(p string) []string {
		return []string{oauthWellKnown + p, openIDWellKnown + p, p + openIDWellKnown, oauthWellKnown, openIDWellKnown}
	}
	for _, tc := range []struct {
		name   string
		shape  Shape
		served string
		openID bool
	}{
		{"default", Shape{}, "/.well-known/oauth-authorization-server", false},
		{"openid", Shape{Metadata: MetadataOpenID}, "/.well-known/openid-configuration", true},
		{"path", Shape{IssuerPath: "/tenant"}, "/.well-known/oauth-authorization-server/tenant", false},
		{"path/openid", Shape{IssuerPath: "/tenant", Metadata: MetadataOpenID}, "/.well-known/openid-configuration/tenant", true},
		{"path/openid-appended", Shape{IssuerPath: "/tenant", Metadata: MetadataOpenIDAppended}, "/tenant/.well-known/openid-configuration", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envConfig{shape: tc.shape})
			c := ctx(t)
			if e.as.Issuer() != e.as.Origin()+tc.shape.IssuerPath || e.as.MetadataURL() != e.as.Origin()+tc.served {
				t.Fatalf("issuer %s, metadata URL %s", e.as.Issuer(), e.as.MetadataURL())
			}
			tried := slices.Compact(slices.Sorted(slices.Values(append(candidates(tc.shape.IssuerPath), tc.served))))
			for _, p := range tried {
				resp, m, err := e.getJSON(c, e.as.Origin()+p)
				if err != nil {
					t.Fatal(err)
				}
				if p != tc.served {
					if resp.StatusCode != http.StatusNotFound {
						t.Errorf("%s answered %d", p, resp.StatusCode)
					}
					continue
				}
				if resp.StatusCode != 200 || m["issuer"] != e.as.Issuer() || m["token_endpoint"] != e.as.Origin()+"/oauth/token" {
					t.Errorf("%s: %d %v", p, resp.StatusCode, m)
				}
				if got := m["jwks_uri"] != nil && m["subject_types_supported"] != nil && m["id_token_signing_alg_values_supported"] != nil; got != tc.openID {
					t.Errorf("%s: OpenID fields %v, want %v: %v", p, got, tc.openID, m)
				}
			}
			rs := e.log.Records()
			if got := asRecords(rs, EndpointMetadata); len(got) != 1 || got[0].HTTP.Path != tc.served {
				t.Errorf("metadata records %+v", got)
			}
			if got := asRecords(rs, EndpointOther); len(got) != len(tried)-1 {
				t.Errorf("%d other records, want %d", len(got), len(tried)-1)
			}
		})
	}
}

// TestNewRefusesBadShapes checks the shapes New refuses.
func TestNewRefusesBadShapes(t *testing.T) {
	t.Parallel()
	for _, sh := range []Shape{
		{IssuerPath: "tenant"}, {IssuerPath: "/tenant/"}, {IssuerPath: "/t?x=1"}, {IssuerPath: "/oauth/x"}, {IssuerPath: "/.well-known/x"},
		{Metadata: "rfc8414"}, {Metadata: MetadataOpenIDAppended},
		{AuthMethods: []string{"private_key_jwt"}}, {AuthMethods: []string{}},
	} {
		if s, err := New(Options{Shape: sh}); err == nil {
			s.Close()
			t.Errorf("New accepted %+v", sh)
		}
	}
	if s, err := NewCoHosted(Options{Shape: Shape{IssuerPath: "/t"}}, "http://127.0.0.1:1"); err == nil {
		s.Close()
		t.Error("NewCoHosted accepted an issuer path")
	}
}

// postToken posts a token request authenticated as method says.
func (e *env) postToken(t *testing.T, form url.Values, method, id, secret string) (int, map[string]any) {
	t.Helper()
	basic := ""
	if method == AuthBasic {
		basic = base64.StdEncoding.EncodeToString([]byte(id + ":" + secret))
	} else {
		form.Set("client_id", id)
		if method == AuthPost {
			form.Set("client_secret", secret)
		}
	}
	resp, m := e.postFor(t, e.as.Origin()+"/oauth/token", "application/x-www-form-urlencoded", form.Encode(), basic)
	return resp.StatusCode, m
}

// postFor posts body, with HTTP Basic credentials when basic is not "",
// and decodes the JSON answer.
func (e *env) postFor(t *testing.T, u, contentType, body, basic string) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx(t), http.MethodPost, u, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	if basic != "" {
		req.Header.Set("Authorization", "Basic "+basic)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	_ = jsonDecode(resp, &m)
	return resp, m
}

// useClient makes the login use the public client id, which it did not
// register.
func (l *login) useClient(id string) {
	l.cfg = &oauth2.Config{ClientID: id, RedirectURL: redirectURI,
		Endpoint: oauth2.Endpoint{AuthURL: l.meta.AuthorizationEndpoint, TokenURL: l.meta.TokenEndpoint, AuthStyle: oauth2.AuthStyleInParams}}
}

// stepsFrom runs the authorization and the exchange, and returns the name
// of the step that failed ("" for none) and its error.
func (l *login) stepsFrom() (string, error) {
	if err := l.authorize(); err != nil {
		return "authorization", err
	}
	if err := l.exchange(); err != nil {
		return "exchange", err
	}
	return "", nil
}

// TestAuthMethods checks Shape.AuthMethods: the metadata lists them, the
// token endpoint refuses any other method with invalid_client, and
// registration assigns or refuses methods by them.
func TestAuthMethods(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{shape: Shape{AuthMethods: []string{AuthPost}}})
	c := ctx(t)
	if _, m, _ := e.getJSON(c, e.as.MetadataURL()); !slices.Equal(toStrings(m["token_endpoint_auth_methods_supported"]), []string{AuthPost}) {
		t.Errorf("metadata %v", m)
	}
	if err := e.as.RegisterClient("machine", "s3cret-s3cret", nil, nil); err != nil {
		t.Fatal(err)
	}
	grant := func() url.Values { return url.Values{"grant_type": {"client_credentials"}, "resource": {e.mount}} }
	if status, m := e.postToken(t, grant(), AuthBasic, "machine", "s3cret-s3cret"); status != http.StatusUnauthorized || m["error"] != "invalid_client" {
		t.Errorf("basic: %d %v", status, m)
	}
	if status, m := e.postToken(t, grant(), AuthPost, "machine", "s3cret-s3cret"); status != 200 || m["access_token"] == nil {
		t.Errorf("post: %d %v", status, m)
	}
	// Registration: an unsupported method is refused, none given gets
	// the one supported.
	for _, tc := range []struct {
		method, want string
	}{{AuthBasic, ""}, {"", AuthPost}, {AuthPost, AuthPost}} {
		body := map[string]any{"redirect_uris": []string{redirectURI}, "grant_types": []string{"authorization_code"}}
		if tc.method != "" {
			body["token_endpoint_auth_method"] = tc.method
		}
		resp, m := e.postJSON(t, e.as.Origin()+"/oauth/register", body)
		if tc.want == "" {
			if resp.StatusCode != 400 || m["error"] != "invalid_client_metadata" {
				t.Errorf("%q: %d %v", tc.method, resp.StatusCode, m)
			}
			continue
		}
		if resp.StatusCode != 201 || m["token_endpoint_auth_method"] != tc.want || m["client_secret"] == nil {
			t.Errorf("%q: %d %v", tc.method, resp.StatusCode, m)
		}
	}
}

// postJSON posts a JSON body and decodes the JSON answer.
func (e *env) postJSON(t *testing.T, u string, body any) (*http.Response, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	return e.postFor(t, u, "application/json", string(b), "")
}

// TestClientMetadataDocument runs a login whose client_id is the URL of a
// client ID metadata document the server was told of, with no
// registration; an unknown URL is an unknown client.
func TestClientMetadataDocument(t *testing.T) {
	t.Parallel()
	const doc = "https://client.la-test.invalid/oauth/client.json"
	if s, err := New(Options{}); err != nil {
		t.Fatal(err)
	} else {
		if s.AddClientMetadataDocument(doc, []string{redirectURI}) == nil {
			t.Error("a document accepted without the shape")
		}
		s.Close()
	}
	e := newEnv(t, envConfig{shape: Shape{ClientIDMetadataDocuments: true, Scopes: []string{"mcp:read", "offline_access"}}})
	c := ctx(t)
	for _, bad := range []string{"http://client.la-test.invalid/c.json", "https://client.la-test.invalid/", "https://client.la-test.invalid"} {
		if e.as.AddClientMetadataDocument(bad, []string{redirectURI}) == nil {
			t.Errorf("accepted the document URL %q", bad)
		}
	}
	if err := e.as.AddClientMetadataDocument(doc, []string{redirectURI}); err != nil {
		t.Fatal(err)
	}
	l := e.newLogin(c)
	if err := l.discover(); err != nil {
		t.Fatal(err)
	}
	if !l.meta.ClientIDMetadataDocumentSupported || !slices.Equal(l.meta.ScopesSupported, []string{"mcp:read", "offline_access"}) {
		t.Errorf("metadata %+v", l.meta)
	}
	l.useClient(doc)
	if failed, err := l.stepsFrom(); failed != "" {
		t.Fatalf("%s: %v", failed, err)
	}
	if len(asRecords(e.log.Records(), EndpointRegister)) != 0 {
		t.Error("a registration")
	}
	l = e.newLogin(c)
	if err := l.discover(); err != nil {
		t.Fatal(err)
	}
	l.useClient("https://client.la-test.invalid/other.json")
	if failed, _ := l.stepsFrom(); failed != "authorization" {
		t.Errorf("an unknown document URL failed at %q", failed)
	}
}

// TestResourceShapes checks the resource's options: a bare challenge, a
// challenge scope, scopes_supported, metadata at the root or nowhere, a
// resource other than the mount's URL, and refusals of one JSON-RPC method.
func TestResourceShapes(t *testing.T) {
	t.Parallel()
	c := ctx(t)
	e := newEnv(t, envConfig{resource: ResourceOptions{BareChallenge: true, ChallengeScope: "mcp:read", ScopesSupported: []string{"mcp:read", "mcp:write"}, MetadataAt: MetadataRoot, Resource: "/"}})
	root := e.mcp.BaseURL() + mcpfake.ProtectedResourceMetadataPrefix
	if status, ch, err := e.post(c, ""); err != nil || status != 401 || ch != `Bearer scope="mcp:read"` {
		t.Errorf("challenge %d %q %v", status, ch, err)
	}
	if resp, _, _ := e.getJSON(c, MetadataURL(e.mount)); resp.StatusCode != 404 {
		t.Errorf("the path-inserted URL answered %d", resp.StatusCode)
	}
	resp, m, err := e.getJSON(c, root)
	if err != nil || resp.StatusCode != 200 || m["resource"] != e.mcp.BaseURL()+"/" || !slices.Equal(toStrings(m["scopes_supported"]), []string{"mcp:read", "mcp:write"}) {
		t.Fatalf("root metadata %v %v %v", resp, m, err)
	}
	n := 0
	for _, r := range e.log.Records() {
		if r.Server == "tools" && r.Kind == record.KindHTTP && strings.HasPrefix(r.HTTP.Path, mcpfake.ProtectedResourceMetadataPrefix) {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d metadata records of the mount, want 2", n)
	}
	// Tokens must be for the resource the metadata names.
	if a := e.mintFor(t, "for-mount", e.mount); e.statusOf(t, a) != 401 {
		t.Error("a token for the mount's URL was accepted")
	}
	a := e.mintFor(t, "for-root", e.mcp.BaseURL()+"/")
	if e.statusOf(t, a) != 200 {
		t.Error("a token for the resource was refused")
	}
	if err := e.guard.RefuseMethod(http.StatusForbidden, 1, "tools/call"); err != nil {
		t.Fatal(err)
	}
	if e.statusOf(t, a) != 200 {
		t.Error("a tools/list was refused by a tools/call refusal")
	}
	if status, _ := e.postMethod(t, a, "tools/call"); status != 403 {
		t.Errorf("the tools/call answered %d", status)
	}
	if status, _ := e.postMethod(t, a, "tools/call"); status != 200 {
		t.Errorf("the second tools/call answered %d", status)
	}

	// Nowhere, with the usual challenge.
	e = newEnv(t, envConfig{resource: ResourceOptions{MetadataAt: MetadataNowhere}})
	if _, ch, _ := e.post(c, ""); ch != `Bearer resource_metadata="`+MetadataURL(e.mount)+`"` {
		t.Errorf("challenge %q", ch)
	}
	for _, u := range []string{MetadataURL(e.mount), e.mcp.BaseURL() + mcpfake.ProtectedResourceMetadataPrefix} {
		if resp, _, _ := e.getJSON(c, u); resp.StatusCode != 404 {
			t.Errorf("%s answered %d", u, resp.StatusCode)
		}
	}
}

// TestMoveTo checks a resource migrating to another authorization server:
// its metadata names the new one, whose tokens it accepts, and it refuses
// the old one's.
func TestMoveTo(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	c := ctx(t)
	old, _ := e.mint(t, e.mount, 0)
	s2, err := New(Options{Log: e.log, Name: "as2"})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	e.guard.MoveTo(s2)
	if _, m, _ := e.getJSON(c, MetadataURL(e.mount)); !slices.Equal(toStrings(m["authorization_servers"]), []string{s2.Issuer()}) {
		t.Errorf("metadata %v", m)
	}
	if e.statusOf(t, old) != 401 {
		t.Error("the old server's token was accepted")
	}
	if err := s2.RegisterClient("c2", "", []string{redirectURI}, nil); err != nil {
		t.Fatal(err)
	}
	fresh, _, err := s2.MintTokens(c, "c2", e.mount, 0)
	if err != nil {
		t.Fatal(err)
	}
	if e.statusOf(t, fresh) != 200 {
		t.Error("the new server's token was refused")
	}
}

// mintFor mints an access token of a new client id for resource.
func (e *env) mintFor(t *testing.T, id, resource string) string {
	t.Helper()
	if err := e.as.RegisterClient(id, "", []string{redirectURI}, nil); err != nil {
		t.Fatal(err)
	}
	access, _, err := e.as.MintTokens(ctx(t), id, resource, 0)
	if err != nil {
		t.Fatal(err)
	}
	return access
}

// statusOf posts a tools/list with token and returns the status.
func (e *env) statusOf(t *testing.T, token string) int {
	t.Helper()
	status, _ := e.postMethod(t, token, "tools/list")
	return status
}

// postMethod posts a JSON-RPC request of method with token.
func (e *env) postMethod(t *testing.T, token, method string) (int, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx(t), http.MethodPost, e.mount, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":{"name":"echo","arguments":{}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate")
}
