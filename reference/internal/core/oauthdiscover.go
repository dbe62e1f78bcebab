package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// Discovery follows the official client's auth() (@modelcontextprotocol/
// client 2.1.0, discoverOAuthServerInfo): the protected resource metadata
// (RFC 9728) from the 401's resource_metadata, else from the path-inserted
// and then the root well-known URL; the authorization server it names
// first, or the MCP server's origin when there is none; that server's
// metadata from the RFC 8414 and then the OpenID Connect well-known URLs
// (three for an issuer with a path, two without), checked against the
// issuer (LA-OAU-15, LA-OAU-19). Every URL is an OAuth target: allowed
// origins only, HTTPS or loopback, no redirects (LA-OAU-21, LA-OAU-25,
// LA-OAU-26).

// The well-known suffixes of the metadata documents.
const (
	resourceWellKnown = "oauth-protected-resource"
	oauthWellKnown    = "oauth-authorization-server"
	openIDWellKnown   = "openid-configuration"
)

// maxChallengeValue bounds the challenge parameters the reference keeps.
const maxChallengeValue = 2048

// challenge is what a 401's WWW-Authenticate says (RFC 6750 §3, RFC 9728
// §5.1): where the resource's metadata is, and the scope a token needs.
type challenge struct {
	resourceMetadata string
	scope            string
}

// parseChallenge reads the Bearer challenge of a 401. A value that is too
// long, or a resource_metadata that is not an absolute http(s) URL, is
// ignored, as the official client ignores one that does not parse.
func parseChallenge(h http.Header) challenge {
	chs, err := oauthex.ParseWWWAuthenticate(h.Values("WWW-Authenticate"))
	if err != nil {
		return challenge{}
	}
	for _, ch := range chs {
		if !strings.EqualFold(ch.Scheme, "bearer") {
			continue
		}
		var c challenge
		if v := ch.Params["resource_metadata"]; len(v) <= maxChallengeValue {
			if u, err := url.Parse(v); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
				c.resourceMetadata = v
			}
		}
		if v := ch.Params["scope"]; len(v) <= maxChallengeValue {
			c.scope = v
		}
		return c
	}
	return challenge{}
}

// discovery is what one discovery found out.
type discovery struct {
	// seq is the number of the challenge the discovery answered.
	seq int
	// prm is the protected resource metadata, nil when none was found.
	prm *oauthex.ProtectedResourceMetadata
	// asURL is the authorization server's URL: the metadata's first, or
	// the MCP server's origin.
	asURL string
	// meta is the authorization server's metadata, issuer its issuer.
	meta   *oauthex.AuthServerMeta
	issuer string
	// resource is the RFC 8707 resource indicator: the metadata's
	// resource, verbatim, or the MCP server's URL when there is none.
	resource string
}

// discovered returns the discovery that answers the last challenge: the
// one made since, or a new one. The authorization server's metadata of
// the last discovery is reused when the resource still names the same
// server.
func (o *oauthSession) discovered(ctx context.Context) (*discovery, error) {
	o.mu.Lock()
	last, seq := o.disc, o.seq
	ch := o.challenge
	o.mu.Unlock()
	if last != nil && last.seq == seq {
		return last, nil
	}
	d, err := o.discover(ctx, ch, last)
	if err != nil {
		return nil, err
	}
	d.seq = seq
	o.mu.Lock()
	o.disc = d
	o.mu.Unlock()
	return d, nil
}

// discover finds the resource's metadata and its authorization server's,
// and checks the endpoints the flow will use; last, when not nil, is an
// earlier discovery whose server metadata may be reused.
func (o *oauthSession) discover(ctx context.Context, ch challenge, last *discovery) (*discovery, error) {
	d := &discovery{}
	prm, err := o.resourceMetadata(ctx, ch)
	if err != nil {
		return nil, err
	}
	d.prm = prm
	switch {
	case prm != nil && len(prm.AuthorizationServers) > 0:
		d.asURL = prm.AuthorizationServers[0]
	case o.a.faults.Has(fault.NoOriginFallback): // LA-OAU-15: the MCP origin is the authorization server
		return nil, o.fail("LA-OAU-15", "the MCP server has no protected resource metadata naming an authorization server", nil)
	default:
		// No metadata, or none naming a server: the MCP server's
		// origin is the authorization server.
		u, _ := url.Parse(o.serverURL)
		d.asURL = (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/"}).String()
	}
	if last != nil && last.asURL == d.asURL {
		d.meta, d.issuer = last.meta, last.issuer
	} else if d.meta, err = o.serverMetadata(ctx, d.asURL); err != nil {
		return nil, err
	} else {
		d.issuer = d.meta.Issuer
	}
	if d.resource, err = o.resourceIndicator(prm); err != nil {
		return nil, err
	}
	if err := o.checkEndpoints(d.meta); err != nil {
		return nil, err
	}
	return d, nil
}

// resourceMetadata fetches the protected resource metadata: from the
// challenge's URL alone when it named one, else from the path-inserted
// well-known URL and, when that answers 4xx or 502, the root one. It
// returns nil, and no error, when none was found: any HTTP failure, or a
// document that does not parse. A refused target, a redirect or a
// transport failure is an error.
func (o *oauthSession) resourceMetadata(ctx context.Context, ch challenge) (*oauthex.ProtectedResourceMetadata, error) {
	var urls []string
	// LA-OAU-15: the 401's resource_metadata first, else the well-known URLs.
	if ch.resourceMetadata != "" && !o.a.faults.Has(fault.IgnoreResourceMetadataParam) {
		urls = []string{ch.resourceMetadata}
	} else {
		urls = []string{wellKnown(o.serverURL, resourceWellKnown, true)}
		// LA-OAU-15: the root well-known URL after the path-inserted one.
		if u, err := url.Parse(o.serverURL); err == nil && strings.TrimSuffix(u.Path, "/") != "" && !o.a.faults.Has(fault.NoRootResourceMetadata) {
			urls = append(urls, (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/.well-known/" + resourceWellKnown}).String())
		}
	}
	for i, raw := range urls {
		body, status, err := o.fetch(ctx, raw)
		if err != nil {
			return nil, o.fail(ruleOf(err, "LA-OAU-15"), "fetching the protected resource metadata failed", err)
		}
		if status != http.StatusOK {
			if i+1 < len(urls) && fallsBack(status) {
				continue
			}
			return nil, nil
		}
		var prm oauthex.ProtectedResourceMetadata
		if json.Unmarshal(body, &prm) != nil || prm.Resource == "" {
			return nil, nil
		}
		return &prm, nil
	}
	return nil, nil
}

// fallsBack reports whether a metadata URL's answer sends the client to
// the next one: a 4xx or a 502, as in the official client.
func fallsBack(status int) bool {
	return status >= 400 && status < 500 || status == http.StatusBadGateway
}

// serverMetadata fetches the authorization server metadata of asURL from
// the URLs the official client tries, in its order (RFC 8414 §3.1 and §5):
// for an issuer with a path, RFC 8414 with the path inserted, OpenID
// Connect with the path inserted, then OpenID Connect with the well-known
// suffix appended to the path; for one without, RFC 8414 and then OpenID
// Connect at the root. A 4xx or 502 moves to the next URL; the first
// document found must name asURL as its issuer (a trailing slash of asURL
// aside).
func (o *oauthSession) serverMetadata(ctx context.Context, asURL string) (*oauthex.AuthServerMeta, error) {
	for _, raw := range o.serverMetadataURLs(asURL) {
		body, status, err := o.fetch(ctx, raw)
		if err != nil {
			return nil, o.fail(ruleOf(err, "LA-OAU-15"), "fetching the authorization server metadata failed", err)
		}
		if status != http.StatusOK {
			if fallsBack(status) {
				continue
			}
			return nil, o.fail("LA-OAU-15", fmt.Sprintf("GET %s answered %d", redactURL(raw), status), nil)
		}
		var meta oauthex.AuthServerMeta
		if err := json.Unmarshal(body, &meta); err != nil || meta.Issuer == "" || meta.AuthorizationEndpoint == "" || meta.TokenEndpoint == "" || meta.ResponseTypesSupported == nil {
			return nil, o.fail("LA-OAU-15", fmt.Sprintf("GET %s answered no authorization server metadata (issuer, authorization_endpoint, token_endpoint and response_types_supported are required)", redactURL(raw)), err)
		}
		// LA-OAU-19: the metadata names the issuer it was fetched for.
		if !issuersMatch(asURL, meta.Issuer) && !o.a.faults.Has(fault.IgnoreIssuer) {
			return nil, o.fail("LA-OAU-19", fmt.Sprintf("the authorization server metadata names issuer %q, not %q it was fetched for", meta.Issuer, asURL), nil)
		}
		return &meta, nil
	}
	// The official client would go on with /authorize, /token and
	// /register under asURL and no issuer to check; lite-agent checks
	// issuers, which needs the metadata (LA-OAU-19).
	return nil, o.fail("LA-OAU-19", fmt.Sprintf("the authorization server %s has no metadata at any well-known URL; without it no issuer can be checked", asURL), nil)
}

// serverMetadataURLs are the URLs to try for the metadata of asURL, in
// order.
func (o *oauthSession) serverMetadataURLs(asURL string) []string {
	m := o.a.faults
	// LA-OAU-15: the well-known suffix is inserted, not appended.
	if m.Has(fault.AppendWellKnown) {
		return []string{strings.TrimSuffix(asURL, "/") + "/.well-known/" + oauthWellKnown, strings.TrimSuffix(asURL, "/") + "/.well-known/" + openIDWellKnown}
	}
	u, err := url.Parse(asURL)
	if err != nil {
		return nil
	}
	root := func(suffix string) string {
		return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/.well-known/" + suffix}).String()
	}
	if strings.TrimSuffix(u.Path, "/") == "" {
		urls := []string{root(oauthWellKnown), root(openIDWellKnown)}
		// LA-OAU-15: OpenID Connect discovery after RFC 8414.
		if m.Has(fault.NoOpenIDDiscovery) {
			urls = urls[:1]
		}
		return urls
	}
	urls := []string{wellKnown(asURL, oauthWellKnown, false)}
	// LA-OAU-15: an issuer with a path has no root RFC 8414 URL.
	if m.Has(fault.RFC8414RootForPaths) {
		urls = append(urls, root(oauthWellKnown))
	}
	// LA-OAU-15: OpenID Connect with the suffix appended, last.
	if !m.Has(fault.NoOpenIDDiscovery) {
		appended := *u
		appended.Path, appended.RawPath, appended.RawQuery = strings.TrimSuffix(u.Path, "/")+"/.well-known/"+openIDWellKnown, "", ""
		urls = append(urls, wellKnown(asURL, openIDWellKnown, false), appended.String())
	}
	return urls
}

// resourceIndicator selects the RFC 8707 resource: the protected resource
// metadata's resource, verbatim, which must be the MCP server's URL or
// one of its parents (same origin, a path prefix at a "/"); with no
// metadata, the MCP server's URL (where the official client sends none:
// lite-agent always names the resource, LA-OAU-15).
func (o *oauthSession) resourceIndicator(prm *oauthex.ProtectedResourceMetadata) (string, error) {
	m := o.a.faults
	if prm == nil || m.Has(fault.ServerURLAsResource) {
		return o.serverURL, nil
	}
	ok := resourceAllowed(o.serverURL, prm.Resource)
	// LA-OAU-15: the metadata's resource is the MCP URL or a parent of it.
	if m.Has(fault.ExactResourceMatch) {
		ok = prm.Resource == o.serverURL
	}
	// LA-OAU-15: and nothing else.
	if !ok && !m.Has(fault.AnyResource) {
		return "", o.fail("LA-OAU-15", fmt.Sprintf("the protected resource metadata is for the resource %q, which is neither the server's URL %q nor a parent of it", prm.Resource, o.serverURL), nil)
	}
	return prm.Resource, nil
}

// resourceAllowed reports whether the resource configured names the MCP
// server at requested: the same origin, and a path that is requested's
// or a parent of it (the official client's checkResourceAllowed).
func resourceAllowed(requested, configured string) bool {
	r, err1 := url.Parse(requested)
	c, err2 := url.Parse(configured)
	if err1 != nil || err2 != nil || originOf(r) != originOf(c) || r.Scheme == "" || c.Scheme == "" {
		return false
	}
	if len(r.Path) < len(c.Path) {
		return false
	}
	slash := func(p string) string {
		if strings.HasSuffix(p, "/") {
			return p
		}
		return p + "/"
	}
	return strings.HasPrefix(slash(r.Path), slash(c.Path))
}

// checkEndpoints checks that every endpoint the flow will use is an
// allowed target (LA-OAU-21, LA-OAU-25): the token endpoint, and for a
// login the authorization endpoint and the registration endpoint, if any.
func (o *oauthSession) checkEndpoints(meta *oauthex.AuthServerMeta) error {
	if o.open {
		return nil
	}
	endpoints := []struct{ name, url string }{{"token_endpoint", meta.TokenEndpoint}}
	if o.cfg.ClientCredentials == nil {
		endpoints = append(endpoints, struct{ name, url string }{"authorization_endpoint", meta.AuthorizationEndpoint}, struct{ name, url string }{"registration_endpoint", meta.RegistrationEndpoint})
	}
	for _, ep := range endpoints {
		if ep.url == "" {
			continue
		}
		if err := o.a.checkOAuthTarget(ep.url, o.allowed); err != nil {
			var e *Error
			errors.As(err, &e)
			return o.fail(e.Rule, fmt.Sprintf("the %s %s", ep.name, e.Msg), nil)
		}
	}
	return nil
}

// issuersMatch reports whether two issuer identifiers name the same
// authorization server: equal, or equal but for one trailing slash (the
// one tolerance of RFC 8414 §3.3 the official client allows).
func issuersMatch(a, b string) bool {
	return a == b || strings.TrimSuffix(a, "/") == b || strings.TrimSuffix(b, "/") == a
}

// fetch GETs a metadata document through the session's client: its body
// (bounded) when it answers 200, and its status. An error is a refused
// target or redirect, a transport failure or a deadline.
func (o *oauthSession) fetch(ctx context.Context, raw string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := o.client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxOAuthBody))
		return nil, resp.StatusCode, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxOAuthBody))
	if err != nil {
		return nil, 0, err
	}
	return body, resp.StatusCode, nil
}

// wellKnown inserts /.well-known/<suffix> between the host and the path
// of raw, as RFC 8414 and RFC 9728 do, dropping a trailing slash of the
// path; keepQuery keeps raw's query (the official client keeps the MCP
// URL's on the resource metadata URL).
func wellKnown(raw, suffix string, keepQuery bool) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	path := strings.TrimSuffix(u.Path, "/")
	u.Fragment = ""
	if !keepQuery {
		u.RawQuery = ""
	}
	u.Path, u.RawPath = "/.well-known/"+suffix+path, ""
	return u.String()
}

// redactURL is a URL for a message: without its query and user info.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "an unparsable URL"
	}
	u.RawQuery, u.User = "", nil
	return u.String()
}
