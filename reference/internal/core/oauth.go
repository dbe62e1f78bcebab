package core

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/mcpconform/mcpconform/reference/netpolicy"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// DefaultLoginTimeout is the total deadline of a first connection and its
// login when [OAuthConfig.TimeoutMs] is not set (LA-OAU-31).
const DefaultLoginTimeout = 180 * time.Second

// MaxLoginTimeoutMs is the largest [OAuthConfig.TimeoutMs] (LA-OAU-32).
const MaxLoginTimeoutMs = 600000

// OAuthConfig binds OAuth to one server by name: lite-agent's
// mcpOAuth.<name>. The server may come from either configuration file, the
// mcpServers option or [Registry.Register]; there is no other way to
// register it (LA-OAU-01). Configuration files never hold any of this
// (LA-OAU-02).
type OAuthConfig struct {
	// ServerURL must equal the server's configured URL exactly: a
	// configuration that points the name elsewhere never gets these
	// credentials (LA-OAU-23, LA-OAU-24).
	ServerURL string
	// AllowedOrigins are the origins (scheme://host[:port]) that the
	// authorization server's metadata, registration, authorization and token
	// endpoints may be on, besides the MCP server's own origin, which is
	// always allowed (LA-OAU-21, LA-OAU-22).
	AllowedOrigins []string
	// Provider stores the client's registration, tokens and PKCE verifier:
	// the host's storage (McpOAuthProvider). One provider serves one active
	// connection at a time (LA-OAU-10). Nil with ClientCredentials.
	Provider OAuthProvider
	// ClientCredentials, when set, authenticates the agent itself with the
	// client-credentials grant: no user, no Authorize (LA-CC-01, LA-CC-02).
	ClientCredentials *ClientCredentials
	// Authorize is the host's login step (authorize(url, {signal})): it
	// shows authURL to the user and returns the full callback URL,
	// including code, state and iss. ctx is the signal: it ends on
	// cancellation, at the login deadline and when the agent closes
	// (LA-OAU-04); whatever Authorize returns after that is never redeemed
	// (LA-OAU-05). The SDK opens no page, listener or browser itself
	// (LA-OAU-03).
	Authorize func(ctx context.Context, authURL string) (callbackURL string, err error)
	// TimeoutMs is the deadline of a first connection and its login, in
	// whole milliseconds from 1 to [MaxLoginTimeoutMs]; nil means
	// [DefaultLoginTimeout]. A float, so that hosts can pass what their
	// configuration holds and have NaN and fractions refused (LA-OAU-32).
	TimeoutMs *float64
}

// ClientCredentials configure the official client-credentials provider.
// Its client authenticates at the token endpoint with the method the
// authorization server supports, HTTP Basic first (see
// [ClientInformation.TokenEndpointAuthMethod]).
type ClientCredentials struct {
	ClientID     string
	ClientSecret string
	// ExpectedIssuer is the issuer the credentials belong to: an
	// authorization server whose metadata names another issuer never
	// receives the secret (LA-CC-03). It is the issuer the client
	// information is bound to, as [ClientInformation.Issuer] binds a
	// registered client.
	ExpectedIssuer string
}

// OAuthProvider is lite-agent's McpOAuthProvider: the storage half of the
// official OAuthClientProvider, without state, redirectToAuthorization and
// DPoP, which the SDK manages or does not support (LA-OAU-07). The SDK
// never deletes what it stores (LA-OAU-11). What it saves is bound to the
// authorization server that issued it ([ClientInformation.Issuer],
// [Tokens.Issuer]): a provider that stores the values as given keeps that
// binding, and a client or tokens of one authorization server are never
// shown to another (LA-OAU-15). A provider may also describe its client by
// a client ID metadata document ([ClientMetadataDocumentProvider]).
type OAuthProvider interface {
	// RedirectURL is where the authorization server sends the user back;
	// the whole callback URL is checked against it (LA-OAU-17).
	RedirectURL(ctx context.Context) (string, error)
	// ClientMetadata describes the client for dynamic registration. The
	// reference sends it as it is, adding grant_types
	// (authorization_code and refresh_token) and application_type when
	// they are not set, and the scope it asks for; see [ClientMetadata].
	ClientMetadata(ctx context.Context) (ClientMetadata, error)
	// ClientInformation returns the registered client, nil if none yet.
	ClientInformation(ctx context.Context) (*ClientInformation, error)
	SaveClientInformation(ctx context.Context, info ClientInformation) error
	// Tokens returns the saved tokens, nil if none.
	Tokens(ctx context.Context) (*Tokens, error)
	SaveTokens(ctx context.Context, t Tokens) error
	// CodeVerifier returns the PKCE verifier of the login in progress.
	CodeVerifier(ctx context.Context) (string, error)
	SaveCodeVerifier(ctx context.Context, v string) error
	// InvalidateCredentials drops what the scope names ("all", "client",
	// "tokens", "verifier"). The reference never calls it on close or
	// unregister (LA-OAU-11).
	InvalidateCredentials(ctx context.Context, scope string) error
}

// ClientMetadataDocumentProvider is implemented by an [OAuthProvider] whose
// client is described by a client ID metadata document: ClientMetadataURL
// returns the document's https URL (with a path), or "" for none. When the
// authorization server advertises client_id_metadata_document_supported,
// that URL is the client_id and no registration happens; otherwise the
// client registers dynamically. A URL that is not https with a path is an
// error, as in the official client.
type ClientMetadataDocumentProvider interface {
	ClientMetadataURL(ctx context.Context) (string, error)
}

// ClientMetadata is RFC 7591 client metadata, as the official client's
// OAuthClientMetadata holds it. For dynamic registration the reference
// sends it as it is, with two defaults the official client applies when
// the field is empty: GrantTypes authorization_code and refresh_token, and
// ApplicationType "native" when a redirect URI is on a loopback host or
// not http(s), "web" otherwise (OpenID Connect dynamic registration, RFC
// 8252); and Scope replaced by the scope the login asks for, if any.
// TokenEndpointAuthMethod left empty lets the authorization server choose
// (RFC 7591: client_secret_basic).
type ClientMetadata struct {
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	ApplicationType         string   `json:"application_type,omitempty"`
	ClientName              string   `json:"client_name,omitempty"`
	ClientURI               string   `json:"client_uri,omitempty"`
	LogoURI                 string   `json:"logo_uri,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
	Contacts                []string `json:"contacts,omitempty"`
	TOSURI                  string   `json:"tos_uri,omitempty"`
	PolicyURI               string   `json:"policy_uri,omitempty"`
	JWKSURI                 string   `json:"jwks_uri,omitempty"`
	SoftwareID              string   `json:"software_id,omitempty"`
	SoftwareVersion         string   `json:"software_version,omitempty"`
	SoftwareStatement       string   `json:"software_statement,omitempty"`
}

// ClientInformation is a client of an authorization server: registered
// dynamically, pre-registered by the host, or a client ID metadata
// document's URL.
type ClientInformation struct {
	ClientID              string `json:"client_id"`
	ClientSecret          string `json:"client_secret,omitempty"`
	ClientIDIssuedAt      int64  `json:"client_id_issued_at,omitempty"`
	ClientSecretExpiresAt int64  `json:"client_secret_expires_at,omitempty"`
	// TokenEndpointAuthMethod is how the client authenticates at the
	// token endpoint, as registered: client_secret_basic,
	// client_secret_post or none. Empty (or one the server does not list)
	// means: HTTP Basic when there is a secret and the server supports it,
	// else the secret in the form, else none.
	TokenEndpointAuthMethod string `json:"token_endpoint_auth_method,omitempty"`
	// Issuer is the authorization server the client belongs to. A client
	// of another issuer is never used: the reference registers again with
	// the server it now meets (LA-OAU-15). Empty means not known yet: the
	// reference then binds the client to the server it first uses it with,
	// and saves it so.
	Issuer string `json:"issuer,omitempty"`
}

// Tokens are an OAuth token response, as stored.
type Tokens struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	RefreshToken string `json:"refresh_token,omitempty"`
	ExpiresIn    int64  `json:"expires_in,omitempty"`
	Scope        string `json:"scope,omitempty"`
	// Issuer is the authorization server that issued the tokens: they are
	// refreshed only there (LA-OAU-15). Empty means not known yet, as for
	// [ClientInformation.Issuer].
	Issuer string `json:"issuer,omitempty"`
}

// loginTimeout is the deadline of a binding's first connection and login.
func (c OAuthConfig) loginTimeout() time.Duration {
	if c.TimeoutMs == nil {
		return DefaultLoginTimeout
	}
	return time.Duration(*c.TimeoutMs) * time.Millisecond
}

// validateOAuth checks the mcpOAuth option at construction: every binding
// names a valid alias and says how it authenticates, with a valid deadline
// and origins. Whether it fits its server is checked with the server's
// entry (checkBinding).
func (a *Host) validateOAuth() error {
	names := make([]string, 0, len(a.opts.MCPOAuth))
	for name := range a.opts.MCPOAuth {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		c := a.opts.MCPOAuth[name]
		field := "mcpOAuth." + name
		fail := func(rule, sub, format string, args ...any) error {
			return &Error{Kind: KindConfig, Rule: rule, Source: "mcpOAuth option", Field: joinField(field, sub), Msg: fmt.Sprintf(format, args...)}
		}
		if err := validateAlias(name, a.faults); err != nil {
			return err.(*Error).at("mcpOAuth option", field)
		}
		if _, err := netpolicy.CheckURL(c.ServerURL); err != nil {
			return fail("LA-OAU-25", "serverUrl", "%v", err)
		}
		// LA-OAU-32: a whole number of milliseconds from 1 to 600000.
		if c.TimeoutMs != nil && !a.faults.Has(fault.AnyLoginTimeout) {
			v := *c.TimeoutMs
			if math.IsNaN(v) || v != math.Trunc(v) || v < 1 || v > MaxLoginTimeoutMs {
				return fail("LA-OAU-32", "timeoutMs", "timeoutMs must be a whole number of milliseconds from 1 to %d, not %v", MaxLoginTimeoutMs, v)
			}
		}
		switch {
		case c.Provider != nil && c.ClientCredentials != nil:
			return fail("LA-CC-01", "provider", "a binding has either a provider or client credentials, not both")
		case c.Provider == nil && c.ClientCredentials == nil:
			return fail("LA-OAU-07", "provider", "a binding needs a provider (or client credentials)")
		case c.ClientCredentials != nil && c.Authorize != nil:
			return fail("LA-CC-02", "authorize", "client credentials need no authorize(); the flow has no interactive step")
		case c.Provider != nil && c.Authorize == nil:
			return fail("LA-CC-02", "authorize", "an interactive provider needs authorize(); only client credentials work without it")
		}
		if cc := c.ClientCredentials; cc != nil {
			if cc.ClientID == "" || cc.ClientSecret == "" {
				return fail("LA-CC-01", "provider", "client credentials need a client id and a secret")
			}
			if _, err := netpolicy.CheckURL(cc.ExpectedIssuer); err != nil {
				return fail("LA-CC-03", "provider.expectedIssuer", "%v", err)
			}
		}
		for i, o := range c.AllowedOrigins {
			// LA-OAU-25: allowed origins are HTTPS or loopback.
			if _, err := parseOrigin(o); err != nil && !a.faults.Has(fault.AllowPlainHTTPTargets) {
				return fail("LA-OAU-21", fmt.Sprintf("allowedOrigins[%d]", i), "%v", err)
			}
		}
	}
	return nil
}

// parseOrigin checks that o is an origin (scheme://host[:port], nothing
// else) that follows the HTTPS-or-loopback rule, and returns it in the
// form [originOf] compares.
func parseOrigin(o string) (string, error) {
	u, err := netpolicy.CheckURL(o)
	if err != nil {
		return "", err
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return "", fmt.Errorf("%q is not an origin: it has a path or a query", o)
	}
	return originOf(u), nil
}

// originOf returns the origin of a URL: lower-case scheme and host, and
// the port, explicit or the scheme's default.
func originOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[scheme]
	}
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host + ":" + port
}

// checkBinding checks a server entry against the OAuth binding of its
// name, if any: OAuth is for http servers without static headers, and the
// binding's serverUrl must be the entry's URL exactly (LA-OAU-23,
// LA-OAU-24, LA-OAU-27).
func (a *Host) checkBinding(name string, c *ServerConfig, d *decoder, field string) error {
	b, ok := a.opts.MCPOAuth[name]
	if !ok {
		return nil
	}
	if c.transport() != TransportHTTP {
		return d.fail("LA-OAU-01", joinField(field, "type"), "mcpOAuth.%s binds OAuth to a %s server; OAuth is for http servers", name, c.transport())
	}
	// LA-OAU-27: OAuth and static headers do not combine.
	if len(c.Headers) > 0 && !a.faults.Has(fault.OAuthWithHeaders) {
		return d.fail("LA-OAU-27", joinField(field, "headers"), "server %q has static headers and an mcpOAuth binding; OAuth and static headers cannot be combined", name)
	}
	same := b.ServerURL == c.URL
	switch {
	case a.faults.Has(fault.CarryCredentials): // LA-OAU-24: the credentials never follow the name elsewhere
		same = true
	case a.faults.Has(fault.LooseServerURL): // LA-OAU-23: serverUrl matches character for character
		same = looseURL(b.ServerURL) == looseURL(c.URL)
	}
	if !same {
		return d.fail("LA-OAU-23", joinField(field, "url"), "mcpOAuth.%s.serverUrl is %q but the server's URL is %q; they must be equal, character for character", name, b.ServerURL, c.URL)
	}
	return nil
}

// connectOAuth connects a server bound to OAuth. The provider is claimed
// for this connection first (LA-OAU-10); then, within the login deadline
// (LA-OAU-31, LA-OAU-32), the server is connected with the provider's
// saved token, or none. When the server refuses (401) and no refresh helps
// (a client-credentials session gets its token then), an interactive
// provider logs in, as the official client does after a 401, and the
// connection is tried again: a login only ever happens here, in a register
// or a first connection, never during a run (LA-OAU-34, LA-OAU-37).
func (a *Host) connectOAuth(ctx context.Context, s *server, b OAuthConfig) (*connection, error) {
	if err := a.reg.claimProvider(b.Provider, s.name); err != nil {
		return nil, err
	}
	owned := false
	defer func() {
		if !owned {
			a.reg.releaseProvider(b.Provider, s.name)
		}
	}()
	auth, err := a.newOAuthSession(s, b)
	if err != nil {
		return nil, err
	}
	// Only a first connection, of a declared or registered server, may
	// log in; reconnecting a server during a run may only use or refresh
	// its tokens (LA-OAU-34, LA-OAU-37).
	a.reg.mu.Lock()
	auth.interactive = !s.connected || a.faults.Has(fault.ReloginDuringRun)
	a.reg.mu.Unlock()
	timeout := b.loginTimeout()
	// LA-OAU-31: 180 s by default.
	if a.faults.Has(fault.LongLoginDeadline) && b.TimeoutMs == nil {
		timeout = 300 * time.Second
	}
	loginCtx, cancel := a.opts.Clock.WithTimeout(ctx, timeout)
	defer cancel()
	fail := func(err error) (*connection, error) {
		if loginCtx.Err() != nil && ctx.Err() == nil {
			err = &Error{Kind: KindTimeout, Rule: "LA-OAU-31", Source: s.name, Msg: fmt.Sprintf("the first connection and login of %q did not finish within %v", s.name, timeout), Err: err}
		}
		a.opts.Logger.Warn("oauth: connecting failed", "server", s.name, "err", a.logText(err))
		return nil, err
	}
	if err := auth.prepare(loginCtx); err != nil {
		return fail(err)
	}
	conn, err := a.connectTimed(loginCtx, s, auth)
	if err != nil && auth.needsLogin.Swap(false) && b.Provider != nil && auth.interactive && loginCtx.Err() == nil {
		if lerr := auth.login(loginCtx); lerr != nil {
			return fail(lerr)
		}
		conn, err = a.connectTimed(loginCtx, s, auth)
	}
	if err != nil {
		return fail(err)
	}
	owned = true
	conn.ownsAuth = true
	return conn, nil
}

// claimProvider binds provider p to the connection of server name, unless
// another server's active connection holds it (LA-OAU-10). Providers of
// incomparable types cannot be told apart and are not tracked.
func (r *Registry) claimProvider(p OAuthProvider, name string) error {
	if p == nil || !reflect.TypeOf(p).Comparable() || r.agent.faults.Has(fault.ShareProvider) {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.providers == nil {
		r.providers = map[OAuthProvider]string{}
	}
	if other, ok := r.providers[p]; ok && other != name {
		return &Error{Kind: KindConflict, Rule: "LA-OAU-10", Source: name,
			Msg: fmt.Sprintf("the provider of mcpOAuth.%s is bound to the active connection of %q; one provider serves one connection at a time", name, other)}
	}
	r.providers[p] = name
	return nil
}

// releaseProvider ends the binding of provider p to server name.
func (r *Registry) releaseProvider(p OAuthProvider, name string) {
	if p == nil || !reflect.TypeOf(p).Comparable() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.providers[p] == name {
		delete(r.providers, p)
	}
}

// looseURL is a URL with case, default ports and a trailing slash
// forgotten. It serves only [fault.LooseServerURL]: serverUrl must match
// exactly (LA-OAU-23).
func looseURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return originOf(u) + strings.TrimSuffix(u.Path, "/") + "?" + u.RawQuery
}
