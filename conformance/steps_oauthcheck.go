package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/fakes/oauth"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Then steps of the OAuth scenarios (LA-OAU, LA-CC): what the host's
// authorize() and providers were asked, what the authorization servers and
// protected servers received, and what never appeared.

// registerOAuthCheckSteps defines the steps whose methods are in this file.
func (w *world) registerOAuthCheckSteps(sc stepDefiner) {
	sc.Step(`^"([^"]*)" refused (\d+) calls? with 401$`, w.refusedCalls)
	sc.Step(`^the signal of authorize\(\) was aborted$`, w.signalWasAborted)
	sc.Step(`^the host's authorize\(\) was (?:called (\d+) times?|never called)$`, w.authorizeCalled)
	sc.Step(`^the host's authorize\(\) returned its callback$`, w.authorizeReturned)
	sc.Step(`^the authorization URL went to the authorization endpoint of "([^"]*)" with response_type "code", an S256 code_challenge, a state and the provider's redirect URI$`, w.authURLShape)
	sc.Step(`^the authorization URL's state was not "([^"]*)"$`, w.authURLStateNot)
	sc.Step(`^the two authorization URLs had different (states and code challenges|states of at least 22 base64url characters)$`, w.twoLogins)
	sc.Step(`^the provider "([^"]*)" was (never )?asked to "([^"]*)"(?: (\d+) times?)?$`, w.providerAsked)
	sc.Step(`^the provider "([^"]*)" still holds its tokens$`, w.providerHolds)
	sc.Step(`^"([^"]*)" received (no|\d+|at least \d+) "([^"]*)" requests?$`, w.asReceived)
	sc.Step(`^"([^"]*)" received (no|\d+) "([^"]*)" grants?( with a code_verifier)?$`, w.asReceivedGrants)
	sc.Step(`^"([^"]*)" received nothing$`, w.receivedNothing)
	sc.Step(`^no request reached the other origin of "([^"]*)"$`, w.otherOriginUntouched)
	sc.Step(`^no request "([^"]*)" received carried the header "([^"]*)"$`, w.noRequestHeader)
	sc.Step(`^no request "([^"]*)" received carried "([^"]*)"( but at its token endpoint)?$`, w.noRequestCarried)
	sc.Step(`^"([^"]*)" never received an Authorization header$`, w.neverAuthorization)
	sc.Step(`^every MCP request "([^"]*)" received after the login carried a Bearer token$`, w.everyBearer)
	sc.Step(`^every MCP request "([^"]*)" received carried the provider's access token$`, w.everyMinted)
	sc.Step(`^"([^"]*)" received a request for its protected resource metadata$`, w.metadataFetched)
	sc.Step(`^the authorization request and the code exchange named the resource "([^"]*)"$`, w.namedResource)
	sc.Step(`^nothing listened on the redirect URL's port during the login$`, w.nothingListened)
	sc.Step(`^no secret of the login appears in list\(\), an approval request or an event$`, w.noSecretShown)
	sc.Step(`^"([^"]*)" received the refused call of the tool "([^"]*)" exactly once more$`, w.refusedOnceMore)
	sc.Step(`^"([^"]*)" answered (\d+) calls of the tool "([^"]*)"$`, w.answeredCalls)
}

// refusedCalls: When "docs" refused 2 calls with 401 — waits for them.
func (w *world) refusedCalls(ctx context.Context, name string, n int) error {
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	_, err := w.log.Wait(sctx, func(rs []record.Record) bool {
		got := 0
		for _, r := range rs {
			if r.Server == name && r.Kind == record.KindHTTPResponse && r.Method == "tools/call" && r.Status == http.StatusUnauthorized {
				got++
			}
		}
		return got >= n
	})
	if err != nil {
		return fmt.Errorf("%q never refused %d calls with 401: %w", name, n, err)
	}
	return nil
}

// signalWasAborted: Then the signal of authorize() was aborted — the host
// sees the abort on its own goroutine, possibly after the operation that
// aborted it returned, so the step waits for it (within a step timeout).
func (w *world) signalWasAborted(ctx context.Context) error {
	err := w.waitHost(ctx, "authorize-cancelled", "the signal of authorize() was never aborted")
	return w.expect(err == nil, "the signal of authorize() was aborted", "it never was, within the step's time")
}

// authorizeCalled: Then the host's authorize() was called 2 times | was never called
func (w *world) authorizeCalled(n string) error {
	want := atoi(n)
	got := len(hostRecordsOf(w.log.Records(), "authorize"))
	return w.expect(got == want, fmt.Sprintf("authorize() was called %d time(s)", want), "%d time(s)", got)
}

// authorizeReturned: Then the host's authorize() returned its callback —
// the scenario's late callback really was handed over.
func (w *world) authorizeReturned() error {
	rs := hostRecordsOf(w.log.Records(), "authorize-returned")
	return w.expect(len(rs) > 0, "authorize() returned a callback URL", "it returned none")
}

// authURLShape: Then the authorization URL went to the authorization
// endpoint of "as" with response_type "code", an S256 code_challenge, a
// state and the provider's redirect URI
func (w *world) authURLShape(asName string) error {
	as, err := w.authServerOf(asName)
	if err != nil {
		return err
	}
	us := w.authURLs()
	if len(us) == 0 {
		return w.expect(false, "authorize() was called with an authorization URL", "it was never called")
	}
	u, q := us[0], us[0].Query()
	redirect, _ := w.redirectURL()
	endpoint := as.srv.Origin() + "/oauth/authorize"
	checks := []struct {
		ok   bool
		what string
	}{
		{u.Scheme+"://"+u.Host+u.Path == endpoint, "the URL is the authorization endpoint " + endpoint},
		{q.Get("response_type") == "code", `response_type is "code"`},
		{q.Get("code_challenge") != "" && q.Get("code_challenge_method") == "S256", "an S256 code_challenge"},
		{q.Get("state") != "", "a state"},
		{q.Get("redirect_uri") == redirect, "redirect_uri is the provider's " + redirect},
	}
	for _, c := range checks {
		if err := w.expect(c.ok, c.what, "the URL is %s", u.Redacted()); err != nil {
			return err
		}
	}
	return nil
}

// authURLStateNot: Then the authorization URL's state was not "x"
func (w *world) authURLStateNot(state string) error {
	for _, u := range w.authURLs() {
		if u.Query().Get("state") == state {
			return w.expect(false, fmt.Sprintf("the state is not the provider's %q", state), "it is")
		}
	}
	return w.expect(len(w.authURLs()) > 0, "authorize() was called", "it never was")
}

// twoLogins: Then the two authorization URLs had different states [of at
// least 22 base64url characters] [and code challenges]
func (w *world) twoLogins(what string) error {
	us := w.authURLs()
	if len(us) < 2 {
		return w.expect(false, "two logins", "%d authorization URL(s)", len(us))
	}
	a, b := us[0].Query(), us[1].Query()
	if err := w.expect(a.Get("state") != b.Get("state"), "the states differ", "both are %q", a.Get("state")); err != nil {
		return err
	}
	if strings.Contains(what, "code challenges") {
		if err := w.expect(a.Get("code_challenge") != b.Get("code_challenge"), "the code challenges differ", "both are %q", a.Get("code_challenge")); err != nil {
			return err
		}
	}
	if strings.Contains(what, "22 base64url") {
		for _, q := range []url.Values{a, b} {
			s := q.Get("state")
			if err := w.expect(len(s) >= 22 && base64url.MatchString(s), "a state of at least 22 base64url characters", "%q", s); err != nil {
				return err
			}
		}
	}
	return nil
}

// providerAsked: Then the provider "p" was asked to "saveTokens" 1 time | was never asked to "state"
func (w *world) providerAsked(provider, never, method, n string) error {
	got := len(w.providerCalls(provider, method))
	want := atoi(n)
	if never != "" {
		want = 0
	}
	return w.expect(got == want, fmt.Sprintf("provider %s was asked to %s %d time(s)", provider, method, want), "%d time(s)", got)
}

// providerHolds: Then the provider "p" still holds its tokens — the last
// ones the implementation saved.
func (w *world) providerHolds(provider string) error {
	saves := w.providerCalls(provider, "saveTokens")
	var held json.RawMessage
	_ = w.host.oauth.withProvider(provider, func(p *providerStore) error {
		held = p.tokens
		return nil
	})
	if len(saves) == 0 {
		return w.expect(false, "the implementation saved tokens in "+provider, "it saved none")
	}
	return w.expect(held != nil && jsonEqual(held, saves[len(saves)-1].Value), fmt.Sprintf("provider %s still holds the tokens saved last", provider), "it holds %s", safetext.Cap(string(held), 80))
}

// asReceived: Then "as" received 1 "metadata" request | received no "token" request | received at least 1 "metadata" request
func (w *world) asReceived(name, n, endpoint string) error {
	if _, err := w.authServerOf(name); err != nil {
		return err
	}
	got := w.asRequests(name, endpoint)
	if least, ok := strings.CutPrefix(n, "at least "); ok {
		return w.expect(len(got) >= atoi(least), fmt.Sprintf("%s received at least %s %s request(s)", name, least, endpoint), "%d: %s", len(got), summarize(got))
	}
	want := atoi(n) // "no" reads as 0
	return w.expect(len(got) == want, fmt.Sprintf("%s received %d %s request(s)", name, want, endpoint), "%d: %s", len(got), summarize(got))
}

// asReceivedGrants: Then "as" received 1 "refresh_token" grant [with a code_verifier] | received no "x" grant
//
// An implementation may refresh in the background (a refused cancellation
// notice, sent after its call ended), so a positive count is waited for,
// up to the step timeout, and then required exactly.
func (w *world) asReceivedGrants(ctx context.Context, name, n, grant, verifier string) error {
	want := atoi(n)
	if want > 0 {
		sctx, cancel := w.stepCtx(ctx)
		defer cancel()
		_, _ = w.log.Wait(sctx, func(rs []record.Record) bool { return len(grantsIn(rs, name, grant)) >= want })
	}
	got := w.grants(name, grant)
	if err := w.expect(len(got) == want, fmt.Sprintf("%s received %d %s grant(s)", name, want, grant), "%d", len(got)); err != nil {
		return err
	}
	if verifier != "" {
		for _, r := range got {
			if v, _ := formOf(r)["code_verifier"].(string); v == "" {
				return w.expect(false, "every "+grant+" grant carries a code_verifier", "one carries none")
			}
		}
	}
	return nil
}

// receivedNothing: Then "as" received nothing — an authorization server
// or an MCP server.
func (w *world) receivedNothing(name string) error {
	var got []record.Record
	if _, ok := w.authServers[name]; ok {
		got = w.asRequests(name, "")
	} else {
		return w.neverContacted(name)
	}
	return w.expect(len(got) == 0, name+" received no request", "%s", summarize(got))
}

// otherOriginUntouched: Then no request reached the other origin of "as"
func (w *world) otherOriginUntouched(name string) error {
	n, err := w.otherOriginHit(name)
	if err != nil {
		return err
	}
	return w.expect(n == 0, "no request reached the other origin of "+name, "%d did", n)
}

// noRequestHeader: Then no request "docs" received carried the header "DPoP"
func (w *world) noRequestHeader(name, header string) error {
	hits := slices.DeleteFunc(httpRequests(w.log.Records(), name), func(r record.Record) bool {
		return r.HTTP == nil || http.Header(r.HTTP.Header).Get(header) == ""
	})
	return w.expect(len(hits) == 0, fmt.Sprintf("no request %s received carried %s", name, header), "%s", summarize(hits))
}

// noRequestCarried: Then no request "as" received carried "secret" [but at its token endpoint]
func (w *world) noRequestCarried(name, text, butToken string) error {
	var hits []record.Record
	for _, r := range w.asRequests(name, "") {
		if butToken != "" && r.Method == oauth.EndpointToken {
			continue
		}
		if carried(r, text) {
			hits = append(hits, r)
		}
	}
	return w.expect(len(hits) == 0, fmt.Sprintf("no request %s received carried %q", name, text), "%s", summarize(hits))
}

// neverAuthorization: Then "docs" never received an Authorization header
func (w *world) neverAuthorization(name string) error {
	return w.noRequestHeader(name, "Authorization")
}

// everyBearer: Then every MCP request "docs" received after the login
// carried a Bearer token — after the first token the authorization server
// issued (a client may first ask without one, to find the server).
func (w *world) everyBearer(name string) error {
	reqs := w.mcpRequests(name)
	first := int64(0)
	for _, r := range w.log.Records() {
		if r.Kind == record.KindHTTP && r.Method == oauth.EndpointToken {
			first = r.Seq
			break
		}
	}
	checked := 0
	for _, r := range reqs {
		if r.Seq < first {
			continue
		}
		checked++
		if err := w.expect(bearerOf(r) != "", name+"'s MCP requests after the login carry a Bearer token", "#%d does not", r.Seq); err != nil {
			return err
		}
	}
	return w.expect(checked > 0, name+" received MCP requests after the login", "it received none")
}

// everyMinted: Then every MCP request "docs" received carried the provider's access token
func (w *world) everyMinted(name string) error {
	reqs := w.mcpRequests(name)
	if err := w.expect(len(reqs) > 0 && len(w.minted) > 0, name+" received MCP requests, with the host's token", "%d requests, %d tokens", len(reqs), len(w.minted)); err != nil {
		return err
	}
	for _, r := range reqs {
		if err := w.expect(slices.Contains(w.minted, bearerOf(r)), "every MCP request carried the host's saved access token", "#%d carried %q", r.Seq, safetext.Cap(bearerOf(r), 12)); err != nil {
			return err
		}
	}
	return nil
}

// metadataFetched: Then "docs" received a request for its protected resource metadata
func (w *world) metadataFetched(name string) error {
	for _, r := range w.log.Records() {
		if r.Server == name && r.Kind == record.KindHTTP && r.HTTP != nil && strings.HasPrefix(r.HTTP.Path, "/.well-known/oauth-protected-resource") {
			return w.expect(true, "", "")
		}
	}
	return w.expect(false, name+" received a request for its protected resource metadata", "it received none")
}

// namedResource: Then the authorization request and the code exchange named the resource "docs"
func (w *world) namedResource(name string) error {
	f, err := w.fake(name)
	if err != nil {
		return err
	}
	us := w.authURLs()
	if err := w.expect(len(us) > 0 && us[0].Query().Get("resource") == f.url, "the authorization URL names the resource "+f.url, "it names %q", resourceOf(us)); err != nil {
		return err
	}
	exchanges := 0
	for _, as := range w.authServers {
		for _, r := range w.grants(as.name, "authorization_code") {
			exchanges++
			if err := w.expect(formOf(r)["resource"] == f.url, "the code exchange names the resource "+f.url, "it names %v", formOf(r)["resource"]); err != nil {
				return err
			}
		}
	}
	return w.expect(exchanges > 0, "a code exchange naming the resource "+f.url, "there was none")
}

// nothingListened: Then nothing listened on the redirect URL's port during the login
func (w *world) nothingListened() error {
	o := &w.host.oauth
	o.mu.Lock()
	checked, busy := o.portChecked, o.portBusy
	o.mu.Unlock()
	if err := w.expect(checked > 0, "the redirect URL's port was checked during the login", "authorize() was never called"); err != nil {
		return err
	}
	return w.expect(!busy, "nothing listened on the redirect URL's port during the login", "something did")
}

// noSecretShown: Then no secret of the login appears in list(), an approval request or an event
// — the secret sweep of the invariants (secrets.go), now, for the secrets of
// the login.
func (w *world) noSecretShown(ctx context.Context) error {
	secrets := oauthSecrets(w.log.Records())
	secrets = slices.DeleteFunc(secrets, func(s secret) bool { return len(s.value) < minSecret })
	if err := w.expect(len(secrets) >= 4, "the login produced tokens, a code, a verifier and an authorization URL", "only %d secrets", len(secrets)); err != nil {
		return err
	}
	surfaces, err := w.surfacesNow(ctx)
	if err != nil {
		return err
	}
	if hits := sweep(surfaces, secrets); len(hits) > 0 {
		return w.expect(false, hits[0].expected, "%s", hits[0].actual)
	}
	return w.expect(len(surfaces) > 0, "list(), an approval or an event to look in", "the adapter lists nothing and the host saw no approval or event")
}

// refusedOnceMore: Then "docs" received the refused call of the tool "search" exactly once more
// — the JSON-RPC request refused with 401 was sent exactly twice.
func (w *world) refusedOnceMore(ctx context.Context, name, tool string) error {
	refusedIn := func(rs []record.Record) int {
		n := 0
		for _, r := range rs {
			if r.Server == name && r.Kind == record.KindHTTPResponse && r.Method == "tools/call" && r.Status == http.StatusUnauthorized {
				n++
			}
		}
		return n
	}
	// A response's record is appended once the fake finished writing it,
	// possibly after the client went on: wait for it.
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	rs, _ := w.log.Wait(sctx, func(rs []record.Record) bool { return refusedIn(rs) > 0 })
	calls := toolCalls(rs, name, tool)
	byID := map[string]int{}
	for _, c := range calls {
		byID[string(c.ID)]++
	}
	refused := refusedIn(rs)
	if err := w.expect(refused == 1, "one call was refused with 401", "%d were", refused); err != nil {
		return err
	}
	return w.expect(len(byID) == 1 && len(calls) == 2, fmt.Sprintf("the refused call of %s was sent exactly once more (one id, twice)", tool), "%d calls with %d ids", len(calls), len(byID))
}

// answeredCalls: Then "docs" answered 2 calls of the tool "search" — HTTP
// 200 responses to tools/call requests of that tool. A response's record
// follows its bytes, which the implementation may have read already: the
// count is waited for, up to the step timeout, then required exactly.
func (w *world) answeredCalls(ctx context.Context, name string, n int, tool string) error {
	count := func(rs []record.Record) int {
		ids := map[string]bool{}
		for _, c := range toolCalls(rs, name, tool) {
			ids[string(c.ID)] = true
		}
		got := 0
		for _, r := range rs {
			if r.Server == name && r.Kind == record.KindHTTPResponse && r.Method == "tools/call" && r.Status == http.StatusOK && ids[string(r.ID)] {
				got++
			}
		}
		return got
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	rs, _ := w.log.Wait(sctx, func(rs []record.Record) bool { return count(rs) >= n })
	got := count(rs)
	return w.expect(got == n, fmt.Sprintf("%s answered %d calls of %s", name, n, tool), "%d", got)
}
