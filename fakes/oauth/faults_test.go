package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/mcpconform/mcpconform/fakes/record"
)

// steps runs the login steps in order, stopping at the first error, and
// returns the name of the step that failed ("" for none) and its error.
func (l *login) steps(until string) (string, error) {
	for _, step := range []struct {
		name string
		f    func() error
	}{{"discovery", l.discover}, {"registration", l.register}, {"authorization", l.authorize}, {"exchange", l.exchange}} {
		if err := step.f(); err != nil {
			return step.name, err
		}
		if step.name == until {
			break
		}
	}
	return "", nil
}

// mustFailAt runs the login and checks that it fails at step, and only
// there.
func (l *login) mustFailAt(t *testing.T, step string) error {
	t.Helper()
	failed, err := l.steps("")
	if failed != step {
		t.Fatalf("the login failed at %q (%v), want %q", failed, err, step)
	}
	return err
}

// mustReach runs the login up to and including step, which must pass.
func (l *login) mustReach(t *testing.T, step string) {
	t.Helper()
	if failed, err := l.steps(step); failed != "" {
		t.Fatalf("the login failed at %s: %v", failed, err)
	}
}

// follow GETs a redirect's Location and checks that it answers 404 and is
// recorded on the other origin as EndpointOther.
func (e *env) follow(t *testing.T, c context.Context, loc, endpoint string) {
	t.Helper()
	if loc != e.as.OtherOrigin()+"/redirected-"+endpoint {
		t.Fatalf("Location %q", loc)
	}
	resp, _, err := e.getJSON(c, loc)
	if err != nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("following the redirect: %v %v", resp, err)
	}
	e.waitRecords(t, "the followed redirect", func(rs []record.Record) bool {
		for _, r := range asRecords(rs, EndpointOther) {
			if r.HTTP.Path == "/redirected-"+endpoint && r.Instance == "as@"+e.as.OtherOrigin() {
				return true
			}
		}
		return false
	})
}

// TestFaults shows, per fault, that it breaks the one thing it is for
// (the rest of the login works up to there, or all of it) and that the
// requests involved are recorded.
func TestFaults(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		faults Faults
		check  func(t *testing.T, c context.Context, e *env, l *login)
	}{
		{"IssuerMismatch", Faults{IssuerMismatch: true}, func(t *testing.T, c context.Context, e *env, l *login) {
			if err := l.mustFailAt(t, "discovery"); !strings.Contains(err.Error(), "does not match") {
				t.Errorf("discovery: %v", err)
			}
			_, m, err := e.getJSON(c, e.as.Issuer()+MetadataPath)
			if err != nil || m["issuer"] != e.as.Issuer()+"/other" || m["token_endpoint"] != e.as.Issuer()+"/oauth/token" {
				t.Errorf("metadata %v %v", m, err)
			}
			if n := len(asRecords(e.log.Records(), EndpointMetadata)); n != 2 {
				t.Errorf("%d metadata records", n)
			}
		}},
		{"Iss/missing", Faults{Iss: "missing"}, func(t *testing.T, c context.Context, e *env, l *login) {
			if err := l.mustFailAt(t, "exchange"); !strings.Contains(err.Error(), "iss") {
				t.Errorf("exchange: %v", err)
			}
			q := l.callback.Query()
			if _, ok := q["iss"]; ok || q.Get("code") == "" || q.Get("state") != l.state {
				t.Errorf("callback %s", l.callback)
			}
			if len(asRecords(e.log.Records(), EndpointAuthorize)) != 1 {
				t.Error("the authorization request is not recorded")
			}
		}},
		{"Iss/wrong", Faults{Iss: "wrong"}, func(t *testing.T, c context.Context, e *env, l *login) {
			l.mustFailAt(t, "exchange")
			q := l.callback.Query()
			if !slices.Equal(q["iss"], []string{e.as.OtherOrigin()}) || q.Get("code") == "" {
				t.Errorf("callback %s", l.callback)
			}
		}},
		{"NoIssSupport", Faults{NoIssSupport: true}, func(t *testing.T, c context.Context, e *env, l *login) {
			l.mustReach(t, "exchange")
			if l.meta.AuthorizationResponseIssParameterSupported {
				t.Error("the metadata says iss is supported")
			}
			if _, m, _ := e.getJSON(c, e.as.Issuer()+MetadataPath); m == nil || m["authorization_response_iss_parameter_supported"] != nil || m["code_challenge_methods_supported"] == nil {
				t.Errorf("metadata %v", m)
			}
			if l.callback.Query().Get("iss") != e.as.Issuer() {
				t.Errorf("callback %s", l.callback)
			}
		}},
		{"OtherOrigin", Faults{OtherOrigin: []string{"authorization", "token", "registration"}}, func(t *testing.T, c context.Context, e *env, l *login) {
			l.mustReach(t, "exchange")
			o := e.as.OtherOrigin()
			if l.meta.AuthorizationEndpoint != o+"/oauth/authorize" || l.meta.TokenEndpoint != o+"/oauth/token" || l.meta.RegistrationEndpoint != o+"/oauth/register" || l.meta.RevocationEndpoint != e.as.Issuer()+"/oauth/revoke" {
				t.Errorf("metadata %+v", l.meta)
			}
			rs := e.log.Records()
			for _, ep := range []string{EndpointAuthorize, EndpointToken, EndpointRegister} {
				got := asRecords(rs, ep)
				if len(got) != 1 || got[0].Instance != "as@"+o {
					t.Errorf("%s records %+v", ep, got)
				}
			}
			if got := asRecords(rs, EndpointMetadata); len(got) != 1 || got[0].Instance != "as@"+e.as.Issuer() {
				t.Errorf("metadata records %+v", got)
			}
		}},
		{"PlainHTTP", Faults{PlainHTTP: []string{"token"}}, func(t *testing.T, c context.Context, e *env, l *login) {
			if err := l.mustFailAt(t, "discovery"); !strings.Contains(err.Error(), "token_endpoint") {
				t.Errorf("discovery: %v", err)
			}
			_, m, _ := e.getJSON(c, e.as.Issuer()+MetadataPath)
			if m["token_endpoint"] != "http://la-oauth.invalid/oauth/token" || m["authorization_endpoint"] != e.as.Issuer()+"/oauth/authorize" {
				t.Errorf("metadata %v", m)
			}
		}},
		{"Redirect/metadata", Faults{Redirect: []string{"metadata"}}, func(t *testing.T, c context.Context, e *env, l *login) {
			l.mustFailAt(t, "discovery")
			resp, _, err := e.getJSON(c, e.as.Issuer()+MetadataPath)
			if err != nil || resp.StatusCode != http.StatusFound {
				t.Fatalf("metadata: %v %v", resp, err)
			}
			e.follow(t, c, resp.Header.Get("Location"), EndpointMetadata)
		}},
		{"Redirect/registration", Faults{Redirect: []string{"registration"}}, func(t *testing.T, c context.Context, e *env, l *login) {
			if err := l.mustFailAt(t, "registration"); !strings.Contains(err.Error(), "302") {
				t.Errorf("registration: %v", err)
			}
			e.follow(t, c, e.as.OtherOrigin()+"/redirected-register", EndpointRegister)
		}},
		{"Redirect/authorization", Faults{Redirect: []string{"authorization"}}, func(t *testing.T, c context.Context, e *env, l *login) {
			// Authorize follows, as a browser does, to the 404.
			if err := l.mustFailAt(t, "authorization"); !strings.Contains(err.Error(), "404") {
				t.Errorf("authorization: %v", err)
			}
			e.follow(t, c, e.as.OtherOrigin()+"/redirected-authorize", EndpointAuthorize)
		}},
		{"Redirect/token", Faults{Redirect: []string{"token"}}, func(t *testing.T, c context.Context, e *env, l *login) {
			if err := l.mustFailAt(t, "exchange"); !strings.Contains(err.Error(), "302") {
				t.Errorf("exchange: %v", err)
			}
			if n := len(asRecords(e.log.Records(), EndpointOther)); n != 0 {
				t.Errorf("%d records of a followed redirect", n)
			}
		}},
		{"DuplicateParam/code", Faults{DuplicateParam: "code"}, func(t *testing.T, c context.Context, e *env, l *login) {
			checkDuplicate(t, c, e, l, "code")
		}},
		{"DuplicateParam/state", Faults{DuplicateParam: "state"}, func(t *testing.T, c context.Context, e *env, l *login) {
			checkDuplicate(t, c, e, l, "state")
		}},
		{"DuplicateParam/iss", Faults{DuplicateParam: "iss"}, func(t *testing.T, c context.Context, e *env, l *login) {
			checkDuplicate(t, c, e, l, "iss")
		}},
		{"Deny", Faults{Deny: true}, func(t *testing.T, c context.Context, e *env, l *login) {
			l.mustFailAt(t, "exchange")
			q := l.callback.Query()
			if q.Get("error") != "access_denied" || q.Get("state") != l.state || q.Get("iss") != e.as.Issuer() || q.Has("code") {
				t.Errorf("callback %s", l.callback)
			}
		}},
		{"TokenError", Faults{TokenError: "invalid_client", ErrorDescription: "canary-7f3a"}, func(t *testing.T, c context.Context, e *env, l *login) {
			err := l.mustFailAt(t, "exchange")
			var re *oauth2.RetrieveError
			if !errors.As(err, &re) || re.ErrorCode != "invalid_client" || re.ErrorDescription != "canary-7f3a" || re.Response.StatusCode != http.StatusBadRequest {
				t.Errorf("exchange: %v", err)
			}
			if got := asRecords(e.log.Records(), EndpointToken); len(got) != 1 || paramsOf(t, got[0])["grant_type"] != "authorization_code" {
				t.Errorf("token records %+v", got)
			}
		}},
		{"RegistrationError", Faults{RegistrationError: "invalid_client_metadata", ErrorDescription: "canary-r3g"}, func(t *testing.T, c context.Context, e *env, l *login) {
			err := l.mustFailAt(t, "registration")
			var re *oauthex.ClientRegistrationError
			if !errors.As(err, &re) || re.ErrorCode != "invalid_client_metadata" || re.ErrorDescription != "canary-r3g" {
				t.Errorf("registration: %v", err)
			}
			if got := asRecords(e.log.Records(), EndpointRegister); len(got) != 1 || paramsOf(t, got[0])["client_name"] != "oauth test host" {
				t.Errorf("register records %+v", got)
			}
		}},
		{"Delay", Faults{Delay: map[string]time.Duration{"token": 300 * time.Millisecond}}, func(t *testing.T, c context.Context, e *env, l *login) {
			l.mustReach(t, "authorization")
			start := time.Now()
			if err := l.exchange(); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d < 300*time.Millisecond {
				t.Errorf("the exchange took %v", d)
			}
		}},
		{"Latch", Faults{Latch: map[string]string{"token": "exchange"}}, func(t *testing.T, c context.Context, e *env, l *login) {
			l.mustReach(t, "authorization")
			done := make(chan error, 1)
			go func() { done <- l.exchange() }()
			e.waitRecords(t, "the exchange at its latch", func(rs []record.Record) bool {
				return slices.ContainsFunc(rs, func(r record.Record) bool {
					return r.Kind == record.KindLatch && r.Method == "exchange" && r.Server == "as" && !r.Aborted
				})
			})
			select {
			case err := <-done:
				t.Fatalf("the exchange ended before the latch opened: %v", err)
			default:
			}
			e.log.Release("exchange")
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-c.Done():
				t.Fatal("the exchange did not end once the latch opened")
			}
		}},
		{"RefreshFails", Faults{RefreshFails: true}, func(t *testing.T, c context.Context, e *env, l *login) {
			l.mustReach(t, "exchange")
			ts := l.cfg.TokenSource(l.ctx, &oauth2.Token{RefreshToken: l.token.RefreshToken, Expiry: time.Now().Add(-time.Minute)})
			var re *oauth2.RetrieveError
			if _, err := ts.Token(); !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
				t.Errorf("refresh: %v", err)
			}
			if status, _, err := e.post(c, l.token.AccessToken); err != nil || status != http.StatusOK {
				t.Errorf("the access token: %d %v", status, err)
			}
			got := asRecords(e.log.Records(), EndpointToken)
			if len(got) != 2 || paramsOf(t, got[1])["refresh_token"] != l.token.RefreshToken {
				t.Errorf("token records %+v", got)
			}
		}},
		{"TokenType", Faults{TokenType: "DPoP"}, func(t *testing.T, c context.Context, e *env, l *login) {
			l.mustReach(t, "exchange")
			if l.token.TokenType != "DPoP" {
				t.Errorf("token type %q", l.token.TokenType)
			}
			if status, _, err := e.post(c, l.token.AccessToken); err != nil || status != http.StatusOK {
				t.Errorf("the access token as a bearer: %d %v", status, err)
			}
		}},
		{"AccessTokenLifetime", Faults{AccessTokenLifetime: 90 * time.Second}, func(t *testing.T, c context.Context, e *env, l *login) {
			l.mustReach(t, "exchange")
			if l.token.ExpiresIn < 80 || l.token.ExpiresIn > 90 {
				t.Errorf("expires_in %d", l.token.ExpiresIn)
			}
			if err := e.as.RegisterClient("cc", "s3cret", nil, nil); err != nil {
				t.Fatal(err)
			}
			cc := &clientcredentials.Config{ClientID: "cc", ClientSecret: "s3cret", TokenURL: l.meta.TokenEndpoint, EndpointParams: url.Values{"resource": {e.mount}}}
			if tok, err := cc.Token(l.ctx); err != nil || time.Until(tok.Expiry) < 80*time.Second || time.Until(tok.Expiry) > 90*time.Second {
				t.Errorf("client_credentials: %+v %v", tok, err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envConfig{faults: tc.faults})
			c := ctx(t)
			tc.check(t, c, e, e.newLogin(c))
		})
	}
}

// checkDuplicate checks a callback carrying p twice: the first value is
// the right one (a host reading only it would go on), the second differs,
// and a careful host stops.
func checkDuplicate(t *testing.T, c context.Context, e *env, l *login, p string) {
	t.Helper()
	if err := l.mustFailAt(t, "exchange"); !strings.Contains(err.Error(), p) {
		t.Errorf("exchange: %v", err)
	}
	q := l.callback.Query()
	vs := q[p]
	if len(vs) != 2 || vs[0] == vs[1] {
		t.Fatalf("callback %s", l.callback)
	}
	switch p {
	case "state":
		if vs[0] != l.state {
			t.Errorf("first state %q", vs[0])
		}
	case "iss":
		if vs[0] != e.as.Issuer() || vs[1] != e.as.OtherOrigin() {
			t.Errorf("iss %q", vs)
		}
	case "code":
		if _, err := l.cfg.Exchange(l.ctx, vs[1], oauth2.VerifierOption(l.verifier)); err == nil {
			t.Error("the second code works")
		}
	}
	for _, other := range []string{"code", "state", "iss"} {
		if other != p && len(q[other]) != 1 {
			t.Errorf("%s is not there once: %s", other, l.callback)
		}
	}
}

// TestNewRefusesBadFaults checks that a fault naming no endpoint, or an
// unknown value, is an error rather than a correct server.
func TestNewRefusesBadFaults(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		faults Faults
	}{
		{"OtherOrigin metadata", Faults{OtherOrigin: []string{"metadata"}}},
		{"PlainHTTP unknown", Faults{PlainHTTP: []string{"tokens"}}},
		{"Redirect other", Faults{Redirect: []string{"other"}}},
		{"Delay unknown", Faults{Delay: map[string]time.Duration{"login": time.Second}}},
		{"Latch unknown", Faults{Latch: map[string]string{"login": "l"}}},
		{"Latch unnamed", Faults{Latch: map[string]string{"token": ""}}},
		{"Iss", Faults{Iss: "absent"}},
		{"DuplicateParam", Faults{DuplicateParam: "scope"}},
		{"AccessTokenLifetime", Faults{AccessTokenLifetime: -time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := New(Options{Faults: tc.faults})
			if err == nil {
				s.Close()
				t.Fatal("New accepted the faults")
			}
		})
	}
}

// TestDelayEndsWithTheClientAndWithClose checks that a delayed answer
// stops waiting when its client goes away, and when the server closes,
// and that Close does not wait for the delay.
func TestDelayEndsWithTheClientAndWithClose(t *testing.T) {
	t.Parallel()
	log := record.NewLog()
	s, err := New(Options{Log: log, Faults: Faults{Delay: map[string]time.Duration{"metadata": time.Hour, "other": time.Hour}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()

	// A client that gives up.
	c, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(c, http.MethodGet, s.Issuer()+MetadataPath, nil)
	start := time.Now()
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("a delayed request answered %s", resp.Status)
	}
	if d := time.Since(start); d > testDeadline/2 {
		t.Errorf("the cancelled request took %v", d)
	}

	// A request in flight when the server closes.
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, s.OtherOrigin()+"/elsewhere", nil)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	wc, wcancel := context.WithTimeout(context.Background(), testDeadline)
	defer wcancel()
	if _, err := log.Wait(wc, func(rs []record.Record) bool { return len(asRecords(rs, EndpointOther)) == 1 }); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > testDeadline/2 {
		t.Errorf("Close took %v", d)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("the delayed request was answered")
		}
	case <-wc.Done():
		t.Fatal("the delayed request did not end")
	}
}
