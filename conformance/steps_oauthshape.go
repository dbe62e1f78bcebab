package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/fakes/oauth"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Steps of the OAuth scenarios about the shapes of correct servers the
// official client meets (LA-OAU-15): where the metadata is, what the
// servers support, what a client sends them. The authorization servers'
// shapes are phrases of "the authorization server "as" ..." (shapePhrase).

// registerOAuthShapeSteps defines the steps whose methods are in this file.
func (w *world) registerOAuthShapeSteps(sc stepDefiner) {
	sc.Step(`^the protected server "([^"]*)" (challenges with resource_metadata|challenges without resource_metadata|challenges for the scope "[^"]*"|lists the scopes "[^"]*"|serves its metadata at the path-inserted URL|serves its metadata at the root|serves its metadata nowhere|names the resource "[^"]*")$`, w.resourceShape)
	sc.Step(`^the protected server "([^"]*)" answers (401|403 insufficient_scope) to the next (\d+) "([^"]*)" requests?$`, w.refusesMethod)
	sc.Step(`^the protected server "([^"]*)" moves to the authorization server "([^"]*)"$`, w.movesTo)
	sc.Step(`^the provider "([^"]*)" describes its client as (\{.*\})$`, w.providerDescribes)
	sc.Step(`^the provider "([^"]*)" asks for the scope "([^"]*)"$`, w.providerAsksScope)
	sc.Step(`^the provider "([^"]*)" redirects to "([^"]*)"$`, w.providerRedirects)
	sc.Step(`^the provider "([^"]*)" has the client metadata URL "([^"]*)"$`, w.providerMetadataURL)
	sc.Step(`^the provider "([^"]*)" holds the client "([^"]*)" with the secret "([^"]*)" of "([^"]*)"$`, w.providerHoldsClient)
	sc.Step(`^the resource metadata of "([^"]*)" was looked for at "([^"]*)", in this order$`, w.lookedForResourceMetadata)
	sc.Step(`^the metadata of "([^"]*)" was looked for at "([^"]*)", in this order$`, w.lookedForServerMetadata)
	sc.Step(`^the registration "([^"]*)" received was the client metadata of the provider "([^"]*)" with (\{.*\})$`, w.registrationWas)
	sc.Step(`^the authorization URL's "([^"]*)" was (not )?"([^"]*)"$`, w.authURLParam)
	sc.Step(`^"([^"]*)" received the "([^"]*)" grants? authenticated with "([^"]*)"$`, w.grantAuthenticated)
	sc.Step(`^every "([^"]*)" grant "([^"]*)" received carried the "([^"]*)" "([^"]*)"$`, w.grantCarried)
	sc.Step(`^every authorization and token request for "([^"]*)" named the resource "(.*)"$`, w.namedResourceEvery)
	sc.Step(`^no request "([^"]*)" received carried the client or the refresh token the provider "([^"]*)" (held|holds)$`, w.noHeldSecret)
	sc.Step(`^the provider "([^"]*)" holds a client of "([^"]*)"$`, w.providerHoldsClientOf)
}

// The shape phrases of "the authorization server "as" <phrase>".
var (
	shapeIssuerPath = regexp.MustCompile(`^has the issuer path "(/[^"]*)"$`)
	shapeMethods    = regexp.MustCompile(`^supports only the client authentication "([^"]*)"$`)
	shapeScopes     = regexp.MustCompile(`^lists the scopes "([^"]*)"$`)
)

// shapePhrase applies a shape phrase to an authorization server not yet
// started; it reports false for a phrase that is not one.
func shapePhrase(sh *oauth.Shape, phrase string) (bool, error) {
	switch {
	case phrase == "has no issuer path":
	case shapeIssuerPath.MatchString(phrase):
		sh.IssuerPath = shapeIssuerPath.FindStringSubmatch(phrase)[1]
	case phrase == "serves its metadata by RFC 8414":
		sh.Metadata = oauth.MetadataOAuth
	case phrase == "serves its metadata by OpenID Connect discovery":
		sh.Metadata = oauth.MetadataOpenID
	case phrase == "serves its metadata by OpenID Connect discovery appended to its issuer path":
		sh.Metadata = oauth.MetadataOpenIDAppended
	case shapeMethods.MatchString(phrase):
		sh.AuthMethods = splitList(shapeMethods.FindStringSubmatch(phrase)[1])
	case shapeScopes.MatchString(phrase):
		sh.Scopes = strings.Fields(shapeScopes.FindStringSubmatch(phrase)[1])
	case phrase == "supports client ID metadata documents":
		sh.ClientIDMetadataDocuments = true
	default:
		return false, nil
	}
	return true, nil
}

// splitList splits "a, b" into its items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// resourceShape: Given the protected server "docs" challenges without resource_metadata (and other shapes)
func (w *world) resourceShape(name, phrase string) error {
	f, err := w.fake(name)
	if err != nil {
		return err
	}
	if f.protectedBy == "" || f.guard != nil {
		return fmt.Errorf("%q is not a protected server that is still to be mounted", name)
	}
	o := &f.resource
	var v string
	switch {
	case phrase == "challenges with resource_metadata":
		o.BareChallenge = false
	case phrase == "challenges without resource_metadata":
		o.BareChallenge = true
	case scanQuoted(phrase, "challenges for the scope ", &v):
		o.ChallengeScope = v
	case scanQuoted(phrase, "lists the scopes ", &v):
		o.ScopesSupported = strings.Fields(v)
	case phrase == "serves its metadata at the path-inserted URL":
		o.MetadataAt = oauth.MetadataPathInserted
	case phrase == "serves its metadata at the root":
		o.MetadataAt = oauth.MetadataRoot
	case phrase == "serves its metadata nowhere":
		o.MetadataAt = oauth.MetadataNowhere
	case scanQuoted(phrase, "names the resource ", &v):
		// A template would mount the server before its guard is shaped.
		if strings.Contains(v, "{{") {
			return fmt.Errorf("the resource %q of %q: give a URL or a reference resolved against the server's URL (such as / or /mcp/other), not a template", v, name)
		}
		o.Resource = v
	default:
		return fmt.Errorf("unknown shape of a protected server: %q", phrase)
	}
	return nil
}

// refusesMethod: When the protected server "docs" answers 403 insufficient_scope to the next 1 "tools/list" request
func (w *world) refusesMethod(name, status, n, method string) error {
	g, err := w.guardOf(name, true)
	if err != nil {
		return err
	}
	return g.RefuseMethod(refusalStatus(status), atoi(n), method)
}

// movesTo: When the protected server "docs" moves to the authorization server "as2"
func (w *world) movesTo(name, asName string) error {
	g, err := w.guardOf(name, false)
	if err != nil {
		return err
	}
	srv, err := w.startedAuthServer(asName)
	if err != nil {
		return err
	}
	g.MoveTo(srv)
	return nil
}

// providerDescribes: Given the provider "p" describes its client as {...}
// — "{{redirect}}" stands for the provider's redirect URL.
func (w *world) providerDescribes(name, doc string) error {
	return w.host.oauth.withProvider(name, func(p *providerStore) error {
		r, _ := json.Marshal(p.redirectURL)
		doc = strings.ReplaceAll(doc, `"{{redirect}}"`, string(r))
		var m map[string]any
		if err := json.Unmarshal([]byte(doc), &m); err != nil {
			return fmt.Errorf("the client metadata of %q is not a JSON object: %w", name, err)
		}
		p.metadata = json.RawMessage(doc)
		return nil
	})
}

// providerAsksScope: Given the provider "p" asks for the scope "x" — the
// scope of its client metadata; "" for none.
func (w *world) providerAsksScope(name, scope string) error {
	return w.host.oauth.withProvider(name, func(p *providerStore) error {
		var m map[string]any
		_ = json.Unmarshal(p.clientMetadata(), &m)
		if scope == "" {
			delete(m, "scope")
		} else {
			m["scope"] = scope
		}
		p.metadata = mustJSON(m)
		return nil
	})
}

// providerRedirects: Given the provider "p" redirects to "https://..."
func (w *world) providerRedirects(name, redirect string) error {
	return w.host.oauth.withProvider(name, func(p *providerStore) error {
		p.redirectURL = redirect
		return nil
	})
}

// providerMetadataURL: Given the provider "p" has the client metadata URL "https://..."
func (w *world) providerMetadataURL(name, doc string) error {
	return w.host.oauth.withProvider(name, func(p *providerStore) error {
		p.metadataURL = doc
		return nil
	})
}

// providerHoldsClient: Given the provider "p" holds the client "id" with
// the secret "s" of "as" — pre-registered by the host at that server, with
// no token_endpoint_auth_method: the server's metadata decides it.
func (w *world) providerHoldsClient(name, id, secret, asName string) error {
	if _, err := w.authServerOf(asName); err != nil {
		return err
	}
	if err := w.host.oauth.withProvider(name, func(*providerStore) error { return nil }); err != nil {
		return err
	}
	w.provisions = append(w.provisions, func(context.Context) error {
		srv, err := w.startedAuthServer(asName)
		if err != nil {
			return err
		}
		var redirect string
		_ = w.host.oauth.withProvider(name, func(p *providerStore) error {
			redirect = p.redirectURL
			return nil
		})
		if err := srv.RegisterClient(id, secret, []string{redirect}, nil); err != nil {
			return err
		}
		return w.host.oauth.withProvider(name, func(p *providerStore) error {
			p.clientInfo = mustJSON(map[string]string{"client_id": id, "client_secret": secret, "issuer": srv.Issuer()})
			p.held = append(p.held, id)
			return nil
		})
	})
	return nil
}

// firstPaths returns the paths of the requests rs holds that keep, in the
// order each was first asked for: a client that discovers once per leg of
// a login asks for them again, in the same order.
func firstPaths(rs []record.Record, keep func(record.Record) bool) []string {
	var out []string
	for _, r := range rs {
		if r.Kind == record.KindHTTP && r.HTTP != nil && keep(r) && !slices.Contains(out, r.HTTP.Path) {
			out = append(out, r.HTTP.Path)
		}
	}
	return out
}

// lookedForResourceMetadata: Then the resource metadata of "docs" was looked for at "/a, /b", in this order
func (w *world) lookedForResourceMetadata(name, paths string) error {
	got := firstPaths(w.log.Records(), func(r record.Record) bool {
		return r.Server == name && strings.HasPrefix(r.HTTP.Path, mcpfake.ProtectedResourceMetadataPrefix)
	})
	want := splitList(paths)
	return w.expect(slices.Equal(got, want), fmt.Sprintf("%s's resource metadata was looked for at %v, in this order, and nowhere else", name, want), "%v", got)
}

// lookedForServerMetadata: Then the metadata of "as" was looked for at "/a, /b", in this order
func (w *world) lookedForServerMetadata(asName, paths string) error {
	if _, err := w.authServerOf(asName); err != nil {
		return err
	}
	got := firstPaths(w.log.Records(), func(r record.Record) bool {
		return r.Server == asName && strings.Contains(r.HTTP.Path, "/.well-known/")
	})
	want := splitList(paths)
	return w.expect(slices.Equal(got, want), fmt.Sprintf("%s's metadata was looked for at %v, in this order, and nowhere else", asName, want), "%v", got)
}

// registrationWas: Then the registration "as" received was the provider's
// client metadata with {...} — every registration request's body is
// exactly the provider's client metadata with those members changed (a
// member given as "" must be absent), and nothing else.
func (w *world) registrationWas(asName, provider, changes string) error {
	var want map[string]any
	if err := w.host.oauth.withProvider(provider, func(p *providerStore) error {
		return json.Unmarshal(p.clientMetadata(), &want)
	}); err != nil {
		return err
	}
	var ch map[string]any
	if err := json.Unmarshal([]byte(changes), &ch); err != nil {
		return fmt.Errorf("the changes %s are not a JSON object: %w", changes, err)
	}
	for k, v := range ch {
		if v == "" {
			delete(want, k)
		} else {
			want[k] = v
		}
	}
	regs := w.asRequests(asName, oauth.EndpointRegister)
	if err := w.expect(len(regs) > 0, asName+" received a registration", "it received none"); err != nil {
		return err
	}
	wantJSON := mustJSON(want)
	for _, r := range regs {
		if err := w.expect(jsonEqual(r.Params, wantJSON), "the registration body "+string(wantJSON), "%s", safetext.Cap(string(r.Params), 400)); err != nil {
			return err
		}
	}
	return nil
}

// authURLParam: Then the authorization URL's "scope" was [not] "x" — ""
// means the parameter is absent. Every authorization URL is checked.
func (w *world) authURLParam(param, not, value string) error {
	us := w.authURLs()
	if err := w.expect(len(us) > 0, "authorize() was called with an authorization URL", "it was never called"); err != nil {
		return err
	}
	for _, u := range us {
		got, present := u.Query()[param]
		actual := strings.Join(got, ", ")
		switch {
		case not != "":
			if err := w.expect(actual != value, fmt.Sprintf("the authorization URL's %s is not %q", param, value), "it is"); err != nil {
				return err
			}
		case value == "":
			if err := w.expect(!present, fmt.Sprintf("the authorization URL has no %s", param), "%s=%q", param, actual); err != nil {
				return err
			}
		default:
			if err := w.expect(len(got) == 1 && got[0] == value, fmt.Sprintf("the authorization URL's %s is %q", param, value), "%q", got); err != nil {
				return err
			}
		}
	}
	return nil
}

// authMethodOf names how a token request record authenticated its client.
func authMethodOf(r record.Record) string {
	if r.HTTP != nil && strings.HasPrefix(http.Header(r.HTTP.Header).Get("Authorization"), "Basic ") {
		return oauth.AuthBasic
	}
	if s, _ := formOf(r)["client_secret"].(string); s != "" {
		return oauth.AuthPost
	}
	return oauth.AuthNone
}

// grantAuthenticated: Then "as" received the "authorization_code" grant authenticated with "client_secret_post"
// — every one of them, and at least one.
func (w *world) grantAuthenticated(asName, grant, method string) error {
	return w.everyGrant(asName, grant, func(r record.Record) error {
		m := authMethodOf(r)
		if err := w.expect(m == method, fmt.Sprintf("every %s grant authenticated its client with %s", grant, method), "#%d used %s", r.Seq, m); err != nil || method != oauth.AuthNone {
			return err
		}
		return w.expect(formOf(r)["client_id"] != nil, "a client_id in the form of a public client's grant", "#%d has none", r.Seq)
	})
}

// grantCarried: Then every "authorization_code" grant "as" received carried the "client_id" "x"
func (w *world) grantCarried(grant, asName, param, value string) error {
	return w.everyGrant(asName, grant, func(r record.Record) error {
		return w.expect(formOf(r)[param] == value, fmt.Sprintf("every %s grant carried %s=%q", grant, param, value), "#%d carried %v", r.Seq, formOf(r)[param])
	})
}

// everyGrant runs check on every grant of a type an authorization server
// received, requiring at least one.
func (w *world) everyGrant(asName, grant string, check func(record.Record) error) error {
	got := w.grants(asName, grant)
	if err := w.expect(len(got) > 0, fmt.Sprintf("%s received a %s grant", asName, grant), "it received none"); err != nil {
		return err
	}
	for _, r := range got {
		if err := check(r); err != nil {
			return err
		}
	}
	return nil
}

// namedResourceEvery: Then every authorization and token request for
// "docs" named the resource "x" — x, a template, is resolved against the
// server's URL (so "/" is its origin's root). There must be a token
// request.
func (w *world) namedResourceEvery(name, value string) error {
	f, err := w.fake(name)
	if err != nil {
		return err
	}
	v, err := w.render(value)
	if err != nil {
		return err
	}
	base, _ := url.Parse(f.url)
	ref, err := url.Parse(v)
	if err != nil {
		return err
	}
	want := base.ResolveReference(ref).String()
	for _, u := range w.authURLs() {
		if err := w.expect(u.Query().Get("resource") == want, "the authorization URL names the resource "+want, "it names %q", u.Query().Get("resource")); err != nil {
			return err
		}
	}
	n := 0
	for _, as := range w.authServers {
		for _, r := range w.asRequests(as.name, oauth.EndpointToken) {
			n++
			if err := w.expect(formOf(r)["resource"] == want, fmt.Sprintf("every token request names the resource %s", want), "#%d (%v) names %v", r.Seq, formOf(r)["grant_type"], formOf(r)["resource"]); err != nil {
				return err
			}
		}
	}
	return w.expect(n > 0, "a token request", "there was none")
}

// noHeldSecret: Then no request "as2" received carried the client or the
// refresh token the provider "p" held | holds — what the host held before
// the scenario's first login (held), or holds now (holds): a client id,
// client secret, access or refresh token of another authorization server.
func (w *world) noHeldSecret(asName, provider, when string) error {
	var secrets []string
	if err := w.host.oauth.withProvider(provider, func(p *providerStore) error {
		if when == "held" {
			secrets = slices.Clone(p.held)
			return nil
		}
		var info struct {
			ClientID     string `json:"client_id"`
			ClientSecret string `json:"client_secret"`
		}
		var t struct {
			Access  string `json:"access_token"`
			Refresh string `json:"refresh_token"`
		}
		_ = json.Unmarshal(p.clientInfo, &info)
		_ = json.Unmarshal(p.tokens, &t)
		secrets = slices.DeleteFunc([]string{info.ClientID, info.ClientSecret, t.Access, t.Refresh}, func(s string) bool { return s == "" })
		return nil
	}); err != nil {
		return err
	}
	if err := w.expect(len(secrets) > 0, "the provider "+provider+" "+when+" a client", "it %s nothing", when); err != nil {
		return err
	}
	for _, h := range secrets {
		if err := w.noRequestCarried(asName, h, ""); err != nil {
			return err
		}
	}
	return nil
}

// providerHoldsClientOf: Then the provider "p" holds a client of "as2" —
// the client information it holds is bound to that server's issuer, and is
// not a client the host held before.
func (w *world) providerHoldsClientOf(provider, asName string) error {
	as, err := w.authServerOf(asName)
	if err != nil {
		return err
	}
	var info struct {
		ClientID string `json:"client_id"`
		Issuer   string `json:"issuer"`
	}
	var held []string
	_ = w.host.oauth.withProvider(provider, func(p *providerStore) error {
		_ = json.Unmarshal(p.clientInfo, &info)
		held = slices.Clone(p.held)
		return nil
	})
	if as.srv == nil {
		return w.expect(false, asName+" ran", "it never started")
	}
	return w.expect(info.ClientID != "" && !slices.Contains(held, info.ClientID) && info.Issuer == as.srv.Issuer(),
		fmt.Sprintf("provider %s holds a new client bound to %s", provider, as.srv.Issuer()), "client %q bound to %q", info.ClientID, info.Issuer)
}
