package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/fakes/oauth"
)

// The OAuth part of a world: fake authorization servers, protected MCP
// fakes, and the mcpOAuth bindings of the agent. Authorization servers and
// bindings are described by steps and made when first needed, so that the
// steps that break or configure them may come in any order before the
// agent is created.

// registerOAuthWorldSteps defines the steps whose methods are in this file.
func (w *world) registerOAuthWorldSteps(sc stepDefiner) {
	sc.Step(`^the provider "([^"]*)" holds valid tokens of "([^"]*)" for "([^"]*)"$`, w.holdsTokens)
}

// oauthState is the slice of the world the OAuth steps own: its
// authorization servers, bindings, provisions and tokens.
type oauthState struct {
	authServers map[string]*authServer  // the fake authorization servers
	bindings    map[string]*bindingSpec // the mcpOAuth bindings, by server
	bindOrder   []string
	provisions  []func(context.Context) error // run when the agent is created
	minted      []string                      // access tokens the host holds from the start
	redirect    string                        // the providers' redirect URL
}

// authServer is one fake authorization server of the scenario.
type authServer struct {
	name     string
	faults   oauth.Faults
	shape    oauth.Shape
	coHosted bool        // on the MCP HTTP fake's origin
	clients  [][2]string // pre-registered confidential clients: id, secret
	srv      *oauth.Server
	// documents are the client ID metadata documents it was told of.
	documents map[string]bool
}

// bindingSpec is one mcpOAuth binding as the scenario describes it.
type bindingSpec struct {
	server, provider, as string
	cc                   *adapter.ClientCredentials
	serverURL            string // a template; "" is the server's URL
	timeoutMs            json.RawMessage
	noAuthorize          bool
	allowOther           bool     // allowedOrigins also lists the AS's other origin
	noOrigins            bool     // allowedOrigins lists nothing
	extraOrigins         []string // allowedOrigins lists these too
	alsoServers          []string // allowedOrigins lists the origins of these authorization servers too
}

// defineAuthServer adds an authorization server to the scenario.
func (w *world) defineAuthServer(name string, coHosted bool) (*authServer, error) {
	if _, dup := w.authServers[name]; dup {
		return nil, fmt.Errorf("the scenario defines the authorization server %q twice", name)
	}
	as := &authServer{name: name, coHosted: coHosted}
	w.authServers[name] = as
	return as, nil
}

// authServerOf returns a defined authorization server.
func (w *world) authServerOf(name string) (*authServer, error) {
	as, ok := w.authServers[name]
	if !ok {
		return nil, fmt.Errorf("the scenario has no authorization server %q; define it with a Given step first", name)
	}
	return as, nil
}

// unstarted returns an authorization server whose faults may still
// change.
func (w *world) unstarted(name string) (*authServer, error) {
	as, err := w.authServerOf(name)
	if err != nil {
		return nil, err
	}
	if as.srv != nil {
		return nil, fmt.Errorf("the authorization server %q already runs; break it before anything uses it", name)
	}
	return as, nil
}

// startAuthServer starts an authorization server (idempotent).
func (w *world) startAuthServer(as *authServer) (*oauth.Server, error) {
	if as.srv != nil {
		return as.srv, nil
	}
	opts := oauth.Options{Log: w.log, Name: as.name, Faults: as.faults, Shape: as.shape}
	var err error
	if as.coHosted {
		h, herr := w.httpServer("http")
		if herr != nil {
			return nil, herr
		}
		if as.srv, err = oauth.NewCoHosted(opts, h.BaseURL()); err != nil {
			return nil, fmt.Errorf("starting the authorization server %q: %w", as.name, err)
		}
		as.srv.RegisterOn(h)
	} else if as.srv, err = oauth.New(opts); err != nil {
		return nil, fmt.Errorf("starting the authorization server %q: %w", as.name, err)
	}
	for _, c := range as.clients {
		if err := as.srv.RegisterClient(c[0], c[1], nil, nil); err != nil {
			return nil, fmt.Errorf("registering the client %q at %q: %w", c[0], as.name, err)
		}
	}
	return as.srv, nil
}

// startedAuthServer starts the authorization server of that name, if it
// is not running yet, and returns it.
func (w *world) startedAuthServer(name string) (*oauth.Server, error) {
	as, err := w.authServerOf(name)
	if err != nil {
		return nil, err
	}
	return w.startAuthServer(as)
}

// protect makes an HTTP fake a protected resource of an authorization
// server, before it is mounted.
func (w *world) protect(f *fake) error {
	if f.protectedBy == "" || f.guard != nil {
		return nil
	}
	as, err := w.authServerOf(f.protectedBy)
	if err != nil {
		return err
	}
	srv, err := w.startAuthServer(as)
	if err != nil {
		return err
	}
	f.guard = srv.Resource(f.resource)
	if f.script.HTTP == nil {
		f.script.HTTP = &mcpfake.HTTPBehaviour{}
	}
	f.script.HTTP.Guard = f.guard
	return nil
}

// login plays the user at whichever authorization server the URL names.
func (w *world) login(ctx context.Context, authURL string) (string, error) {
	u, err := url.Parse(authURL)
	if err != nil {
		return "", err
	}
	origin := u.Scheme + "://" + u.Host
	for _, as := range w.authServers {
		if as.srv != nil && (as.srv.Origin() == origin || as.srv.OtherOrigin() == origin) {
			return as.srv.Authorize(ctx, authURL)
		}
	}
	return "", fmt.Errorf("no authorization server of the scenario serves %s", origin)
}

// redirectURL is the redirect URL of the host's providers: a loopback
// port nothing listens on (the host's authorize() reads the callback from
// the authorization server's redirect itself), and none of the fakes will
// (quietPort).
func (w *world) redirectURL() (string, error) {
	if w.redirect == "" {
		u, err := quietURL("/oauth/callback")
		if err != nil {
			return "", err
		}
		w.redirect = u
	}
	return w.redirect, nil
}

// bind adds a binding.
func (w *world) bind(b *bindingSpec) error {
	if _, err := w.fake(b.server); err != nil {
		return err
	}
	if _, err := w.authServerOf(b.as); err != nil {
		return err
	}
	if _, dup := w.bindings[b.server]; dup {
		return fmt.Errorf("the scenario binds %q twice", b.server)
	}
	w.bindings[b.server] = b
	w.bindOrder = append(w.bindOrder, b.server)
	if b.provider != "" {
		redirect, err := w.redirectURL()
		if err != nil {
			return err
		}
		w.host.oauth.provider(b.provider, redirect)
	}
	return nil
}

// bindingOf returns a binding the scenario made.
func (w *world) bindingOf(server string) (*bindingSpec, error) {
	b, ok := w.bindings[server]
	if !ok {
		return nil, fmt.Errorf("the scenario did not bind %q to OAuth", server)
	}
	return b, nil
}

// resolveOAuth turns the bindings into the mcpOAuth option, starting what
// they need, and runs the provisioning steps (tokens the host holds).
func (w *world) resolveOAuth(ctx context.Context) (map[string]adapter.OAuthBinding, error) {
	w.host.oauth.mu.Lock()
	w.host.oauth.login = w.login
	w.host.oauth.mu.Unlock()
	if len(w.bindings) == 0 {
		return nil, nil
	}
	out := map[string]adapter.OAuthBinding{}
	for _, name := range w.bindOrder {
		b := w.bindings[name]
		f, _ := w.fake(b.server)
		if err := w.materialize(f); err != nil {
			return nil, err
		}
		as, _ := w.authServerOf(b.as)
		srv, err := w.startAuthServer(as)
		if err != nil {
			return nil, err
		}
		ob := adapter.OAuthBinding{ServerURL: f.url, Provider: b.provider, ClientCredentials: b.cc, Authorize: b.provider != "" && !b.noAuthorize, TimeoutMs: b.timeoutMs}
		if b.serverURL != "" {
			if ob.ServerURL, err = w.render(b.serverURL); err != nil {
				return nil, err
			}
		}
		switch {
		case b.noOrigins:
		case b.allowOther:
			ob.AllowedOrigins = []string{srv.Origin(), srv.OtherOrigin()}
		default:
			ob.AllowedOrigins = []string{srv.Origin()}
		}
		ob.AllowedOrigins = append(ob.AllowedOrigins, b.extraOrigins...)
		for _, name := range b.alsoServers {
			osrv, err := w.startedAuthServer(name)
			if err != nil {
				return nil, err
			}
			ob.AllowedOrigins = append(ob.AllowedOrigins, osrv.Origin())
		}
		if err := w.publishDocument(b, srv); err != nil {
			return nil, err
		}
		if ob.ClientCredentials != nil && ob.ClientCredentials.ExpectedIssuer == "" {
			ob.ClientCredentials.ExpectedIssuer = srv.Issuer()
		}
		out[name] = ob
	}
	for _, p := range w.provisions {
		if err := p(ctx); err != nil {
			return nil, err
		}
	}
	w.provisions = nil
	return out, nil
}

// publishDocument tells the authorization server of a binding of the
// client ID metadata document of the binding's provider, when the provider
// has one and the server's shape supports them: as a real server fetches
// the document, the fake learns its redirect URI (it never leaves
// loopback).
func (w *world) publishDocument(b *bindingSpec, srv *oauth.Server) error {
	as, _ := w.authServerOf(b.as)
	if b.provider == "" || !as.shape.ClientIDMetadataDocuments {
		return nil
	}
	var doc, redirect string
	_ = w.host.oauth.withProvider(b.provider, func(p *providerStore) error {
		doc, redirect = p.metadataURL, p.redirectURL
		return nil
	})
	if u, err := url.Parse(doc); err != nil || u.Scheme != "https" || as.documents[doc] {
		return nil // not a document a server could fetch: the implementation must refuse it
	}
	if as.documents == nil {
		as.documents = map[string]bool{}
	}
	as.documents[doc] = true
	return srv.AddClientMetadataDocument(doc, []string{redirect})
}

// holdsTokens: Given the provider "p" holds valid tokens of "as" for "docs"
// — minted for a client registered beforehand, as if an earlier login had
// saved them.
func (w *world) holdsTokens(provider, asName, server string) error {
	if _, err := w.authServerOf(asName); err != nil {
		return err
	}
	redirect, err := w.redirectURL()
	if err != nil {
		return err
	}
	store := w.host.oauth.provider(provider, redirect)
	w.provisions = append(w.provisions, func(ctx context.Context) error {
		srv, err := w.startedAuthServer(asName)
		if err != nil {
			return err
		}
		f, err := w.fake(server)
		if err != nil {
			return err
		}
		if err := w.materialize(f); err != nil {
			return err
		}
		id := "la-saved-client-" + provider
		if err := srv.RegisterClient(id, "", []string{redirect}, nil); err != nil {
			return err
		}
		access, refresh, err := srv.MintTokens(ctx, id, f.url, time.Hour)
		if err != nil {
			return err
		}
		w.host.oauth.mu.Lock()
		defer w.host.oauth.mu.Unlock()
		store.held = append(store.held, id, refresh)
		// Bound to their issuer, as the official client saves them.
		store.clientInfo = mustJSON(map[string]string{"client_id": id, "issuer": srv.Issuer()})
		store.tokens = mustJSON(map[string]any{"access_token": access, "token_type": "Bearer", "refresh_token": refresh, "expires_in": 3600, "issuer": srv.Issuer()})
		w.minted = append(w.minted, access)
		return nil
	})
	return nil
}

// otherOriginRecords returns the records of requests that reached an
// authorization server's other origin.
func (w *world) otherOriginHit(name string) (int, error) {
	as, err := w.authServerOf(name)
	if err != nil {
		return 0, err
	}
	if as.srv == nil {
		return 0, nil
	}
	n := 0
	other := as.srv.OtherOrigin()
	for _, r := range w.log.Records() {
		if r.Server == name && strings.HasSuffix(r.Instance, "@"+other) {
			n++
		}
	}
	return n, nil
}

// closeAuthServers stops every authorization server.
func (w *world) closeAuthServers() {
	names := make([]string, 0, len(w.authServers))
	for n := range w.authServers {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if s := w.authServers[n].srv; s != nil {
			_ = s.Close()
		}
	}
}
