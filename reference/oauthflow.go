package reference

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
	"golang.org/x/sync/singleflight"
)

// maxOAuthBody bounds what the reference reads of any OAuth response.
const maxOAuthBody = 1 << 20

// oauthSession authenticates the connections of one bound server: it
// discovers the authorization server, logs in (interactively or with
// client credentials), holds the current token and refreshes it.
type oauthSession struct {
	a         *Agent
	server    string
	cfg       OAuthConfig
	serverURL string
	// timeout is the server's timeout: it bounds a refresh as a whole.
	timeout time.Duration
	// allowed are the origins the session may contact; open switches
	// the target rules off (MutCCIgnoresOrigins only).
	allowed map[string]bool
	open    bool
	client  *http.Client // origin-restricted, no redirects, bounded requests

	mu     sync.Mutex
	tokens *Tokens
	meta   *oauthex.AuthServerMeta
	info   *ClientInformation

	refreshes singleflight.Group
	// rejected says the server refused a token that no refresh could
	// replace; connectOAuth then logs in again, if interactive.
	rejected atomic.Bool
	// interactive says a login may ask the user (authorize()).
	interactive bool
}

// newOAuthSession prepares the OAuth of server s under binding cfg; the
// server's timeout bounds each authentication request (LA-OAU-33).
func (a *Agent) newOAuthSession(s *server, cfg OAuthConfig) (*oauthSession, error) {
	u, err := url.Parse(s.cfg.URL)
	if err != nil {
		return nil, newError(KindConfig, "LA-OAU-23", "the URL of %q does not parse", s.name)
	}
	allowed := map[string]bool{originOf(u): !a.mut.has(MutMCPOriginNotImplied)}
	for _, o := range cfg.AllowedOrigins {
		if n, err := parseOrigin(o); err == nil {
			allowed[n] = true
		} else if u, perr := url.Parse(o); perr == nil && a.mut.has(MutAllowPlainHTTPTargets) {
			allowed[originOf(u)] = true
		}
	}
	o := &oauthSession{a: a, server: s.name, cfg: cfg, serverURL: s.cfg.URL, timeout: s.cfg.timeout(),
		allowed: allowed, open: cfg.ClientCredentials != nil && a.mut.has(MutCCIgnoresOrigins)}
	o.client = a.newOAuthClient(allowed, s.cfg.timeout(), o.open)
	return o, nil
}

// closed ends the session with its connection: the provider is free
// again. Nothing is deleted and nothing is revoked (LA-OAU-11, LA-OAU-12).
func (o *oauthSession) closed() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if o.a.mut.has(MutInvalidateOnClose) && o.cfg.Provider != nil {
		_ = o.cfg.Provider.InvalidateCredentials(ctx, "all")
	}
	if meta := o.metadata(); o.a.mut.has(MutRevokeOnClose) && meta != nil && meta.RevocationEndpoint != "" {
		if resp, err := o.client.PostForm(meta.RevocationEndpoint, url.Values{"token": {o.bearer()}}); err == nil {
			resp.Body.Close()
		}
	}
	o.a.reg.releaseProvider(o.cfg.Provider, o.server)
}

// bearer returns the current access token, "" if none.
func (o *oauthSession) bearer() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.tokens == nil {
		return ""
	}
	return o.tokens.AccessToken
}

// prepare makes sure the session holds a token before the first
// connection: the provider's saved one (LA-OAU-13), or a new login.
func (o *oauthSession) prepare(ctx context.Context) error {
	if o.cfg.ClientCredentials != nil {
		return o.login(ctx)
	}
	if !o.a.mut.has(MutAlwaysLogin) {
		t, err := o.cfg.Provider.Tokens(ctx)
		if err != nil {
			return o.fail("LA-OAU-13", "the provider could not return its tokens", err)
		}
		if t != nil && t.AccessToken != "" {
			o.mu.Lock()
			o.tokens = t
			o.mu.Unlock()
			return nil
		}
	}
	if !o.interactive {
		return o.fail("LA-OAU-37", "the server needs a new login, which only the host starts: unregister it and register it again", nil)
	}
	return o.login(ctx)
}

// login runs the whole flow: discovery, then client credentials or an
// interactive authorization, ending with a saved token.
func (o *oauthSession) login(ctx context.Context) error {
	if err := o.discover(ctx); err != nil {
		return err
	}
	if o.cfg.ClientCredentials != nil {
		return o.clientCredentials(ctx)
	}
	return o.authorize(ctx)
}

// fail wraps an OAuth failure of the session's server.
func (o *oauthSession) fail(rule, msg string, err error) *Error {
	kind := KindSecurity
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		kind = KindTimeout
	case errors.Is(err, context.Canceled):
		kind = KindCancelled
	}
	return &Error{Kind: kind, Rule: rule, Source: o.server, Msg: msg, Err: err}
}

// discover fetches the protected resource metadata of the MCP URL (RFC
// 9728) and the metadata of its authorization server (RFC 8414), and checks
// that every endpoint the flow uses is an allowed target (LA-OAU-21,
// LA-OAU-25) and that the metadata names the issuer it was fetched for
// (LA-OAU-19).
func (o *oauthSession) discover(ctx context.Context) error {
	o.mu.Lock()
	done := o.meta != nil
	o.mu.Unlock()
	if done {
		return nil
	}
	prm, err := getJSON[oauthex.ProtectedResourceMetadata](ctx, o.client, wellKnown(o.serverURL, "oauth-protected-resource"))
	if err != nil {
		return o.fail(ruleOf(err, "LA-OAU-15"), "fetching the protected resource metadata failed", err)
	}
	if prm.Resource != o.serverURL || len(prm.AuthorizationServers) == 0 {
		return o.fail("LA-OAU-15", fmt.Sprintf("the protected resource metadata names resource %q and %d authorization servers; want resource %q and one", prm.Resource, len(prm.AuthorizationServers), o.serverURL), nil)
	}
	issuer := prm.AuthorizationServers[0]
	meta, err := getJSON[oauthex.AuthServerMeta](ctx, o.client, wellKnown(issuer, "oauth-authorization-server"))
	if err != nil {
		return o.fail(ruleOf(err, "LA-OAU-15"), "fetching the authorization server metadata failed", err)
	}
	if meta.Issuer != issuer && !o.a.mut.has(MutIgnoreIssuer) {
		return o.fail("LA-OAU-19", fmt.Sprintf("the authorization server metadata names issuer %q, not %q it was fetched for", meta.Issuer, issuer), nil)
	}
	if cc := o.cfg.ClientCredentials; cc != nil && meta.Issuer != cc.ExpectedIssuer && !o.a.mut.has(MutIgnoreExpectedIssuer) {
		return o.fail("LA-CC-03", fmt.Sprintf("the authorization server's issuer is %q, not the expected %q; the client secret is not sent", meta.Issuer, cc.ExpectedIssuer), nil)
	}
	endpoints := map[string]string{"token_endpoint": meta.TokenEndpoint}
	if o.cfg.ClientCredentials == nil {
		endpoints["authorization_endpoint"] = meta.AuthorizationEndpoint
		endpoints["registration_endpoint"] = meta.RegistrationEndpoint
	}
	for name, raw := range endpoints {
		if raw == "" {
			if name == "registration_endpoint" {
				continue
			}
			return o.fail("LA-OAU-15", fmt.Sprintf("the authorization server metadata has no %s", name), nil)
		}
		if o.open {
			continue
		}
		if err := o.a.checkOAuthTarget(raw, o.allowed); err != nil {
			var e *Error
			errors.As(err, &e)
			return o.fail(e.Rule, fmt.Sprintf("the %s %s", name, e.Msg), nil)
		}
	}
	o.mu.Lock()
	o.meta = meta
	o.mu.Unlock()
	return nil
}

// authorize runs an interactive login: dynamic registration when the
// provider has no client yet, PKCE S256, a fresh random state, the host's
// authorize(), the check of the whole callback URL, and the code exchange
// (LA-OAU-15..20). A callback that arrives after the signal ended is never
// redeemed (LA-OAU-05).
func (o *oauthSession) authorize(ctx context.Context) error {
	p := o.cfg.Provider
	redirect, err := p.RedirectURL(ctx)
	if err != nil {
		return o.fail("LA-OAU-17", "the provider has no redirect URL", err)
	}
	info, err := o.client_(ctx, redirect)
	if err != nil {
		return err
	}
	verifier := oauth2.GenerateVerifier()
	if o.a.mut.has(MutResumeLogin) {
		if old, err := p.CodeVerifier(ctx); err == nil && old != "" {
			verifier = old
		}
	}
	if err := p.SaveCodeVerifier(ctx, verifier); err != nil {
		return o.fail("LA-OAU-15", "the provider could not save the code verifier", err)
	}
	state := newState(o.a.mut)
	if sp, ok := p.(interface {
		State(context.Context) (string, error)
	}); ok && o.a.mut.has(MutUseProviderState) {
		if st, err := sp.State(ctx); err == nil {
			state = st
		}
	}
	if o.a.mut.has(MutResumeLogin) {
		rememberState(state)
	}
	meta := o.metadata()
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {info.ClientID},
		"redirect_uri":          {redirect},
		"code_challenge":        {oauth2.S256ChallengeFromVerifier(verifier)},
		"code_challenge_method": {"S256"},
		"state":                 {state},
		"resource":              {o.serverURL},
	}
	if o.a.mut.has(MutNoResourceParam) {
		q.Del("resource")
	}
	if o.a.mut.has(MutNoState) {
		q.Del("state")
	}
	authURL := meta.AuthorizationEndpoint
	if strings.Contains(authURL, "?") {
		authURL += "&" + q.Encode()
	} else {
		authURL += "?" + q.Encode()
	}
	if o.a.mut.has(MutListenOnCallback) {
		if stop := listenOn(redirect); stop != nil {
			defer stop()
		}
	}
	callback, err := o.cfg.Authorize(ctx, authURL)
	if ctx.Err() != nil && !o.a.mut.has(MutExchangeLateCode) {
		return o.fail("LA-OAU-05", "the login ended (cancelled, closed or past its deadline) before authorize() returned; a late callback is never redeemed", context.Cause(ctx))
	}
	if err != nil && !o.a.mut.has(MutIgnoreAuthorizeError) {
		return o.fail("LA-OAU-20", "authorize() failed: the authorization was cancelled", err)
	}
	code, err := o.a.checkCallback(callback, redirect, state, meta.Issuer, meta.AuthorizationResponseIssParameterSupported)
	if err != nil {
		return err
	}
	if v, err := p.CodeVerifier(ctx); err == nil && v != "" {
		verifier = v
	}
	conf := o.oauth2Config(info, redirect)
	exchangeCtx := ctx
	if o.a.mut.has(MutExchangeLateCode) {
		exchangeCtx = context.WithoutCancel(ctx) // what LA-OAU-05 forbids
	}
	tok, err := conf.Exchange(o.clientCtx(exchangeCtx), code, oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", o.serverURL))
	if err != nil {
		return o.fail("LA-OAU-15", "the code exchange failed", o.redact(err))
	}
	return o.keep(ctx, tok, true)
}

// clientCtx is the context of x/oauth2 requests: ctx with the session's
// HTTP client.
func (o *oauthSession) clientCtx(ctx context.Context) context.Context {
	return context.WithValue(ctx, oauth2.HTTPClient, o.client)
}

// metadata returns the discovered authorization server metadata.
func (o *oauthSession) metadata() *oauthex.AuthServerMeta {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.meta
}

// client_ returns the provider's client, registering one dynamically
// (RFC 7591) when it has none (LA-OAU-15).
func (o *oauthSession) client_(ctx context.Context, redirect string) (*ClientInformation, error) {
	p := o.cfg.Provider
	info, err := p.ClientInformation(ctx)
	if err != nil {
		return nil, o.fail("LA-OAU-15", "the provider could not return its client information", err)
	}
	if info != nil && info.ClientID != "" {
		o.info = info
		return info, nil
	}
	meta := o.metadata()
	if meta.RegistrationEndpoint == "" {
		return nil, o.fail("LA-OAU-15", "the provider has no client and the authorization server offers no dynamic registration", nil)
	}
	cm, err := p.ClientMetadata(ctx)
	if err != nil {
		return nil, o.fail("LA-OAU-15", "the provider has no client metadata", err)
	}
	if len(cm.RedirectURIs) == 0 {
		cm.RedirectURIs = []string{redirect}
	}
	if cm.TokenEndpointAuthMethod == "" {
		cm.TokenEndpointAuthMethod = "none"
	}
	if cm.GrantTypes == nil {
		cm.GrantTypes = []string{"authorization_code", "refresh_token"}
	}
	if cm.ResponseTypes == nil {
		cm.ResponseTypes = []string{"code"}
	}
	body, _ := json.Marshal(cm)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, meta.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return nil, o.fail("LA-OAU-15", "the registration request could not be made", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := o.client.Do(req)
	if err != nil {
		return nil, o.fail(ruleOf(err, "LA-OAU-15"), "dynamic client registration failed", err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxOAuthBody))
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return nil, o.fail("LA-OAU-15", fmt.Sprintf("dynamic client registration answered %s%s", resp.Status, oauthErrorCode(data)), nil)
	}
	var reg ClientInformation
	if err := json.Unmarshal(data, &reg); err != nil || reg.ClientID == "" {
		return nil, o.fail("LA-OAU-15", "dynamic client registration answered no client_id", err)
	}
	if err := p.SaveClientInformation(ctx, reg); err != nil {
		return nil, o.fail("LA-OAU-15", "the provider could not save the client information", err)
	}
	o.info = &reg
	return &reg, nil
}

// oauth2Config is the x/oauth2 configuration of the session's client.
func (o *oauthSession) oauth2Config(info *ClientInformation, redirect string) *oauth2.Config {
	meta := o.metadata()
	style := oauth2.AuthStyleInParams
	if info.ClientSecret != "" {
		style = oauth2.AuthStyleInHeader
	}
	return &oauth2.Config{ClientID: info.ClientID, ClientSecret: info.ClientSecret, RedirectURL: redirect,
		Endpoint: oauth2.Endpoint{AuthURL: meta.AuthorizationEndpoint, TokenURL: meta.TokenEndpoint, AuthStyle: style}}
}

// clientCredentials gets a token with the client-credentials grant
// (LA-CC-01), after the issuer and every target were checked (LA-CC-03,
// LA-CC-04).
func (o *oauthSession) clientCredentials(ctx context.Context) error {
	cc := o.cfg.ClientCredentials
	meta := o.metadata()
	if o.a.mut.has(MutCCAuthorize) && meta.AuthorizationEndpoint != "" {
		if req, err := http.NewRequestWithContext(ctx, http.MethodGet, meta.AuthorizationEndpoint, nil); err == nil {
			if resp, err := o.client.Do(req); err == nil {
				resp.Body.Close()
			}
		}
	}
	conf := &clientcredentials.Config{ClientID: cc.ClientID, ClientSecret: cc.ClientSecret, TokenURL: meta.TokenEndpoint,
		EndpointParams: url.Values{"resource": {o.serverURL}}, AuthStyle: oauth2.AuthStyleInHeader}
	tok, err := conf.Token(o.clientCtx(ctx))
	if err != nil {
		return o.fail(ruleOf(err, "LA-CC-01"), "the client-credentials grant failed", o.redact(err))
	}
	return o.keep(ctx, tok, false)
}

// keep checks a token response and makes it the session's token, saving it
// in the provider (LA-OAU-28).
func (o *oauthSession) keep(ctx context.Context, tok *oauth2.Token, save bool) error {
	if tok.TokenType != "" && !strings.EqualFold(tok.TokenType, "bearer") && !o.a.mut.has(MutAcceptDPoP) {
		return o.fail("LA-OAU-28", fmt.Sprintf("the token endpoint issued a %q token; only Bearer tokens are supported (no DPoP)", tok.TokenType), nil)
	}
	t := Tokens{AccessToken: tok.AccessToken, TokenType: tok.TokenType, RefreshToken: tok.RefreshToken, ExpiresIn: tok.ExpiresIn}
	if save && !o.a.mut.has(MutCacheTokens) {
		if err := o.cfg.Provider.SaveTokens(ctx, t); err != nil {
			return o.fail("LA-OAU-15", "the provider could not save the tokens", err)
		}
	}
	o.mu.Lock()
	o.tokens = &t
	o.mu.Unlock()
	return nil
}

// errNoRefresh says a rejected token cannot be refreshed.
var errNoRefresh = errors.New("there is no refresh token, and a new login only happens when the host registers the server again (LA-OAU-37)")

// refresh replaces the access token stale after a 401: concurrent
// refreshes of one token are merged into one request (LA-OAU-35). It never
// logs in interactively (LA-OAU-34); a client-credentials session gets a
// new token the same way it got the first.
func (o *oauthSession) refresh(ctx context.Context, stale string) (string, error) {
	key := stale
	if o.a.mut.has(MutUnmergedRefresh) {
		key = fmt.Sprintf("%s#%d", stale, time.Now().UnixNano())
	}
	// The refresh is shared by every request refused meanwhile, so the
	// first one's cancellation must not end it: it runs on its own,
	// bounded by the server's timeout and by the agent's closing (each
	// OAuth request is bounded too, LA-OAU-33). A refused cancellation
	// notice of a call that timed out still refreshes the token.
	ctx, cancel := o.a.opts.Clock.WithTimeout(context.WithoutCancel(ctx), o.timeout)
	defer cancel()
	stop := context.AfterFunc(o.a.closeCtx, cancel)
	defer stop()
	v, err, _ := o.refreshes.Do(key, func() (any, error) {
		o.mu.Lock()
		cur := o.tokens
		o.mu.Unlock()
		if cur != nil && cur.AccessToken != stale && !o.a.mut.has(MutUnmergedRefresh) {
			return cur.AccessToken, nil // refreshed meanwhile
		}
		if o.cfg.ClientCredentials != nil {
			if err := o.login(ctx); err != nil {
				return "", err
			}
			return o.bearer(), nil
		}
		if o.a.mut.has(MutLoginOn401) {
			if err := o.login(ctx); err != nil {
				return "", err
			}
			return o.bearer(), nil
		}
		if o.a.mut.has(MutReloginDuringRun) {
			defer func() {
				if o.bearer() == stale {
					_ = o.login(ctx)
				}
			}()
		}
		if cur == nil || cur.RefreshToken == "" {
			return "", errNoRefresh
		}
		if err := o.discover(ctx); err != nil {
			return "", err
		}
		info := o.info
		if info == nil {
			var err error
			if info, err = o.cfg.Provider.ClientInformation(ctx); err != nil || info == nil {
				return "", o.fail("LA-OAU-34", "the provider has no client to refresh with", err)
			}
		}
		conf := o.oauth2Config(info, "")
		tok, err := conf.TokenSource(o.clientCtx(ctx), &oauth2.Token{RefreshToken: cur.RefreshToken, Expiry: time.Unix(1, 0)}).Token()
		if err != nil {
			return "", o.fail("LA-OAU-34", "refreshing the token failed", o.redact(err))
		}
		if err := o.keep(ctx, tok, true); err != nil {
			return "", err
		}
		return o.bearer(), nil
	})
	if err != nil {
		o.a.opts.Logger.Warn("oauth: a rejected token could not be refreshed", "server", o.server, "err", o.a.logText(err))
		return "", err
	}
	return v.(string), nil
}

// redact hides what an authorization server wrote in an error
// response: its description may carry anything, and it must not reach the
// logs (LA-OAU-30). The error code stays.
func (o *oauthSession) redact(err error) error {
	if o.a.mut.has(MutLogErrorDescription) {
		return err
	}
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		status := 0
		if re.Response != nil {
			status = re.Response.StatusCode
		}
		if re.ErrorCode != "" {
			return fmt.Errorf("the token endpoint answered %d, error %q (its description is withheld)", status, re.ErrorCode)
		}
		return fmt.Errorf("the token endpoint answered %d (its body is withheld)", status)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// oauthErrorCode quotes the error code of an OAuth error body, and
// nothing else of it (LA-OAU-30).
func oauthErrorCode(body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		return fmt.Sprintf(", error %q (its description is withheld)", e.Error)
	}
	return ""
}

// logText is what the logs say of an error.
func (a *Agent) logText(err error) string { return err.Error() }

// newState returns a one-time random state: 32 random bytes, 43 base64url
// characters (LA-OAU-16).
func newState(m mutations) string {
	if m.has(MutPredictableState) {
		return "state-0001"
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// wellKnown inserts /.well-known/<suffix> between the host and the path
// of raw, as RFC 8414 and RFC 9728 do.
func wellKnown(raw, suffix string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	u.RawQuery, u.Fragment = "", ""
	u.Path, u.RawPath = "/.well-known/"+suffix+path, ""
	return u.String()
}

// getJSON fetches a JSON document through c.
func getJSON[T any](ctx context.Context, c *http.Client, raw string) (*T, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s answered %s", raw, resp.Status)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		return nil, fmt.Errorf("GET %s answered %q, not application/json", raw, mt)
	}
	var v T
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxOAuthBody)).Decode(&v); err != nil {
		return nil, fmt.Errorf("GET %s: %w", raw, err)
	}
	return &v, nil
}

// ruleOf returns the rule of a refused OAuth request (a target or a
// redirect the session refused), or def.
func ruleOf(err error, def string) string {
	var e *Error
	if errors.As(err, &e) && e.Rule != "" {
		return e.Rule
	}
	return def
}
