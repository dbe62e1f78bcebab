package conformance

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/oauth"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// Steps of the OAuth scenarios (LA-OAU, LA-CC).

// registerOAuthSteps defines the steps whose methods are in this file.
func (w *world) registerOAuthSteps(sc stepDefiner) {
	sc.Step(`^an authorization server "([^"]*)"(?: with the client "([^"]*)" and the secret "([^"]*)")?$`, w.anAuthServer)
	sc.Step(`^an authorization server "([^"]*)" co-hosted with the MCP servers$`, w.coHostedAuthServer)
	sc.Step(`^the authorization server "([^"]*)" (sends a wrong iss|sends no iss|names another issuer in its metadata|denies access|refuses refresh tokens|repeats "(?:code|state|iss)" in its callback|serves its (?:authorization|token|registration|metadata) endpoint on its other origin|lists its (?:authorization|token|registration|metadata) endpoint on plain HTTP to a remote host|redirects its (?:authorization|token|registration|metadata) endpoint to its other origin|issues "[^"]*" tokens|answers token requests with the error "[^"]*" described as "[^"]*"|holds its (?:authorization|token|registration|metadata) endpoint at the latch "[^"]*"|delays its (?:authorization|token|registration|metadata) endpoint by \d+ ms|has no issuer path|has the issuer path "/[^"]*"|serves its metadata by RFC 8414|serves its metadata by OpenID Connect discovery|serves its metadata by OpenID Connect discovery appended to its issuer path|supports only the client authentication "[^"]*"|lists the scopes "[^"]*"|supports client ID metadata documents)$`, w.authServerFault)
	sc.Step(`^an HTTP MCP server "([^"]*)" with tools "([^"]*)" protected by "([^"]*)"$`, w.protectedServer)
	sc.Step(`^the host binds "([^"]*)" to OAuth with the provider "([^"]*)" of "([^"]*)"$`, w.bindsOAuth)
	sc.Step(`^the host binds "([^"]*)" to the client credentials "([^"]*)" and "([^"]*)" of "([^"]*)"$`, w.bindsClientCredentials)
	sc.Step(`^the binding of "([^"]*)" (has timeoutMs (?:-?\d+(?:\.\d+)?|"[^"]*")|has serverUrl ".*"|allows no other origin|also allows the other origin of "[^"]*"|also allows the origin "[^"]*"|also allows the authorization server "[^"]*"|has no authorize\(\)|expects the issuer "[^"]*")$`, w.bindingSetting)
	sc.Step(`^the provider "([^"]*)" is an official provider class with state\(\) "([^"]*)"$`, w.officialProvider)
	sc.Step(`^the provider "([^"]*)" forgets its tokens$`, w.forgetsTokens)
	sc.Step(`^the host's authorize\(\) (completes the login|waits until it is cancelled|fails|ignores its signal and returns the callback after it was aborted|completes the login but keeps the callback until it is cancelled|checks that nothing listens on the redirect URL's port|returns the first login's callback from now on|returns the callback with its \w+ changed)$`, w.authorizeDoes)
	sc.Step(`^the protected server "([^"]*)" answers (401|403 insufficient_scope) to the next (\d+) requests?(?: with a valid token)?$`, w.refuses)
	sc.Step(`^the protected server "([^"]*)" stops refusing valid tokens$`, w.stopsRefusing)
	sc.Step(`^the access token the provider "([^"]*)" holds expires$`, w.tokenExpires)
	sc.Step(`^the host's authorize\(\) is called$`, w.authorizeIsCalled)
	sc.Step(`^the signal of authorize\(\) is aborted$`, w.signalIsAborted)
	sc.Step(`^the host's authorize\(\) holds the callback of the first login$`, w.authorizeHolds)
	sc.Step(`^the host creates the agent again$`, w.createsAgentAgain)
	sc.Step(`^the host creates the agent and registers "([^"]*)"$`, w.createsAgentAndRegisters)
}

// anAuthServer: Given an authorization server "as" [with the client "id" and the secret "s"]
func (w *world) anAuthServer(name, client, secret string) error {
	as, err := w.defineAuthServer(name, false)
	if err != nil {
		return err
	}
	if client != "" {
		as.clients = append(as.clients, [2]string{client, secret})
	}
	return nil
}

// coHostedAuthServer: Given an authorization server "co" co-hosted with the MCP servers
func (w *world) coHostedAuthServer(name string) error {
	_, err := w.defineAuthServer(name, true)
	return err
}

// endpointName maps the scenarios' endpoint words to the fake's names.
func endpointName(word string) string {
	switch word {
	case "authorization":
		return oauth.EndpointAuthorize
	case "registration":
		return oauth.EndpointRegister
	}
	return word
}

// The fault phrases of "the authorization server "as" <fault>".
var (
	faultDuplicate = regexp.MustCompile(`^repeats "(code|state|iss)" in its callback$`)
	faultOther     = regexp.MustCompile(`^serves its (\w+) endpoint on its other origin$`)
	faultPlain     = regexp.MustCompile(`^lists its (\w+) endpoint on plain HTTP to a remote host$`)
	faultRedirect  = regexp.MustCompile(`^redirects its (\w+) endpoint to its other origin$`)
	faultTokenType = regexp.MustCompile(`^issues "([^"]*)" tokens$`)
	faultError     = regexp.MustCompile(`^answers token requests with the error "([^"]*)" described as "([^"]*)"$`)
	faultDelay     = regexp.MustCompile(`^delays its (\w+) endpoint by (\d+) ms$`)
	faultLatch     = regexp.MustCompile(`^holds its (\w+) endpoint at the latch "([^"]*)"$`)
)

// authServerFault: Given the authorization server "as" sends a wrong iss (and other faults)
func (w *world) authServerFault(name, fault string) error {
	as, err := w.unstarted(name)
	if err != nil {
		return err
	}
	f := &as.faults
	switch {
	case fault == "sends a wrong iss":
		f.Iss = "wrong"
	case fault == "sends no iss":
		f.Iss = "missing"
	case fault == "names another issuer in its metadata":
		f.IssuerMismatch = true
	case fault == "denies access":
		f.Deny = true
	case fault == "refuses refresh tokens":
		f.RefreshFails = true
	case faultDuplicate.MatchString(fault):
		f.DuplicateParam = faultDuplicate.FindStringSubmatch(fault)[1]
	case faultOther.MatchString(fault):
		f.OtherOrigin = append(f.OtherOrigin, endpointName(faultOther.FindStringSubmatch(fault)[1]))
	case faultPlain.MatchString(fault):
		f.PlainHTTP = append(f.PlainHTTP, endpointName(faultPlain.FindStringSubmatch(fault)[1]))
	case faultRedirect.MatchString(fault):
		f.Redirect = append(f.Redirect, endpointName(faultRedirect.FindStringSubmatch(fault)[1]))
	case faultTokenType.MatchString(fault):
		f.TokenType = faultTokenType.FindStringSubmatch(fault)[1]
	case faultError.MatchString(fault):
		m := faultError.FindStringSubmatch(fault)
		f.TokenError, f.ErrorDescription = m[1], m[2]
	case faultLatch.MatchString(fault):
		m := faultLatch.FindStringSubmatch(fault)
		if f.Latch == nil {
			f.Latch = map[string]string{}
		}
		f.Latch[endpointName(m[1])] = m[2]
	case faultDelay.MatchString(fault):
		m := faultDelay.FindStringSubmatch(fault)
		ms, _ := strconv.Atoi(m[2])
		if f.Delay == nil {
			f.Delay = map[string]time.Duration{}
		}
		f.Delay[endpointName(m[1])] = time.Duration(ms) * time.Millisecond
	default:
		if ok, err := shapePhrase(&as.shape, fault); ok || err != nil {
			return err
		}
		return fmt.Errorf("unknown fault or shape of an authorization server: %q", fault)
	}
	return nil
}

// protectedServer: Given an HTTP MCP server "docs" with tools "search" protected by "as"
func (w *world) protectedServer(name, tools, asName string) error {
	if _, err := w.authServerOf(asName); err != nil {
		return err
	}
	if err := w.aServerWithTools("an HTTP", name, tools, ""); err != nil {
		return err
	}
	w.fakes[name].protectedBy = asName
	return nil
}

// refuses: When the protected server "docs" answers 401 to the next 2 requests with a valid token
func (w *world) refuses(name, status, n string) error {
	g, err := w.guardOf(name, true)
	if err != nil {
		return err
	}
	return g.Refuse(refusalStatus(status), atoi(n))
}

// refusalStatus is the HTTP status of a refusal phrase: 401, or 403
// insufficient_scope.
func refusalStatus(status string) int {
	if strings.HasPrefix(status, "403") {
		return http.StatusForbidden
	}
	return http.StatusUnauthorized
}

// guardOf returns the guard of a protected server: mounting the server
// first when mount is true, else one already in use.
func (w *world) guardOf(name string, mount bool) (*oauth.Resource, error) {
	f, err := w.fake(name)
	if err != nil {
		return nil, err
	}
	if f.protectedBy == "" {
		return nil, fmt.Errorf("%q is not protected by an authorization server", name)
	}
	if mount {
		if err := w.materialize(f); err != nil {
			return nil, err
		}
	}
	if f.guard == nil {
		return nil, fmt.Errorf("%q is not a protected server in use", name)
	}
	return f.guard, nil
}

// bindsOAuth: Given the host binds "docs" to OAuth with the provider "p" of "as"
func (w *world) bindsOAuth(server, provider, as string) error {
	return w.bind(&bindingSpec{server: server, provider: provider, as: as})
}

// bindsClientCredentials: Given the host binds "docs" to the client credentials "id" and "secret" of "as"
func (w *world) bindsClientCredentials(server, id, secret, as string) error {
	return w.bind(&bindingSpec{server: server, as: as, cc: &adapter.ClientCredentials{ClientID: id, ClientSecret: secret}})
}

// bindingSetting: Given the binding of "docs" has timeoutMs 500 (and other settings)
func (w *world) bindingSetting(server, setting string) error {
	b, err := w.bindingOf(server)
	if err != nil {
		return err
	}
	var v string
	switch {
	case strings.HasPrefix(setting, "has timeoutMs "):
		raw, err := rawJSON(strings.TrimPrefix(setting, "has timeoutMs "))
		if err != nil {
			return err
		}
		b.timeoutMs = raw
	case scanQuoted(setting, "has serverUrl ", &v):
		b.serverURL = v
	case setting == "allows no other origin":
		b.noOrigins = true
	case scanQuoted(setting, "also allows the other origin of ", &v):
		if v != b.as {
			return fmt.Errorf("the binding of %q uses %q, not %q", server, b.as, v)
		}
		b.allowOther = true
	case scanQuoted(setting, "also allows the origin ", &v):
		b.extraOrigins = append(b.extraOrigins, v)
	case scanQuoted(setting, "also allows the authorization server ", &v):
		if _, err := w.authServerOf(v); err != nil {
			return err
		}
		b.alsoServers = append(b.alsoServers, v)
	case setting == "has no authorize()":
		b.noAuthorize = true
	case scanQuoted(setting, "expects the issuer ", &v):
		if b.cc == nil {
			return fmt.Errorf("the binding of %q has no client credentials", server)
		}
		b.cc.ExpectedIssuer = v
	default:
		return fmt.Errorf("unknown setting of a binding: %q", setting)
	}
	return nil
}

// officialProvider: Given the provider "p" is an official provider class with state() "x"
func (w *world) officialProvider(name, state string) error {
	redirect, err := w.redirectURL()
	if err != nil {
		return err
	}
	p := w.host.oauth.provider(name, redirect)
	w.host.oauth.mu.Lock()
	defer w.host.oauth.mu.Unlock()
	p.official, p.state = true, state
	return nil
}

// forgetsTokens: When the provider "p" forgets its tokens
func (w *world) forgetsTokens(name string) error {
	return w.host.oauth.withProvider(name, func(p *providerStore) error {
		p.tokens = nil
		return nil
	})
}

// authorizeDoes: Given the host's authorize() waits until it is cancelled (and other behaviours)
func (w *world) authorizeDoes(behaviour string) error {
	o := &w.host.oauth
	o.mu.Lock()
	defer o.mu.Unlock()
	var part string
	switch {
	case behaviour == "completes the login":
		o.mode = authorizeComplete
	case behaviour == "waits until it is cancelled":
		o.mode = authorizeHang
	case behaviour == "fails":
		o.mode = authorizeFail
	case behaviour == "ignores its signal and returns the callback after it was aborted":
		o.mode = authorizeLate
	case behaviour == "completes the login but keeps the callback until it is cancelled":
		o.mode = authorizeHold
	case behaviour == "checks that nothing listens on the redirect URL's port":
		o.portCheck = true
	case behaviour == "returns the first login's callback from now on":
		o.mode, o.replayFirst = authorizeComplete, true
	case strings.HasPrefix(behaviour, "returns the callback with its ") && strings.HasSuffix(behaviour, " changed"):
		part = strings.TrimSuffix(strings.TrimPrefix(behaviour, "returns the callback with its "), " changed")
		if _, err := tamperCallback("http://127.0.0.1:1/cb?state=x", part); err != nil {
			return err
		}
		o.tamper = part
	default:
		return fmt.Errorf("unknown behaviour of authorize(): %q", behaviour)
	}
	return nil
}

// authorizeIsCalled: When the host's authorize() is called — waits for it.
func (w *world) authorizeIsCalled(ctx context.Context) error {
	return w.waitHost(ctx, "authorize", "the host's authorize() was never called")
}

// authorizeHolds: When the host's authorize() holds the callback of the first login — waits for it.
func (w *world) authorizeHolds(ctx context.Context) error {
	return w.waitHost(ctx, "authorize-held", "the host's authorize() never got the first login's callback")
}

// signalIsAborted: When the signal of authorize() is aborted — waits for it.
func (w *world) signalIsAborted(ctx context.Context) error {
	return w.waitHost(ctx, "authorize-cancelled", "the signal of authorize() was never aborted")
}

// waitHost waits for a host record of method.
func (w *world) waitHost(ctx context.Context, method, never string) error {
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	if _, err := w.log.Wait(sctx, func(rs []record.Record) bool { return len(hostRecordsOf(rs, method)) > 0 }); err != nil {
		return fmt.Errorf("%s: %w", never, err)
	}
	return nil
}

// authURLs returns the authorization URLs authorize() was given.
func (w *world) authURLs() []*url.URL {
	var out []*url.URL
	for _, r := range hostRecordsOf(w.log.Records(), "authorize") {
		var req adapter.AuthorizeRequest
		_ = json.Unmarshal(r.Params, &req)
		if u, err := url.Parse(req.URL); err == nil {
			out = append(out, u)
		}
	}
	return out
}

// base64url is a base64url string without padding.
var base64url = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// providerCalls returns the calls of one method of a provider.
func (w *world) providerCalls(provider, method string) []adapter.ProviderCall {
	var out []adapter.ProviderCall
	for _, r := range hostRecordsOf(w.log.Records(), "provider") {
		var c adapter.ProviderCall
		_ = json.Unmarshal(r.Params, &c)
		if c.Provider == provider && c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// asRequests returns an authorization server's requests to one endpoint
// ("" for all).
func (w *world) asRequests(name, endpoint string) []record.Record {
	return asRequestsIn(w.log.Records(), name, endpoint)
}

// asRequestsIn is asRequests over the records rs.
func asRequestsIn(rs []record.Record, name, endpoint string) []record.Record {
	return slices.DeleteFunc(httpRequests(rs, name), func(r record.Record) bool {
		return endpoint != "" && r.Method != endpoint
	})
}

// formOf decodes the Params of an authorization server's record: each
// parameter a string, or a list when repeated.
func formOf(r record.Record) map[string]any {
	m := map[string]any{}
	_ = json.Unmarshal(r.Params, &m)
	return m
}

// grants returns the token requests of one grant type.
func (w *world) grants(name, grant string) []record.Record {
	return grantsIn(w.log.Records(), name, grant)
}

// grantsIn is grants over the records rs.
func grantsIn(rs []record.Record, name, grant string) []record.Record {
	return slices.DeleteFunc(asRequestsIn(rs, name, oauth.EndpointToken), func(r record.Record) bool {
		return formOf(r)["grant_type"] != grant
	})
}

// carried reports whether a request record carries text in a header (Basic
// credentials decoded) or its parameters.
func carried(r record.Record, text string) bool {
	if r.HTTP != nil {
		for _, vs := range r.HTTP.Header {
			for _, v := range vs {
				if strings.Contains(v, text) {
					return true
				}
				if b, ok := strings.CutPrefix(v, "Basic "); ok {
					if d, err := base64.StdEncoding.DecodeString(b); err == nil && strings.Contains(string(d), text) {
						return true
					}
				}
			}
		}
	}
	return strings.Contains(string(r.Params), text)
}

// mcpRequests returns the requests an HTTP fake's mount received (not its
// protected resource metadata).
func (w *world) mcpRequests(name string) []record.Record {
	return slices.DeleteFunc(httpRequests(w.log.Records(), name), func(r record.Record) bool {
		return r.HTTP == nil || !strings.HasPrefix(r.HTTP.Path, "/mcp/")
	})
}

// bearerOf returns the Bearer token of a request, "" if none.
func bearerOf(r record.Record) string {
	if r.HTTP == nil {
		return ""
	}
	v, _ := strings.CutPrefix(http.Header(r.HTTP.Header).Get("Authorization"), "Bearer ")
	return v
}

// resourceOf is the resource of the first authorization URL, for failures.
func resourceOf(us []*url.URL) string {
	if len(us) == 0 {
		return ""
	}
	return us[0].Query().Get("resource")
}

// createsAgentAgain: When the host creates the agent again — a new agent
// with the same options and host, after the first was closed.
func (w *world) createsAgentAgain(ctx context.Context) error {
	if w.agent == nil {
		return fmt.Errorf("there is no first agent")
	}
	if w.last == nil || w.last.what != "closing the agent" {
		if err := closeWithin(ctx, w.agent); err != nil {
			return fmt.Errorf("closing the first agent: %w", err)
		}
	}
	w.agent = nil
	return w.createAgent(ctx)
}

// stopsRefusing: When the protected server "docs" stops refusing valid tokens
func (w *world) stopsRefusing(name string) error {
	g, err := w.guardOf(name, false)
	if err != nil {
		return err
	}
	g.Accept()
	return nil
}

// tokenExpires: When the access token the provider "p" holds expires — the
// host's saved access token is replaced by one the server never issued, as
// an expired one would be refused.
func (w *world) tokenExpires(provider string) error {
	return w.host.oauth.withProvider(provider, func(p *providerStore) error {
		if p.tokens == nil {
			return fmt.Errorf("the provider %q holds no tokens", provider)
		}
		var t map[string]any
		if err := json.Unmarshal(p.tokens, &t); err != nil {
			return err
		}
		t["access_token"] = "la-expired-access-token-0d1e"
		p.tokens = mustJSON(t)
		return nil
	})
}

// createsAgentAndRegisters: When the host creates the agent and registers
// "docs" — the registration is skipped when creation fails, so the step
// fits rules that refusing at construction and at registration both obey.
func (w *world) createsAgentAndRegisters(ctx context.Context, name string) error {
	if err := w.createAgent(ctx); err != nil {
		return err
	}
	if w.agent == nil {
		return nil
	}
	return w.registers(ctx, name, "", "")
}
