package core

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/sync/singleflight"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// maxOAuthBody bounds what the reference reads of any OAuth response.
const maxOAuthBody = 1 << 20

// oauthSession authenticates the connections of one bound server, as the
// official client's auth() does: after a 401 it discovers the
// authorization server (oauthdiscover.go), refreshes the token or, in a
// login, finds or registers its client (oauthclient.go), asks for a scope
// (oauthscope.go), authorizes with PKCE and exchanges the code
// (oauthtoken.go). It holds the current token.
type oauthSession struct {
	a         *Host
	server    string
	cfg       OAuthConfig
	serverURL string
	// timeout is the server's timeout: it bounds a refresh as a whole.
	timeout time.Duration
	// allowed are the origins the session may contact; open switches
	// the target rules off (fault.CCIgnoresOrigins only).
	allowed map[string]bool
	open    bool
	client  *http.Client // origin-restricted, no redirects, bounded requests

	mu     sync.Mutex
	tokens *Tokens
	// challenge is the last 401's, seq counts the 401s, and disc is the
	// last discovery (it answers challenge number disc.seq).
	challenge challenge
	seq       int
	disc      *discovery

	refreshes singleflight.Group
	// needsLogin says the server refused the request of a connection
	// and no refresh could help: connectOAuth then logs in, if
	// interactive.
	needsLogin atomic.Bool
	// interactive says a login may ask the user (authorize()).
	interactive bool
}

// newOAuthSession prepares the OAuth of server s under binding cfg; the
// server's timeout bounds each authentication request (LA-OAU-33).
func (a *Host) newOAuthSession(s *server, cfg OAuthConfig) (*oauthSession, error) {
	u, err := url.Parse(s.cfg.URL)
	if err != nil {
		return nil, newError(KindConfig, "LA-OAU-23", "the URL of %q does not parse", s.name)
	}
	// LA-OAU-22: the MCP server's own origin is always allowed.
	allowed := map[string]bool{originOf(u): !a.faults.Has(fault.MCPOriginNotImplied)}
	for _, o := range cfg.AllowedOrigins {
		if n, err := parseOrigin(o); err == nil {
			allowed[n] = true
			// LA-OAU-25: only HTTPS or loopback origins.
		} else if u, perr := url.Parse(o); perr == nil && a.faults.Has(fault.AllowPlainHTTPTargets) {
			allowed[originOf(u)] = true
		}
	}
	o := &oauthSession{a: a, server: s.name, cfg: cfg, serverURL: s.cfg.URL, timeout: s.cfg.timeout(),
		// LA-CC-04: the client-credentials flow keeps every target rule.
		allowed: allowed, open: cfg.ClientCredentials != nil && a.faults.Has(fault.CCIgnoresOrigins)}
	o.client = a.newOAuthClient(allowed, s.cfg.timeout(), o.open)
	return o, nil
}

// closed ends the session with its connection: the provider is free
// again. Nothing is deleted and nothing is revoked (LA-OAU-11, LA-OAU-12).
func (o *oauthSession) closed() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if o.a.faults.Has(fault.InvalidateOnClose) && o.cfg.Provider != nil {
		_ = o.cfg.Provider.InvalidateCredentials(ctx, "all")
	}
	o.mu.Lock()
	d := o.disc
	o.mu.Unlock()
	// LA-OAU-12: nothing is revoked on close.
	if o.a.faults.Has(fault.RevokeOnClose) && d != nil && d.meta.RevocationEndpoint != "" {
		if resp, err := o.client.PostForm(d.meta.RevocationEndpoint, url.Values{"token": {o.bearer()}}); err == nil {
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

// noteChallenge keeps what a 401 said, for the discovery that answers it.
func (o *oauthSession) noteChallenge(h http.Header) {
	ch := parseChallenge(h)
	o.mu.Lock()
	o.challenge = ch
	o.seq++
	o.mu.Unlock()
}

// prepare loads the provider's saved token before the first connection
// (LA-OAU-13). Without one the connection goes out unauthenticated, as the
// official client's does: the server's 401 starts the flow. A
// non-interactive connection with nothing to send fails at once: only the
// host starts a login (LA-OAU-37).
func (o *oauthSession) prepare(ctx context.Context) error {
	if o.cfg.ClientCredentials != nil || o.a.faults.Has(fault.AlwaysLogin) {
		return nil
	}
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
	if !o.interactive {
		return errNeedsLogin(o.server)
	}
	return nil
}

// errNeedsLogin says a server needs a login that only the host may start.
func errNeedsLogin(server string) *Error {
	return &Error{Kind: KindAuth, Rule: "LA-OAU-37", Source: server, Msg: "the server needs a new login, which only the host starts: unregister it and register it again"}
}

// login runs a whole login after a 401: discovery, then client
// credentials or an interactive authorization, ending with a saved token.
func (o *oauthSession) login(ctx context.Context) error {
	d, err := o.discovered(ctx)
	if err != nil {
		return err
	}
	if o.cfg.ClientCredentials != nil {
		return o.clientCredentials(ctx, d)
	}
	return o.authorize(ctx, d)
}

// fail wraps an OAuth failure of the session's server: a refused target,
// redirect, issuer or token (security), an answer of the authorization
// server (auth), a deadline (timeout) or a cancellation.
func (o *oauthSession) fail(rule, msg string, err error) *Error {
	kind := KindSecurity
	var te *tokenError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		kind = KindTimeout
	case errors.Is(err, context.Canceled):
		kind = KindCancelled
	case errors.As(err, &te):
		kind = KindAuth
	}
	return &Error{Kind: kind, Rule: rule, Source: o.server, Msg: msg, Err: err}
}

// authorize runs an interactive login: the client (oauthclient.go), PKCE
// S256, a fresh random state, the scope, the host's authorize(), the check
// of the whole callback URL, and the code exchange (LA-OAU-15..20). A
// callback that arrives after the signal ended is never redeemed
// (LA-OAU-05).
func (o *oauthSession) authorize(ctx context.Context, d *discovery) error {
	p := o.cfg.Provider
	meta := d.meta
	if !containsFold(meta.ResponseTypesSupported, "code") {
		return o.fail("LA-OAU-15", "the authorization server does not support the response type code", nil)
	}
	if meta.CodeChallengeMethodsSupported != nil && !containsFold(meta.CodeChallengeMethodsSupported, "S256") {
		return o.fail("LA-OAU-15", "the authorization server does not support PKCE with S256", nil)
	}
	redirect, err := p.RedirectURL(ctx)
	if err != nil {
		return o.fail("LA-OAU-17", "the provider has no redirect URL", err)
	}
	cm, err := p.ClientMetadata(ctx)
	if err != nil {
		return o.fail("LA-OAU-15", "the provider has no client metadata", err)
	}
	o.mu.Lock()
	requested := o.challenge.scope
	o.mu.Unlock()
	scope := o.selectScope(requested, d, cm)
	info, err := o.clientFor(ctx, d, true, scope)
	if err != nil {
		return err
	}
	verifier := oauth2.GenerateVerifier()
	// LA-OAU-14: every login has its own verifier.
	if o.a.faults.Has(fault.ResumeLogin) {
		if old, err := p.CodeVerifier(ctx); err == nil && old != "" {
			verifier = old
		}
	}
	if err := p.SaveCodeVerifier(ctx, verifier); err != nil {
		return o.fail("LA-OAU-15", "the provider could not save the code verifier", err)
	}
	state := newState(o.a.faults)
	if sp, ok := p.(interface {
		State(context.Context) (string, error)
		// LA-OAU-07: the state is the SDK's own, never the provider's.
	}); ok && o.a.faults.Has(fault.UseProviderState) {
		if st, err := sp.State(ctx); err == nil {
			state = st
		}
	}
	// LA-OAU-14: every login has its own state.
	if o.a.faults.Has(fault.ResumeLogin) {
		rememberState(state)
	}
	authURL := o.authorizationURL(d, info, redirect, verifier, state, scope)
	// LA-OAU-03: the SDK listens on nothing.
	if o.a.faults.Has(fault.ListenOnCallback) {
		if stop := listenOn(redirect); stop != nil {
			defer stop()
		}
	}
	callback, err := o.cfg.Authorize(ctx, authURL)
	// LA-OAU-05: a callback returned after the signal ended is never redeemed.
	if ctx.Err() != nil && !o.a.faults.Has(fault.ExchangeLateCode) {
		return o.fail("LA-OAU-05", "the login ended (cancelled, closed or past its deadline) before authorize() returned; a late callback is never redeemed", context.Cause(ctx))
	}
	// LA-OAU-20: a failed authorize() ends the login.
	if err != nil && !o.a.faults.Has(fault.IgnoreAuthorizeError) {
		// A login step of the session's own (Blade's loopback
		// callback) says which rule refused it.
		if e := (*Error)(nil); errors.As(err, &e) && e.Rule != "" {
			return &Error{Kind: e.Kind, Rule: e.Rule, Source: o.server, Msg: e.Msg, Err: e.Err}
		}
		return o.fail("LA-OAU-20", "authorize() failed: the authorization was cancelled", err)
	}
	code, err := o.a.checkCallback(callback, redirect, state, meta.Issuer, meta.AuthorizationResponseIssParameterSupported)
	if err != nil {
		return err
	}
	if v, err := p.CodeVerifier(ctx); err == nil && v != "" {
		verifier = v
	}
	exchangeCtx := ctx
	// LA-OAU-05: the exchange ends with the signal.
	if o.a.faults.Has(fault.ExchangeLateCode) {
		exchangeCtx = context.WithoutCancel(ctx) // what LA-OAU-05 forbids
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier}, "redirect_uri": {redirect}}
	tok, err := o.requestToken(exchangeCtx, d, info, form)
	if err != nil {
		return o.fail(ruleOf(err, "LA-OAU-15"), "the code exchange failed", err)
	}
	return o.keep(ctx, d, tok, "")
}

// authorizationURL builds the authorization request (RFC 6749 §4.1.1,
// PKCE, RFC 8707), with the official client's parameters: the scope when
// there is one, prompt=consent when it asks for offline_access, the
// resource.
func (o *oauthSession) authorizationURL(d *discovery, info *ClientInformation, redirect, verifier, state, scope string) string {
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {info.ClientID},
		"redirect_uri":          {redirect},
		"code_challenge":        {oauth2.S256ChallengeFromVerifier(verifier)},
		"code_challenge_method": {"S256"},
		"state":                 {state},
		"resource":              {d.resource},
	}
	// LA-OAU-15: the selected scope goes into the authorization.
	if scope != "" && !o.a.faults.Has(fault.NoScope) {
		q.Set("scope", scope)
		if strings.Contains(" "+scope+" ", " "+offlineAccess+" ") {
			q.Set("prompt", "consent")
		}
	}
	// LA-OAU-15: so does the resource (RFC 8707).
	if o.a.faults.Has(fault.NoResourceParam) {
		q.Del("resource")
	}
	// LA-OAU-04: and the state.
	if o.a.faults.Has(fault.NoState) {
		q.Del("state")
	}
	u := d.meta.AuthorizationEndpoint
	if strings.Contains(u, "?") {
		return u + "&" + q.Encode()
	}
	return u + "?" + q.Encode()
}

// containsFold reports whether list holds s, in any letter case.
func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// clientCredentials gets a token with the client-credentials grant
// (LA-CC-01), after the issuer and every target were checked (LA-CC-03,
// LA-CC-04), with the scope the server asks for, if any.
func (o *oauthSession) clientCredentials(ctx context.Context, d *discovery) error {
	info, err := o.clientFor(ctx, d, false, "")
	if err != nil {
		return err
	}
	// LA-CC-02: client credentials need no authorization endpoint.
	if o.a.faults.Has(fault.CCAuthorize) && d.meta.AuthorizationEndpoint != "" {
		if req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.meta.AuthorizationEndpoint, nil); err == nil {
			if resp, err := o.client.Do(req); err == nil {
				resp.Body.Close()
			}
		}
	}
	form := url.Values{"grant_type": {"client_credentials"}}
	o.mu.Lock()
	requested := o.challenge.scope
	o.mu.Unlock()
	if scope := o.selectScope(requested, d, ClientMetadata{GrantTypes: []string{"client_credentials"}}); scope != "" {
		form.Set("scope", scope)
	}
	tok, err := o.requestToken(ctx, d, info, form)
	if err != nil {
		return o.fail(ruleOf(err, "LA-CC-01"), "the client-credentials grant failed", err)
	}
	return o.keep(ctx, d, tok, "")
}

// keep checks a token response and makes it the session's token, saving it
// in the provider bound to the issuer (LA-OAU-28); a refresh response
// without a refresh token keeps the old one (oldRefresh).
func (o *oauthSession) keep(ctx context.Context, d *discovery, tok *tokenResponse, oldRefresh string) error {
	if !strings.EqualFold(tok.TokenType, "bearer") && !o.a.faults.Has(fault.AcceptDPoP) {
		return o.fail("LA-OAU-28", fmt.Sprintf("the token endpoint issued a %q token; only Bearer tokens are supported (no DPoP)", tok.TokenType), nil)
	}
	t := Tokens{AccessToken: tok.AccessToken, TokenType: tok.TokenType, RefreshToken: tok.RefreshToken, ExpiresIn: tok.expiresIn(), Scope: tok.Scope, Issuer: d.issuer}
	if t.RefreshToken == "" {
		t.RefreshToken = oldRefresh
	}
	// LA-OAU-08: tokens are kept in the provider.
	if o.cfg.Provider != nil && !o.a.faults.Has(fault.CacheTokens) {
		if err := o.cfg.Provider.SaveTokens(ctx, t); err != nil {
			return o.fail("LA-OAU-15", "the provider could not save the tokens", err)
		}
	}
	o.mu.Lock()
	o.tokens = &t
	o.mu.Unlock()
	return nil
}

// refresh replaces the access token stale after a 401: concurrent
// refreshes of one token are merged into one request (LA-OAU-35). It never
// logs in interactively and never registers a client (LA-OAU-34,
// LA-OAU-37); a client-credentials session gets a new token the same way
// it got the first. It discovers again first, so that a resource that moved
// to another authorization server is noticed: tokens and a client of
// another server are never sent to it.
func (o *oauthSession) refresh(ctx context.Context, stale string) (string, error) {
	key := stale
	// LA-OAU-35: concurrent refreshes of one token are one request.
	if o.a.faults.Has(fault.UnmergedRefresh) {
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
		// LA-OAU-35: a token refreshed meanwhile is used as it is.
		if cur != nil && cur.AccessToken != stale && !o.a.faults.Has(fault.UnmergedRefresh) {
			return cur.AccessToken, nil // refreshed meanwhile
		}
		// LA-OAU-34: a 401 refreshes; it never starts a login.
		if o.cfg.ClientCredentials != nil || o.a.faults.Has(fault.LoginOn401) {
			if err := o.login(ctx); err != nil {
				return "", err
			}
			return o.bearer(), nil
		}
		// LA-OAU-37: a login happens only when the host registers the server.
		if o.a.faults.Has(fault.ReloginDuringRun) {
			defer func() {
				if o.bearer() == stale {
					_ = o.login(ctx)
				}
			}()
		}
		if cur == nil || cur.RefreshToken == "" {
			return "", errNoRefresh(o.server, "there is no refresh token")
		}
		return o.refreshWith(ctx, cur)
	})
	if err != nil {
		if stale != "" {
			o.a.opts.Logger.Warn("oauth: a rejected token could not be refreshed", "server", o.server, "err", o.a.logText(err))
		}
		return "", err
	}
	return v.(string), nil
}

// errNoRefresh says a rejected token cannot be refreshed, and why.
func errNoRefresh(server, why string) *Error {
	return &Error{Kind: KindAuth, Rule: "LA-OAU-37", Source: server,
		Msg: why + "; a new login only happens when the host registers the server again"}
}

// refreshWith refreshes the tokens cur at the authorization server the
// resource names now, with the client bound to it.
func (o *oauthSession) refreshWith(ctx context.Context, cur *Tokens) (any, error) {
	d, err := o.discovered(ctx)
	if err != nil {
		return "", err
	}
	switch {
	case cur.Issuer == "":
		// Not bound yet: they belong to the server they are first
		// refreshed at.
		bound := *cur
		bound.Issuer = d.issuer
		if err := o.cfg.Provider.SaveTokens(ctx, bound); err != nil {
			return "", o.fail("LA-OAU-15", "the provider could not save the tokens", err)
		}
		cur = &bound
	// LA-OAU-15: tokens are refreshed only at the issuer that issued them.
	case !issuersMatch(cur.Issuer, d.issuer) && !o.a.faults.Has(fault.TokensNotBound):
		// LA-OAU-37: nor is a client registered during a run.
		if o.a.faults.Has(fault.RegisterDuringRun) {
			_, _ = o.clientFor(ctx, d, true, "")
		}
		return "", errNoRefresh(o.server, fmt.Sprintf("the tokens were issued by %q and the server now names %q", cur.Issuer, d.issuer))
	}
	info, err := o.clientFor(ctx, d, false, "")
	if err != nil {
		return "", err
	}
	if info == nil {
		return "", errNoRefresh(o.server, "the provider has no client of the authorization server "+d.issuer)
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {cur.RefreshToken}}
	dd := d
	// LA-OAU-15: the refresh names the resource too.
	if o.a.faults.Has(fault.NoRefreshResource) {
		c := *d
		c.resource = ""
		dd = &c
	}
	tok, err := o.requestToken(ctx, dd, info, form)
	if err != nil {
		return "", o.fail(ruleOf(err, "LA-OAU-34"), "refreshing the token failed", err)
	}
	if err := o.keep(ctx, d, tok, cur.RefreshToken); err != nil {
		return "", err
	}
	return o.bearer(), nil
}

// oauthErrorCode quotes the error code of an OAuth error body, and
// nothing else of it (LA-OAU-30).
func oauthErrorCode(body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		return fmt.Sprintf(", error %.100q (its description is withheld)", e.Error)
	}
	return ""
}

// logText is what the logs say of an error.
func (a *Host) logText(err error) string { return err.Error() }

// newState returns a one-time random state: 32 random bytes, 43 base64url
// characters (LA-OAU-16).
func newState(m fault.Set) string {
	if m.Has(fault.PredictableState) {
		return "state-0001"
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
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
