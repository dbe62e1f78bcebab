package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"sync"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// The host's side of OAuth (LA-OAU, LA-CC): its providers, which store
// what the implementation saves, and its authorize(), which plays the user
// at the fake authorization server. Every call is recorded in the world's
// log as a host record: "provider" (Params: the call), "authorize"
// (Params: the request), "authorize-returned" (Params: {"callback"}) and
// "authorize-cancelled".

// hostOAuth is the host's OAuth state of one world.
type hostOAuth struct {
	mu        sync.Mutex
	providers map[string]*providerStore
	// login plays the user for an authorization URL and returns the
	// callback URL the authorization server redirected to; set when the
	// scenario has an authorization server.
	login func(ctx context.Context, authURL string) (string, error)
	// mode is what authorize() does (authorizeMode).
	mode authorizeMode
	// tamper changes the callback (authorize returns it changed).
	tamper string
	// callbacks are the callbacks the user step produced, in order.
	callbacks []string
	// replayFirst makes authorize() return the first callback.
	replayFirst bool
	// portCheck makes authorize() check that nothing listens on the
	// redirect URL's port; portBusy records what it found.
	portCheck, portBusy bool
	portChecked         int
	// browser, in a Blade world, is the user's browser: authorize() is
	// the session's browser step, which brings the callback to the
	// session's listener (steps_blade_oauth.go).
	browser *bladeBrowser
}

// authorizeMode is a scripted behaviour of the host's authorize().
type authorizeMode int

const (
	authorizeComplete authorizeMode = iota // log in, return the callback
	authorizeHang                          // wait until cancelled, fail
	authorizeLate                          // wait until cancelled, then log in and return the callback anyway
	authorizeHold                          // log in, keep the callback, wait until cancelled, fail
	authorizeFail                          // fail at once (the user closed the window)
)

// providerStore is one provider of the host: what the implementation
// saved in it.
type providerStore struct {
	redirectURL string
	// metadata, when set, is the client metadata the provider describes
	// its client with instead of the default ([defaultClientMetadata]).
	metadata json.RawMessage
	// metadataURL, when set, is its client ID metadata document's URL.
	metadataURL string
	// held are the client id and refresh token the host held before the
	// scenario's first login (holdsTokens, holdsClient).
	held       []string
	clientInfo json.RawMessage
	tokens     json.RawMessage
	verifier   string
	// official: the provider is an official provider class, with state()
	// and redirectToAuthorization(), which lite-agent must not call.
	official bool
	state    string
}

// clientMetadata is the client metadata the provider describes its client
// with: the scenario's, or a public client's with the provider's redirect
// URL.
func (p *providerStore) clientMetadata() json.RawMessage {
	if p.metadata != nil {
		return p.metadata
	}
	return defaultClientMetadata(p.redirectURL)
}

// defaultClientMetadata is the client metadata of a provider the scenario
// does not describe: a public client of the redirect URL, for the code and
// refresh grants.
func defaultClientMetadata(redirect string) json.RawMessage {
	return mustJSON(map[string]any{"client_name": "mcpconform host", "redirect_uris": []string{redirect},
		"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"}, "token_endpoint_auth_method": "none"})
}

// provider returns the provider of that name, creating it with the
// world's redirect URL.
func (o *hostOAuth) provider(name, redirect string) *providerStore {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.providers == nil {
		o.providers = map[string]*providerStore{}
	}
	p := o.providers[name]
	if p == nil {
		p = &providerStore{redirectURL: redirect}
		o.providers[name] = p
	}
	return p
}

// withProvider runs f on the provider of that name under the lock; it
// fails naming the provider when the host has none of that name.
func (o *hostOAuth) withProvider(name string, f func(p *providerStore) error) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	p := o.providers[name]
	if p == nil {
		return fmt.Errorf("the host has no provider %q", name)
	}
	return f(p)
}

// Provider answers one call of a provider method.
func (h *host) Provider(ctx context.Context, call adapter.ProviderCall) (json.RawMessage, error) {
	return serve[json.RawMessage](ctx, func() any { return h.arriveProvider(call) })
}

// arriveProvider answers a provider call as it arrives: the provider's
// storage changes in the order the implementation called it.
func (h *host) arriveProvider(call adapter.ProviderCall) func(context.Context) (json.RawMessage, error) {
	params, _ := json.Marshal(call)
	h.log.Append(record.Record{Kind: record.KindHost, Method: "provider", Params: params})
	return answer(h.provide(call))
}

// provide answers one call of a provider method.
func (h *host) provide(call adapter.ProviderCall) (json.RawMessage, error) {
	o := &h.oauth
	o.mu.Lock()
	defer o.mu.Unlock()
	p := o.providers[call.Provider]
	if p == nil {
		return nil, fmt.Errorf("the host has no provider %q", call.Provider)
	}
	quote := func(s string) json.RawMessage { b, _ := json.Marshal(s); return b }
	orNull := func(v json.RawMessage) json.RawMessage {
		if v == nil {
			return json.RawMessage("null")
		}
		return v
	}
	switch call.Method {
	case "redirectUrl":
		return quote(p.redirectURL), nil
	case "clientMetadata":
		return p.clientMetadata(), nil
	case "clientMetadataUrl":
		if p.metadataURL == "" {
			return json.RawMessage("null"), nil
		}
		return quote(p.metadataURL), nil
	case "clientInformation":
		return orNull(p.clientInfo), nil
	case "saveClientInformation":
		p.clientInfo = call.Value
		return json.RawMessage("null"), nil
	case "tokens":
		return orNull(p.tokens), nil
	case "saveTokens":
		p.tokens = call.Value
		return json.RawMessage("null"), nil
	case "codeVerifier":
		return quote(p.verifier), nil
	case "saveCodeVerifier":
		var v string
		_ = json.Unmarshal(call.Value, &v)
		p.verifier = v
		return json.RawMessage("null"), nil
	case "invalidateCredentials":
		var scope string
		_ = json.Unmarshal(call.Value, &scope)
		if scope == "all" || scope == "tokens" {
			p.tokens = nil
		}
		if scope == "all" || scope == "client" {
			p.clientInfo = nil
		}
		if scope == "all" || scope == "verifier" {
			p.verifier = ""
		}
		return json.RawMessage("null"), nil
	case "state", "redirectToAuthorization":
		if p.official {
			return quote(p.state), nil
		}
	}
	return nil, fmt.Errorf("provider %q has no method %q", call.Provider, call.Method)
}

// Authorize plays the host's authorize(url, {signal}) as the scenario
// scripts it.
func (h *host) Authorize(ctx context.Context, req adapter.AuthorizeRequest) (string, error) {
	return serve[string](ctx, func() any { return h.arriveAuthorize(req) })
}

func (h *host) arriveAuthorize(req adapter.AuthorizeRequest) func(context.Context) (string, error) {
	params, _ := json.Marshal(req)
	h.log.Append(record.Record{Kind: record.KindHost, Method: "authorize", Server: req.Server, Params: params})
	o := &h.oauth
	o.mu.Lock()
	mode, login, replay, check := o.mode, o.login, o.replayFirst, o.portCheck
	o.mu.Unlock()
	return func(ctx context.Context) (string, error) {
		return h.authorize(ctx, req, params, mode, login, replay, check)
	}
}

// authorize is the user's side of an authorize() call, as the scenario
// scripted it when the call arrived.
func (h *host) authorize(ctx context.Context, req adapter.AuthorizeRequest, params json.RawMessage, mode authorizeMode,
	login func(context.Context, string) (string, error), replay, check bool) (string, error) {
	o := &h.oauth
	if check {
		h.checkRedirectPort(req.URL)
	}
	cancelled := func() error {
		<-ctx.Done()
		h.log.Append(record.Record{Kind: record.KindHost, Method: "authorize-cancelled", Server: req.Server, Params: params})
		return context.Cause(ctx)
	}
	switch mode {
	case authorizeHang:
		return "", cancelled()
	case authorizeFail:
		return "", errors.New("the user closed the login window (the scenario's authorize() fails)")
	}
	if login == nil {
		return "", errors.New("the scenario has no authorization server to log in at")
	}
	if mode == authorizeLate {
		_ = cancelled()
		// The user logs in anyway, after the signal: a bounded login of
		// its own.
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loginBound)
		defer cancel()
		cb, err := h.userLogin(lctx, req, login)
		if err != nil {
			return "", err
		}
		h.log.Append(record.Record{Kind: record.KindHost, Method: "authorize-returned", Server: req.Server, Params: mustJSON(map[string]string{"callback": cb})})
		return cb, nil
	}
	if mode == authorizeHold {
		// The user finishes the login, whatever happens to the signal;
		// the host keeps the callback.
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loginBound)
		defer cancel()
		cb, err := h.userLogin(lctx, req, login)
		if err != nil {
			return "", err
		}
		h.log.Append(record.Record{Kind: record.KindHost, Method: "authorize-held", Server: req.Server, Params: mustJSON(map[string]string{"callback": cb})})
		return "", cancelled()
	}
	cb, err := h.userLogin(ctx, req, login)
	if err != nil {
		return "", err
	}
	o.mu.Lock()
	browser := o.browser
	o.mu.Unlock()
	if browser != nil {
		return browser.visit(ctx, h, req, cb)
	}
	if replay {
		o.mu.Lock()
		n := len(o.callbacks)
		if n > 1 {
			cb = o.callbacks[0]
		}
		o.mu.Unlock()
		if n < 2 {
			return "", errors.New("the scenario replays the first login's callback, but this is the first login")
		}
	}
	h.log.Append(record.Record{Kind: record.KindHost, Method: "authorize-returned", Server: req.Server, Params: mustJSON(map[string]string{"callback": cb})})
	return cb, nil
}

// loginBound bounds a user step that runs after its signal ended.
const loginBound = 10e9 // 10 s

// userLogin is the user's part of a login: the authorization server
// redirects the browser to the callback URL, which the host keeps (and
// changes, when the scenario tampers with it).
func (h *host) userLogin(ctx context.Context, req adapter.AuthorizeRequest, login func(context.Context, string) (string, error)) (string, error) {
	cb, err := login(ctx, req.URL)
	if err != nil {
		return "", fmt.Errorf("the user step at the authorization server failed: %w", err)
	}
	o := &h.oauth
	o.mu.Lock()
	o.callbacks = append(o.callbacks, cb)
	tamper := o.tamper
	o.mu.Unlock()
	if tamper != "" {
		if cb, err = tamperCallback(cb, tamper); err != nil {
			return "", err
		}
	}
	return cb, nil
}

// tamperCallback changes one part of a callback URL.
func tamperCallback(cb, part string) (string, error) {
	u, err := url.Parse(cb)
	if err != nil {
		return "", fmt.Errorf("the callback %q does not parse: %w", cb, err)
	}
	switch part {
	case "scheme":
		u.Scheme = map[string]string{"http": "https", "https": "http"}[u.Scheme]
	case "host":
		host := "localhost"
		if u.Hostname() == "localhost" {
			host = "127.0.0.1"
		}
		u.Host = net.JoinHostPort(host, u.Port())
	case "port":
		port, _ := strconv.Atoi(u.Port())
		u.Host = net.JoinHostPort(u.Hostname(), strconv.Itoa(port+1))
	case "path":
		u.Path += "-other"
	case "state":
		q := u.Query()
		q.Set("state", "la-tampered-state-0000000000000000000000")
		u.RawQuery = q.Encode()
	default:
		return "", fmt.Errorf("cannot change the %q of a callback (scheme, host, port, path or state)", part)
	}
	return u.String(), nil
}

// checkRedirectPort records whether something listens on the port of the
// redirect URL of an authorization URL: an SDK serving its own callback
// page would (LA-OAU-03).
func (h *host) checkRedirectPort(authURL string) {
	u, err := url.Parse(authURL)
	if err != nil {
		return
	}
	ru, err := url.Parse(u.Query().Get("redirect_uri"))
	if err != nil || ru.Host == "" {
		return
	}
	busy := false
	if ln, err := net.Listen("tcp", ru.Host); err != nil {
		busy = true
	} else {
		ln.Close()
	}
	h.oauth.mu.Lock()
	h.oauth.portChecked++
	h.oauth.portBusy = h.oauth.portBusy || busy
	h.oauth.mu.Unlock()
}

// mustJSON encodes v.
func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
