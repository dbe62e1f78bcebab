package oauth

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/fakes/tlsca"
)

// testDeadline bounds every wait of a test.
const testDeadline = 30 * time.Second

// redirectURI is the client's loopback callback; nobody listens there:
// Authorize never follows the redirect to it.
const redirectURI = "http://127.0.0.1:43117/cb"

// env is an authorization server and an HTTP MCP fake whose mount "tools"
// it protects.
type env struct {
	log    *record.Log
	ca     *tlsca.CA // nil for plain HTTP
	as     *Server
	mcp    *mcpfake.HTTPServer
	mount  string // the protected mount's URL
	guard  *Resource
	client *http.Client // trusts the CA, follows no redirect
}

// envConfig chooses an env.
type envConfig struct {
	tls      bool
	faults   Faults
	shape    Shape
	resource ResourceOptions
	coHosted bool // the AS on the MCP fake's origin
}

// newEnv starts an env; everything closes with the test.
func newEnv(t testing.TB, c envConfig) *env {
	t.Helper()
	e := &env{log: record.NewLog()}
	var mopts []mcpfake.HTTPOptions
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.Proxy = nil
	if c.tls {
		ca, err := tlsca.New("oauth test CA")
		if err != nil {
			t.Fatal(err)
		}
		cert, err := ca.Issue("127.0.0.1", "localhost", "::1")
		if err != nil {
			t.Fatal(err)
		}
		e.ca = ca
		mopts = append(mopts, mcpfake.HTTPOptions{TLS: &cert})
		transport.TLSClientConfig = &tls.Config{RootCAs: ca.Pool()}
	}
	e.client = &http.Client{
		Transport:     transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       testDeadline,
	}
	t.Cleanup(transport.CloseIdleConnections)
	h, err := mcpfake.NewHTTPServer(e.log, mopts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.Close(); err != nil {
			t.Error(err)
		}
	})
	e.mcp = h
	opts := Options{Log: e.log, Name: "as", CA: e.ca, Faults: c.faults, Shape: c.shape}
	if c.coHosted {
		e.as, err = NewCoHosted(opts, h.BaseURL())
	} else {
		e.as, err = New(opts)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.as.Close(); err != nil {
			t.Error(err)
		}
	})
	if c.coHosted {
		e.as.RegisterOn(h)
	}
	e.guard = e.as.Resource(c.resource)
	e.mount = h.Mount(&mcpfake.Script{
		Name:  "tools",
		Tools: []mcpfake.Tool{{Name: "echo"}},
		HTTP:  &mcpfake.HTTPBehaviour{Guard: e.guard},
	})
	return e
}

// ctx is a context bounded by the test deadline.
func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), testDeadline)
	t.Cleanup(cancel)
	return c
}

// login is what a host does, step by step; each step's result is kept so
// that tests can stop at the step a fault breaks.
type login struct {
	e        *env
	ctx      context.Context
	prm      *oauthex.ProtectedResourceMetadata
	meta     *oauthex.AuthServerMeta
	reg      *oauthex.ClientRegistrationResponse
	cfg      *oauth2.Config
	verifier string
	state    string
	authURL  string
	callback *url.URL
	token    *oauth2.Token
	// discovery counts the metadata requests discover made.
	discovery int
}

// newLogin starts a login against e.
func (e *env) newLogin(ctx context.Context) *login {
	return &login{e: e, ctx: context.WithValue(ctx, oauth2.HTTPClient, e.client)}
}

// discover finds the PRM and the AS metadata as the official client does
// (spec/oauth-official-client.md): the PRM at the 401's resource_metadata,
// else at the path-inserted and then the root well-known URL; the AS
// metadata at the RFC 8414 and then the OpenID Connect well-known URLs
// (path-inserted, then path-appended, for an issuer with a path). It counts
// the discovery requests it makes.
func (l *login) discover() error {
	req, _ := http.NewRequestWithContext(l.ctx, http.MethodPost, l.e.mount, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := l.e.client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return fmt.Errorf("the mount answered %s without a token", resp.Status)
	}
	chs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil || len(chs) != 1 {
		return fmt.Errorf("challenge %q: %v", resp.Header.Values("WWW-Authenticate"), err)
	}
	candidates := []string{chs[0].Params["resource_metadata"]}
	if candidates[0] == "" {
		u, _ := url.Parse(l.e.mount)
		candidates = []string{MetadataURL(l.e.mount), u.Scheme + "://" + u.Host + mcpfake.ProtectedResourceMetadataPrefix}
	}
	for _, c := range candidates {
		l.discovery++
		resp, m, err := l.e.getJSON(l.ctx, c)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			continue
		}
		b, _ := json.Marshal(m)
		l.prm = &oauthex.ProtectedResourceMetadata{}
		if err := json.Unmarshal(b, l.prm); err != nil {
			return err
		}
		break
	}
	if l.prm == nil || len(l.prm.AuthorizationServers) == 0 {
		return errors.New("no protected resource metadata naming an authorization server")
	}
	issuer := l.prm.AuthorizationServers[0]
	for _, c := range metadataCandidates(issuer) {
		l.discovery++
		if l.meta, err = oauthex.GetAuthServerMeta(l.ctx, c, issuer, l.e.client); err != nil || l.meta != nil {
			return err
		}
	}
	return errors.New("no authorization server metadata")
}

// metadataCandidates are the well-known URLs of an issuer's metadata, in
// the official client's order.
func metadataCandidates(issuer string) []string {
	u, _ := url.Parse(issuer)
	origin := u.Scheme + "://" + u.Host
	p := strings.TrimSuffix(u.Path, "/")
	if p == "" {
		return []string{origin + oauthWellKnown, origin + openIDWellKnown}
	}
	return []string{origin + oauthWellKnown + p, origin + openIDWellKnown + p, origin + p + openIDWellKnown}
}

// register registers a public client (DCR) and builds its oauth2 config.
func (l *login) register() error {
	var err error
	l.reg, err = oauthex.RegisterClient(l.ctx, l.meta.RegistrationEndpoint, &oauthex.ClientRegistrationMetadata{
		RedirectURIs:            []string{redirectURI},
		TokenEndpointAuthMethod: "none",
		GrantTypes:              []string{"authorization_code", "refresh_token"},
		ResponseTypes:           []string{"code"},
		ClientName:              "oauth test host",
	}, l.e.client)
	if err != nil {
		return err
	}
	l.cfg = &oauth2.Config{
		ClientID:    l.reg.ClientID,
		Endpoint:    oauth2.Endpoint{AuthURL: l.meta.AuthorizationEndpoint, TokenURL: l.meta.TokenEndpoint, AuthStyle: oauth2.AuthStyleInParams},
		RedirectURL: redirectURI,
	}
	return nil
}

// authorize builds the authorization URL (PKCE S256, state, resource) and
// has the user consent.
func (l *login) authorize() error {
	l.verifier = oauth2.GenerateVerifier()
	l.state = "state-" + oauth2.GenerateVerifier()[:16]
	l.authURL = l.cfg.AuthCodeURL(l.state, oauth2.S256ChallengeOption(l.verifier), oauth2.SetAuthURLParam("resource", l.e.mount))
	cb, err := l.e.as.Authorize(l.ctx, l.authURL)
	if err != nil {
		return err
	}
	l.callback, err = url.Parse(cb)
	return err
}

// exchange checks the callback as a careful host does (one state, equal to
// ours; one iss, equal to the issuer) and trades the code for tokens.
func (l *login) exchange() error {
	q := l.callback.Query()
	if len(q["state"]) != 1 || q.Get("state") != l.state {
		return fmt.Errorf("callback state %q", q["state"])
	}
	if len(q["iss"]) != 1 || q.Get("iss") != l.meta.Issuer {
		return fmt.Errorf("callback iss %q, issuer %q", q["iss"], l.meta.Issuer)
	}
	if len(q["code"]) != 1 {
		return fmt.Errorf("callback code %q (error %q)", q["code"], q.Get("error"))
	}
	var err error
	l.token, err = l.cfg.Exchange(l.ctx, q.Get("code"), oauth2.VerifierOption(l.verifier), oauth2.SetAuthURLParam("resource", l.e.mount))
	return err
}

// run runs every step, failing the test at the first error.
func (l *login) run(t testing.TB) {
	t.Helper()
	for _, step := range []struct {
		name string
		f    func() error
	}{{"discovery", l.discover}, {"registration", l.register}, {"authorization", l.authorize}, {"exchange", l.exchange}} {
		if err := step.f(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
	}
}

// bearerTransport adds a bearer token to every request.
type bearerTransport struct {
	base  http.RoundTripper
	token string
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// listTools connects a go-sdk MCP client to the mount with token and lists
// the tools.
func (e *env) listTools(ctx context.Context, token string) ([]string, error) {
	hc := &http.Client{Transport: bearerTransport{base: e.client.Transport, token: token}, CheckRedirect: e.client.CheckRedirect}
	c := mcp.NewClient(&mcp.Implementation{Name: "oauth-test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: e.mount, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names, nil
}

// post sends a JSON-RPC tools/list to the mount with token ("" for none)
// and returns the status and WWW-Authenticate.
func (e *env) post(ctx context.Context, token string) (int, string, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.mount, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return 0, "", err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate"), nil
}

// getJSON GETs u without following redirects and decodes a JSON object
// body, if any.
func (e *env) getJSON(ctx context.Context, u string) (*http.Response, map[string]any, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return resp, m, nil
}

// asRecords returns the records of the authorization server named "as"
// with endpoint method ("" for any).
func asRecords(rs []record.Record, method string) []record.Record {
	var out []record.Record
	for _, r := range rs {
		if r.Server == "as" && r.Kind == record.KindHTTP && (method == "" || r.Method == method) {
			out = append(out, r)
		}
	}
	return out
}

// waitRecords waits until cond holds for the log.
func (e *env) waitRecords(t testing.TB, what string, cond func([]record.Record) bool) []record.Record {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), testDeadline)
	defer cancel()
	rs, err := e.log.Wait(c, cond)
	if err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
	return rs
}

// params decodes a record's Params.
func paramsOf(t testing.TB, r record.Record) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Params, &m); err != nil {
		t.Fatalf("params %s: %v", r.Params, err)
	}
	return m
}

// jsonDecode decodes a JSON response body into v.
func jsonDecode(resp *http.Response, v any) error {
	return json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v)
}
