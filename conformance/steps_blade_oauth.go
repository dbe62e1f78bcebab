package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// Steps of Blade's OAuth (BL-OAU). The runner is the user's browser
// (FK-BROWSER): Blade's host/authorize is the session's browser step,
// and the runner answering it drives the fake authorization server's
// consent and then delivers the callback itself, with an HTTP GET, to the
// session's listener on the redirect URI's port (interpretation B-06,
// spec/blade-oauth.md). Each delivery is recorded as a host record
// "browser-callback" (Params: the URL, the status the listener answered or
// why there was none); a held callback as "browser-held".

// registerBladeOAuthSteps defines the steps whose methods are in this file.
func (w *world) registerBladeOAuthSteps(sc stepDefiner) {
	sc.Step(`^the scenario holds the machine's port 7777$`, w.holdsPort7777)
	sc.Step(`^the adapter maps the OAuth provider "([^"]*)" to "([^"]*)"$`, w.mapsProvider)
	sc.Step(`^the session's OAuth redirect URI is "([^"]*)"$`, w.redirectOverride)
	sc.Step(`^the authorization server "([^"]*)" has the public client "([^"]*)" for Blade's redirect URIs$`, w.bladePublicClient)
	sc.Step(`^the browser (delivers the callback twice|first delivers the callback with an unknown state|holds the callback)$`, w.browserDoes)
	sc.Step(`^the browser holds the callback of the login$`, w.browserHolds)
	sc.Step(`^the browser delivers the held callback$`, w.deliversHeld)
	sc.Step(`^the browser's (first|second) callback was (accepted|refused)$`, w.callbackWas)
	sc.Step(`^the authorization URL carried (one of Blade's redirect URIs|the redirect_uri "[^"]*")$`, w.authURLRedirect)
	sc.Step(`^the authorization URL named the client "([^"]*)"$`, w.authURLClient)
	sc.Step(`^nothing listens on port 7777 any more$`, w.port7777Free)
	sc.Step(`^"([^"]*)" never saw the redirect URI "([^"]*)"$`, w.neverSawRedirect)
}

// bladeRedirectURIs are Blade's redirect URIs (BL-OAU-03).
var bladeRedirectURIs = []string{"http://localhost:7777/oauth/callback", "http://127.0.0.1:7777/oauth/callback", "http://[::1]:7777/oauth/callback"}

// bladeOAuthState is the slice of the world the Blade OAuth steps own.
type bladeOAuthState struct {
	releasePort func()            // gives the machine's port 7777 back
	providers   map[string]string // provider name → authorization server
	redirectURI string            // the session's redirect URI override
	clients     [][2]string       // public clients to register: server, id
	browser     bladeBrowser
}

// browserMode is what the browser does with a callback.
type browserMode int

const (
	browseOnce         browserMode = iota // deliver it
	browseTwice                           // deliver it, then again
	browseUnknownFirst                    // deliver it with an unknown state, then as it is
	browseHold                            // keep it for a later step
)

// bladeBrowser is the user's browser of a Blade world.
type bladeBrowser struct {
	mu         sync.Mutex
	mode       browserMode
	held       string
	deliveries []delivery
}

// delivery is one callback the browser brought to a listener.
type delivery struct {
	URL    string `json:"url"`
	Status int    `json:"status,omitempty"` // the listener's answer, 0 if none
	Err    string `json:"error,omitempty"`  // why there was no answer
}

// holdsPort7777: Given the scenario holds the machine's port 7777
func (w *world) holdsPort7777(ctx context.Context) error {
	if w.bladeOAuth.releasePort != nil {
		return errors.New("the scenario holds port 7777 already")
	}
	// The adapter starts first: its start is no part of the turn the
	// other scenarios wait for.
	if err := w.openAdapter(ctx); err != nil {
		return err
	}
	release, err := holdPort(ctx, bladePort, w.budget(portWait))
	if err != nil {
		return err
	}
	w.bladeOAuth.releasePort = release
	return nil
}

// releasePort gives the machine's port back, once the adapter is closed.
func (w *world) releasePort() {
	if r := w.bladeOAuth.releasePort; r != nil {
		w.bladeOAuth.releasePort = nil
		r()
	}
}

// mapsProvider: Given the adapter maps the OAuth provider "github" to "as"
func (w *world) mapsProvider(provider, as string) error {
	if _, err := w.authServerOf(as); err != nil {
		return err
	}
	if w.bladeOAuth.providers == nil {
		w.bladeOAuth.providers = map[string]string{}
	}
	w.bladeOAuth.providers[provider] = as
	return nil
}

// redirectOverride: Given the session's OAuth redirect URI is "http://127.0.0.1:7777/oauth/callback"
func (w *world) redirectOverride(uri string) error {
	if u, err := url.Parse(uri); err == nil && u.Hostname() == "::1" {
		ln, err := net.Listen("tcp", "[::1]:0")
		if err != nil {
			return w.skip(fmt.Sprintf("this machine has no IPv6 loopback: %v", err))
		}
		ln.Close()
	}
	w.bladeOAuth.redirectURI = uri
	return nil
}

// bladePublicClient: Given the authorization server "as" has the public client "blade-cli" for Blade's redirect URIs
func (w *world) bladePublicClient(as, id string) error {
	if _, err := w.unstarted(as); err != nil {
		return err
	}
	w.bladeOAuth.clients = append(w.bladeOAuth.clients, [2]string{as, id})
	return nil
}

// browserDoes: Given the browser delivers the callback twice (and other behaviours)
func (w *world) browserDoes(behaviour string) error {
	b := &w.bladeOAuth.browser
	b.mu.Lock()
	defer b.mu.Unlock()
	b.mode = map[string]browserMode{
		"delivers the callback twice":                       browseTwice,
		"first delivers the callback with an unknown state": browseUnknownFirst,
		"holds the callback":                                browseHold,
	}[behaviour]
	return nil
}

// resolveBladeOAuth completes a Blade session's options: the issuers of
// the provider names, the redirect URI override, and the public clients
// the authorization servers know. The host's authorize() is the
// session's browser step from now on.
func (w *world) resolveBladeOAuth(opts *adapter.AgentOptions) error {
	if opts.System != adapter.Blade {
		return nil
	}
	w.host.oauth.mu.Lock()
	w.host.oauth.browser = &w.bladeOAuth.browser
	w.host.oauth.mu.Unlock()
	for _, c := range w.bladeOAuth.clients {
		srv, err := w.startedAuthServer(c[0])
		if err != nil {
			return err
		}
		if err := srv.RegisterClient(c[1], "", bladeRedirectURIs, nil); err != nil {
			return fmt.Errorf("registering the public client %q at %q: %w", c[1], c[0], err)
		}
	}
	w.bladeOAuth.clients = nil
	for provider, as := range w.bladeOAuth.providers {
		srv, err := w.startedAuthServer(as)
		if err != nil {
			return err
		}
		if opts.OAuthProviders == nil {
			opts.OAuthProviders = map[string]string{}
		}
		opts.OAuthProviders[provider] = srv.Issuer()
	}
	opts.OAuthRedirectURI = w.bladeOAuth.redirectURI
	return nil
}

// visit is the browser at the callback the authorization server
// redirected to: it brings it to the session's listener as the scenario
// scripted, and answers the session's browser step.
func (b *bladeBrowser) visit(ctx context.Context, h *host, req adapter.AuthorizeRequest, cb string) (string, error) {
	b.mu.Lock()
	mode := b.mode
	if mode == browseHold {
		b.held = cb
	}
	b.mu.Unlock()
	switch mode {
	case browseHold:
		h.log.Append(record.Record{Kind: record.KindHost, Method: "browser-held", Server: req.Server})
		return cb, nil
	case browseUnknownFirst:
		u, err := url.Parse(cb)
		if err != nil {
			return "", fmt.Errorf("the callback %q does not parse: %w", cb, err)
		}
		q := u.Query()
		q.Set("state", "bl-unknown-state-00000000000000000000000000")
		u.RawQuery = q.Encode()
		b.deliver(ctx, h, req.Server, u.String())
	case browseTwice:
		b.deliver(ctx, h, req.Server, cb)
	}
	b.deliver(ctx, h, req.Server, cb)
	return cb, nil
}

// deliverBound bounds one delivery of a callback.
const deliverBound = 10 * time.Second

// deliver GETs a callback URL, as a browser following the authorization
// server's redirect, and records what the listener answered. It visits
// loopback hosts only (localhost is 127.0.0.1, then ::1), follows no
// redirect and uses no proxy.
func (b *bladeBrowser) deliver(ctx context.Context, h *host, server, cb string) {
	d := delivery{URL: cb}
	defer func() {
		b.mu.Lock()
		b.deliveries = append(b.deliveries, d)
		b.mu.Unlock()
		h.log.Append(record.Record{Kind: record.KindHost, Method: "browser-callback", Server: server, Params: mustJSON(d)})
	}()
	u, err := url.Parse(cb)
	if err != nil {
		d.Err = "the callback URL does not parse"
		return
	}
	hosts := []string{u.Hostname()}
	if u.Hostname() == "localhost" {
		hosts = []string{"127.0.0.1", "::1"}
	} else if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
		d.Err = "not delivered: the browser visits loopback hosts only, not " + u.Hostname()
		return
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443"}[u.Scheme]
		if port == "" {
			port = "80"
		}
	}
	dialer := &net.Dialer{Timeout: deliverBound}
	client := &http.Client{
		Timeout: deliverBound,
		Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true,
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				var last error
				for _, host := range hosts {
					c, err := dialer.DialContext(ctx, network, net.JoinHostPort(host, port))
					if err == nil {
						return c, nil
					}
					last = err
				}
				return nil, last
			}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, cb, nil)
	if err != nil {
		d.Err = err.Error()
		return
	}
	resp, err := client.Do(req)
	if err != nil {
		d.Err = "no answer: " + err.Error()
		if errors.Is(err, syscall.ECONNREFUSED) {
			d.Err = "no answer: nothing listens on port " + port
		}
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
	d.Status = resp.StatusCode
}

// browserHolds: When the browser holds the callback of the login — waits
// until the login reached the browser and the user's consent gave it the
// callback.
func (w *world) browserHolds(ctx context.Context) error {
	return w.waitHost(ctx, "browser-held", "the session's browser step was never called, or the consent gave no callback")
}

// deliversHeld: When the browser delivers the held callback
func (w *world) deliversHeld(ctx context.Context) error {
	if err := w.browserHolds(ctx); err != nil {
		return err
	}
	b := &w.bladeOAuth.browser
	b.mu.Lock()
	cb := b.held
	b.mu.Unlock()
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	b.deliver(sctx, w.host, "", cb)
	return nil
}

// callbackWas: Then the browser's first callback was accepted | the
// browser's second callback was refused — accepted is a 2xx page;
// refused is an error status, or no listener any more.
func (w *world) callbackWas(nth, verdict string) error {
	b := &w.bladeOAuth.browser
	b.mu.Lock()
	ds := slices.Clone(b.deliveries)
	b.mu.Unlock()
	i := map[string]int{"first": 0, "second": 1}[nth]
	if i >= len(ds) {
		return w.expect(false, fmt.Sprintf("the browser delivered a %s callback", nth), "it delivered %d", len(ds))
	}
	d := ds[i]
	answer := "HTTP " + strconv.Itoa(d.Status)
	if d.Status == 0 {
		answer = d.Err
	}
	if verdict == "accepted" {
		return w.expect(d.Status >= 200 && d.Status < 300, fmt.Sprintf("the session's listener accepted the %s callback with a 2xx page", nth), "%s", answer)
	}
	refused := d.Status >= 400 || (d.Status == 0 && strings.HasPrefix(d.Err, "no answer"))
	return w.expect(refused, fmt.Sprintf("the session refused the %s callback (an error status, or no listener)", nth), "%s", answer)
}

// authURLRedirect: Then the authorization URL carried one of Blade's
// redirect URIs | carried the redirect_uri "http://127.0.0.1:7777/oauth/callback"
// — in every authorization URL the browser was given, and in every
// authorization request an authorization server received.
func (w *world) authURLRedirect(what string) error {
	var want string
	_ = scanQuoted(what, "the redirect_uri ", &want)
	ok := func(v string) bool {
		if want != "" {
			return v == want
		}
		return slices.Contains(bladeRedirectURIs, v)
	}
	expected := "the redirect_uri " + want
	if want == "" {
		expected = "a redirect_uri among " + fmt.Sprint(bladeRedirectURIs)
	}
	us := w.authURLs()
	if len(us) == 0 {
		return w.expect(false, "the session's browser step got an authorization URL with "+expected, "it was never called")
	}
	for _, u := range us {
		if got := u.Query().Get("redirect_uri"); !ok(got) {
			return w.expect(false, "every authorization URL carried "+expected, "one carried %q", got)
		}
	}
	for name := range w.authServers {
		for _, r := range w.asRequests(name, "authorize") {
			if got, _ := formOf(r)["redirect_uri"].(string); !ok(got) {
				return w.expect(false, fmt.Sprintf("every authorization request %s received carried %s", name, expected), "one carried %q", got)
			}
		}
	}
	return w.expect(true, "", "")
}

// authURLClient: Then the authorization URL named the client "blade-cli"
func (w *world) authURLClient(id string) error {
	us := w.authURLs()
	if len(us) == 0 {
		return w.expect(false, "the session's browser step got an authorization URL", "it was never called")
	}
	for _, u := range us {
		if got := u.Query().Get("client_id"); got != id {
			return w.expect(false, fmt.Sprintf("every authorization URL named the client %q", id), "one named %q", got)
		}
	}
	return w.expect(true, "", "")
}

// port7777Free: Then nothing listens on port 7777 any more — the
// session's listener lived only for the login (interpretation B-06).
func (w *world) port7777Free() error {
	for _, host := range []string{"127.0.0.1", "::1"} {
		c, err := net.DialTimeout("tcp", net.JoinHostPort(host, strconv.Itoa(bladePort)), time.Second)
		if err == nil {
			c.Close()
			return w.expect(false, "no listener on port 7777 after the login", "%s:%d still accepts connections", host, bladePort)
		}
	}
	return w.expect(true, "", "")
}

// neverSawRedirect: Then "as" never saw the redirect URI "https://app.example.com/oauth/callback"
// — in no request, registration, authorization or token exchange.
func (w *world) neverSawRedirect(as, uri string) error {
	if _, err := w.authServerOf(as); err != nil {
		return err
	}
	escaped := string(mustJSON(uri))
	for _, r := range w.asRequests(as, "") {
		if carried(r, uri) || carried(r, escaped[1:len(escaped)-1]) || carried(r, url.QueryEscape(uri)) {
			return w.expect(false, fmt.Sprintf("%s never saw the redirect URI %s", as, uri), "its %s endpoint got it", r.Method)
		}
	}
	return w.expect(true, "", "")
}
