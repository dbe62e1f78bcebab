package oauth

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// mint registers a public client and mints tokens for resource.
func (e *env) mint(t *testing.T, resource string, expiresIn time.Duration) (access, refresh string) {
	t.Helper()
	id := "saved-" + strings.ReplaceAll(t.Name(), "/", "-")
	if err := e.as.RegisterClient(id, "", []string{redirectURI}, nil); err != nil {
		t.Fatal(err)
	}
	access, refresh, err := e.as.MintTokens(ctx(t), id, resource, expiresIn)
	if err != nil {
		t.Fatal(err)
	}
	return access, refresh
}

// TestResourceGuard checks the guard's answers, in order, to requests
// with no token, a bad token, a token for another resource, an expired
// token, and valid tokens while the 401 and 403 faults last.
func TestResourceGuard(t *testing.T) {
	t.Parallel()
	type answer struct {
		status int
		error  string // the challenge's error param
	}
	for _, tc := range []struct {
		name  string
		opts  ResourceOptions
		token func(t *testing.T, e *env) string
		want  []answer
	}{
		{"no token", ResourceOptions{Unauthorized401: 1}, func(*testing.T, *env) string { return "" },
			[]answer{{401, ""}, {401, ""}}},
		{"unknown token", ResourceOptions{Unauthorized401: 1}, func(*testing.T, *env) string { return "ory_at_nope.nope" },
			[]answer{{401, "invalid_token"}, {401, "invalid_token"}}},
		{"another resource", ResourceOptions{}, func(t *testing.T, e *env) string {
			a, _ := e.mint(t, e.mcp.BaseURL()+"/mcp/other", 0)
			return a
		}, []answer{{401, "invalid_token"}}},
		{"no resource", ResourceOptions{}, func(t *testing.T, e *env) string {
			a, _ := e.mint(t, "", 0)
			return a
		}, []answer{{401, "invalid_token"}}},
		{"expired", ResourceOptions{}, func(t *testing.T, e *env) string {
			a, _ := e.mint(t, e.mount, -time.Minute)
			return a
		}, []answer{{401, "invalid_token"}}},
		{"valid", ResourceOptions{}, func(t *testing.T, e *env) string {
			a, _ := e.mint(t, e.mount, 0)
			return a
		}, []answer{{200, ""}, {200, ""}}},
		{"trailing slash", ResourceOptions{}, func(t *testing.T, e *env) string {
			a, _ := e.mint(t, e.mount+"/", 0)
			return a
		}, []answer{{200, ""}}},
		{"401 then 403", ResourceOptions{Unauthorized401: 2, Forbidden403: 1, InsufficientScope: "tools:call"}, func(t *testing.T, e *env) string {
			a, _ := e.mint(t, e.mount, 0)
			return a
		}, []answer{{401, "invalid_token"}, {401, "invalid_token"}, {403, "insufficient_scope"}, {200, ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envConfig{resource: tc.opts})
			c := ctx(t)
			token := tc.token(t, e)
			for i, want := range tc.want {
				status, challenge, err := e.post(c, token)
				if err != nil {
					t.Fatal(err)
				}
				if status != want.status {
					t.Fatalf("request %d: %d, want %d", i, status, want.status)
				}
				if status == 200 {
					continue
				}
				chs, err := oauthex.ParseWWWAuthenticate([]string{challenge})
				if err != nil || len(chs) != 1 || chs[0].Scheme != "bearer" {
					t.Fatalf("challenge %q: %v", challenge, err)
				}
				p := chs[0].Params
				if p["resource_metadata"] != MetadataURL(e.mount) || p["error"] != want.error {
					t.Errorf("request %d: challenge %q", i, challenge)
				}
				if status == 403 && p["scope"] != "tools:call" {
					t.Errorf("403 challenge %q", challenge)
				}
			}
			// Each request is recorded by the mount, with its bearer.
			rs := e.log.Records()
			var n int
			for _, r := range rs {
				if r.Server == "tools" && r.Kind == record.KindHTTP {
					n++
					if got := http.Header(r.HTTP.Header).Get("Authorization"); (token == "") != (got == "") || !strings.HasSuffix(got, token) {
						t.Errorf("recorded Authorization %q", got)
					}
				}
			}
			if n != len(tc.want) {
				t.Errorf("%d mount records", n)
			}
		})
	}
}

// TestResourceFaultsUnderConcurrency checks that N 401s are N, whatever
// the concurrency.
func TestResourceFaultsUnderConcurrency(t *testing.T) {
	t.Parallel()
	const n, requests = 5, 20
	e := newEnv(t, envConfig{resource: ResourceOptions{Unauthorized401: n}})
	c := ctx(t)
	token, _ := e.mint(t, e.mount, 0)
	var wg sync.WaitGroup
	statuses := make(chan int, requests)
	for range requests {
		wg.Go(func() {
			status, _, err := e.post(c, token)
			if err != nil {
				t.Error(err)
			}
			statuses <- status
		})
	}
	wg.Wait()
	close(statuses)
	count := map[int]int{}
	for s := range statuses {
		count[s]++
	}
	if count[401] != n || count[200] != requests-n {
		t.Errorf("statuses %v", count)
	}
}

// TestProtectedResourceMetadata checks the RFC 9728 document of a guarded
// mount, as requested through either loopback name, its AuthServer
// override, and the 404 of a mount without a guard.
func TestProtectedResourceMetadata(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{resource: ResourceOptions{AuthServer: "https://127.0.0.1:1/elsewhere"}})
	c := ctx(t)
	open := e.mcp.Mount(&mcpfake.Script{Name: "open"})
	for _, tc := range []struct {
		name, url string
		status    int
		resource  string
	}{
		{"127.0.0.1", MetadataURL(e.mount), 200, e.mount},
		{"localhost", strings.Replace(MetadataURL(e.mount), "127.0.0.1", "localhost", 1), 200, strings.Replace(e.mount, "127.0.0.1", "localhost", 1)},
		{"unguarded", MetadataURL(open), 404, ""},
		{"no mount", e.mcp.BaseURL() + "/.well-known/oauth-protected-resource/mcp/none", 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, m, err := e.getJSON(c, tc.url)
			if err != nil || resp.StatusCode != tc.status {
				t.Fatalf("%v %v", resp, err)
			}
			if tc.status != 200 {
				return
			}
			if m["resource"] != tc.resource || !slices.Equal(toStrings(m["authorization_servers"]), []string{"https://127.0.0.1:1/elsewhere"}) {
				t.Errorf("metadata %v", m)
			}
		})
	}
	// Recorded like any request to the mount.
	var n int
	for _, r := range e.log.Records() {
		if r.Server == "tools" && r.Kind == record.KindHTTP && strings.HasPrefix(r.HTTP.Path, mcpfake.ProtectedResourceMetadataPrefix) {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d metadata records of the mount", n)
	}
}

// toStrings converts a decoded JSON array of strings.
func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestMintTokens checks pre-saved tokens: the access token works at once,
// and the refresh token at the token endpoint, rotating.
func TestMintTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{tls: true})
	c := ctx(t)
	if _, _, err := e.as.MintTokens(c, "nobody", e.mount, 0); err == nil {
		t.Error("tokens minted for an unknown client")
	}
	access, refresh := e.mint(t, e.mount, -time.Minute)
	if status, _, err := e.post(c, access); err != nil || status != http.StatusUnauthorized {
		t.Fatalf("an expired minted token: %d %v", status, err)
	}
	cfg := &oauth2.Config{ClientID: "saved-" + t.Name(), Endpoint: oauth2.Endpoint{TokenURL: e.as.Issuer() + "/oauth/token", AuthStyle: oauth2.AuthStyleInParams}}
	tok, err := cfg.TokenSource(e.newLogin(c).ctx, &oauth2.Token{RefreshToken: refresh, Expiry: time.Now().Add(-time.Minute)}).Token()
	if err != nil {
		t.Fatalf("refreshing a minted token: %v", err)
	}
	if tok.RefreshToken == refresh {
		t.Error("the refresh token did not rotate")
	}
	if tools, err := e.listTools(c, tok.AccessToken); err != nil || len(tools) != 1 {
		t.Fatalf("tools: %v %v", tools, err)
	}
	if active, aud, _ := e.as.Introspect(c, tok.AccessToken); !active || !slices.Equal(aud, []string{e.mount}) {
		t.Errorf("introspection %v %v", active, aud)
	}
}
