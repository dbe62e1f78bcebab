package core

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// Blade's OAuth (BL-OAU): a server's oauth block runs lite-agent's flow
// (oauth.go, oauthflow.go), with what Blade owns instead of the host:
// the endpoints come from the provider name (interpretation B-06), the
// client is the block's clientId or one registered dynamically, the
// tokens stay in the session, and the callback arrives at the session's
// own loopback listener on port 7777 (bladecallback.go).

// BladeCallbackPort is the one port of Blade's redirect URIs (BL-OAU-03).
const BladeCallbackPort = 7777

// DefaultBladeRedirect is the redirect URI of a session that names none:
// the first of [BladeRedirectURIs].
const DefaultBladeRedirect = "http://localhost:7777/oauth/callback"

// BladeRedirectURIs are the only redirect URIs Blade's authorization code
// flow accepts (BL-OAU-03): localhost, 127.0.0.1 and the IPv6 loopback,
// on port 7777, at /oauth/callback, over plain http.
var BladeRedirectURIs = []string{DefaultBladeRedirect, "http://127.0.0.1:7777/oauth/callback", "http://[::1]:7777/oauth/callback"}

// bladeLoginTimeoutMs is the deadline of a Blade server's first
// connection and login: lite-agent's longest (LA-OAU-32), longer than the
// state's 5-minute TTL, so that the TTL, not the deadline, ends a slow
// login (BL-OAU-06, interpretation B-07).
const bladeLoginTimeoutMs = MaxLoginTimeoutMs

// bladeRedirect checks the session's redirect URI ("" is the default)
// before any flow starts: one of [BladeRedirectURIs] exactly, nothing
// else (BL-OAU-04), and never a remote host (BL-OAU-05). It returns the
// URI the flows use.
func bladeRedirect(raw string, m fault.Set) (string, error) {
	if raw == "" {
		raw = DefaultBladeRedirect
	}
	u, err := url.Parse(raw)
	fail := func(rule, why string) (string, error) {
		return "", &Error{Kind: KindSecurity, Rule: rule, Source: "oauthRedirectUri option", Field: "oauthRedirectUri",
			Msg: fmt.Sprintf("the redirect URI %q %s; Blade accepts only %s", raw, why, strings.Join(BladeRedirectURIs, ", "))}
	}
	if err != nil || u.Host == "" {
		return fail("BL-OAU-04", "is not an absolute URL")
	}
	loopback := strings.EqualFold(u.Hostname(), "localhost")
	if ip := net.ParseIP(u.Hostname()); ip != nil {
		loopback = ip.IsLoopback()
	}
	switch {
	// BL-OAU-05: the code never goes to a remote host.
	case !loopback && !m.Has(fault.BladeRemoteRedirect):
		return fail("BL-OAU-05", "sends the authorization code to a host that is not this machine's loopback")
	case !loopback:
		return raw, nil
	// BL-OAU-04: any other port, path, scheme or host is refused.
	case m.Has(fault.BladeAnyLoopbackRedirect):
	case !isBladeRedirect(raw):
		return fail("BL-OAU-04", "differs from them in its scheme, host, port, path, query or fragment")
	}
	// BL-OAU-03: the redirect is on port 7777.
	if m.Has(fault.BladeCallbackPort7778) {
		u.Host = net.JoinHostPort(u.Hostname(), "7778")
		return u.String(), nil
	}
	return raw, nil
}

// isBladeRedirect reports whether raw is one of [BladeRedirectURIs],
// character for character but the letter case of the scheme and host.
func isBladeRedirect(raw string) bool {
	for _, ok := range BladeRedirectURIs {
		scheme, rest, _ := strings.Cut(ok, "://")
		host, path, _ := strings.Cut(rest, "/")
		gs, grest, found := strings.Cut(raw, "://")
		gh, gp, _ := strings.Cut(grest, "/")
		if found && strings.EqualFold(gs, scheme) && strings.EqualFold(gh, host) && gp == path {
			return true
		}
	}
	return false
}

// bladeOAuthOn reports whether a Blade entry turns OAuth on (B-05: an
// absent enabled means on).
func (a *Host) bladeOAuthOn(c *BladeServerConfig) bool {
	// BL-OAU-01: the oauth block authenticates the server.
	if a.faults.Has(fault.BladeOAuthIgnored) {
		return false
	}
	// BL-OAU-02: enabled false turns it off.
	if c.OAuth != nil && a.faults.Has(fault.BladeOAuthDisabledIgnored) {
		return true
	}
	return c.OAuth.enabled()
}

// bindBladeOAuth binds OAuth to every http server of a session whose
// oauth block is on and whose provider the session knows: lite-agent's
// binding, with the provider's issuer as the one allowed origin besides
// the server's, a provider of the session's own, and authorize() the
// session's loopback login. A server it cannot bind fails when it
// connects ([Registry.bladeConnect]).
func (a *Host) bindBladeOAuth(servers []*server, redirect string) {
	for _, s := range servers {
		if !a.bladeOAuthOn(s.blade) || s.cfg.transport() != TransportHTTP {
			continue
		}
		issuer, ok := a.opts.BladeOAuthProviders[s.blade.OAuth.Provider]
		if !ok {
			continue
		}
		origins := []string{}
		if u, err := url.Parse(issuer); err == nil && u.Host != "" {
			origins = append(origins, originOf(u))
		}
		timeout := float64(bladeLoginTimeoutMs)
		if a.opts.MCPOAuth == nil {
			a.opts.MCPOAuth = map[string]OAuthConfig{}
		}
		a.opts.MCPOAuth[s.name] = OAuthConfig{ServerURL: s.cfg.URL, AllowedOrigins: origins, TimeoutMs: &timeout,
			Provider:  &bladeProvider{redirect: redirect, clientID: s.blade.OAuth.ClientID},
			Authorize: a.loopbackLogin(s.name, redirect)}
	}
}

// errBladeOAuth is why a server with oauth on cannot run the flow: OAuth
// is for http servers (B-05), and the provider must name an authorization
// server the session knows (B-06).
func (a *Host) errBladeOAuth(s *server) error {
	if s.cfg.transport() != TransportHTTP {
		return &Error{Kind: KindUnsupported, Rule: "BL-OAU-01", Source: s.name, Field: "mcpServers." + s.name + ".oauth",
			Msg: fmt.Sprintf("server %q is a %s server with oauth on; the reference runs OAuth for http servers only", s.name, s.cfg.transport())}
	}
	return &Error{Kind: KindConfig, Rule: "BL-OAU-01", Source: s.name, Field: "mcpServers." + s.name + ".oauth.provider",
		Msg: fmt.Sprintf("the session knows no authorization server of the provider %q; map provider names to issuers in the session's options", s.blade.OAuth.Provider)}
}

// bladeProvider is the OAuth storage of one Blade server: the session
// keeps its client and tokens in memory, for as long as it lives. The
// client is the oauth block's clientId, a public client pre-registered
// for the redirect URI, or, without one, the client registered
// dynamically.
type bladeProvider struct {
	redirect, clientID string

	mu       sync.Mutex
	info     *ClientInformation
	tokens   *Tokens
	verifier string
}

var _ OAuthProvider = (*bladeProvider)(nil)

func (p *bladeProvider) RedirectURL(context.Context) (string, error) { return p.redirect, nil }

func (p *bladeProvider) ClientMetadata(context.Context) (ClientMetadata, error) {
	return ClientMetadata{RedirectURIs: []string{p.redirect}, TokenEndpointAuthMethod: "none", ClientName: "Blade Agent SDK session",
		ResponseTypes: []string{"code"}}, nil
}

func (p *bladeProvider) ClientInformation(context.Context) (*ClientInformation, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.info == nil && p.clientID != "" {
		return &ClientInformation{ClientID: p.clientID, TokenEndpointAuthMethod: "none"}, nil
	}
	return p.info, nil
}

func (p *bladeProvider) SaveClientInformation(_ context.Context, info ClientInformation) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.info = &info
	return nil
}

func (p *bladeProvider) Tokens(context.Context) (*Tokens, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tokens, nil
}

func (p *bladeProvider) SaveTokens(_ context.Context, t Tokens) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tokens = &t
	return nil
}

func (p *bladeProvider) CodeVerifier(context.Context) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.verifier, nil
}

func (p *bladeProvider) SaveCodeVerifier(_ context.Context, v string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.verifier = v
	return nil
}

func (p *bladeProvider) InvalidateCredentials(_ context.Context, scope string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if scope == "all" || scope == "tokens" {
		p.tokens = nil
	}
	if scope == "all" || scope == "client" {
		p.info = nil
	}
	if scope == "all" || scope == "verifier" {
		p.verifier = ""
	}
	return nil
}

// listenAddress is where the listener of a redirect URI listens: its
// loopback address (localhost is 127.0.0.1) and port.
func listenAddress(redirect string) (string, error) {
	u, err := url.Parse(redirect)
	if err != nil {
		return "", err
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		host = "127.0.0.1"
	}
	port := u.Port()
	if _, err := strconv.Atoi(port); err != nil {
		port = map[string]string{"https": "443"}[u.Scheme]
		if port == "" {
			port = "80"
		}
	}
	return net.JoinHostPort(host, port), nil
}

// bladeStateTTL is how long a login's state is good for (BL-OAU-06), on
// the session's clock.
const bladeStateTTL = 5 * time.Minute
