package core

import (
	"net/http"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// The official client's choices (@modelcontextprotocol/client 2.1.0,
// spec/oauth-official-client.md), case by case.

func TestAuthMethod(t *testing.T) {
	all := []string{authNone, authBasic, authPost}
	for _, tc := range []struct {
		name       string
		registered string
		secret     bool
		supported  []string
		cc         bool
		want       string
	}{
		{"registered and supported", authPost, true, all, false, authPost},
		{"registered, server lists nothing", authPost, true, nil, false, authPost},
		{"registered but unsupported", authBasic, true, []string{authPost}, false, authPost},
		{"unknown registered method", "private_key_jwt", true, all, false, authBasic},
		{"nothing listed, a secret", "", true, nil, false, authBasic},
		{"nothing listed, no secret", "", false, nil, false, authNone},
		{"basic first", "", true, all, false, authBasic},
		{"post when no basic", "", true, []string{authNone, authPost}, false, authPost},
		{"public client", "", false, all, false, authNone},
		{"nothing usable, a secret", "", true, []string{authNone}, false, authNone},
		{"nothing usable at all, a secret", "", true, []string{"private_key_jwt"}, false, authPost},
		{"nothing usable at all, no secret", "", false, []string{authBasic}, false, authNone},
		{"client credentials, basic", "", true, all, true, authBasic},
		{"client credentials, post only", "", true, []string{authPost}, true, authPost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &oauthSession{a: &Host{}}
			if tc.cc {
				o.cfg.ClientCredentials = &ClientCredentials{ClientID: "c", ClientSecret: "s"}
			}
			info := &ClientInformation{ClientID: "c", TokenEndpointAuthMethod: tc.registered}
			if tc.secret {
				info.ClientSecret = "s"
			}
			if got := o.authMethod(info, tc.supported); got != tc.want {
				t.Errorf("Expected: %s\nActual:   %s", tc.want, got)
			}
		})
	}
}

func TestApplicationType(t *testing.T) {
	for _, tc := range []struct {
		uris []string
		want string
	}{
		{[]string{"http://127.0.0.1:1/cb"}, "native"},
		{[]string{"http://localhost/cb"}, "native"},
		{[]string{"http://[::1]:8080/cb"}, "native"},
		{[]string{"com.example.app:/cb"}, "native"},
		{[]string{"https://app.example/cb"}, "web"},
		{[]string{"https://app.example/cb", "http://127.0.0.1/cb"}, "native"},
		{[]string{"http://127.0.0.2/cb"}, "web"},
		{nil, "web"},
		{[]string{"%%"}, "web"},
	} {
		if got := applicationType(tc.uris); got != tc.want {
			t.Errorf("%v: Expected: %s\nActual:   %s", tc.uris, tc.want, got)
		}
	}
}

func TestResolveClientMetadata(t *testing.T) {
	o := &oauthSession{a: &Host{}}
	got := o.resolveClientMetadata(ClientMetadata{RedirectURIs: []string{"https://app.example/cb"}})
	if !slices.Equal(got.GrantTypes, []string{"authorization_code", "refresh_token"}) || got.ApplicationType != "web" || got.TokenEndpointAuthMethod != "" || got.ResponseTypes != nil {
		t.Errorf("defaults: %+v", got)
	}
	kept := o.resolveClientMetadata(ClientMetadata{RedirectURIs: []string{"http://127.0.0.1/cb"}, GrantTypes: []string{"authorization_code"}, ApplicationType: "web"})
	if !slices.Equal(kept.GrantTypes, []string{"authorization_code"}) || kept.ApplicationType != "web" {
		t.Errorf("the host's values changed: %+v", kept)
	}
}

func TestSelectScope(t *testing.T) {
	withOffline := &oauthex.AuthServerMeta{ScopesSupported: []string{"mcp:read", offlineAccess}}
	refresh := ClientMetadata{GrantTypes: []string{"authorization_code", "refresh_token"}, Scope: "la:own"}
	for _, tc := range []struct {
		name      string
		requested string
		prm       []string
		meta      *oauthex.AuthServerMeta
		cm        ClientMetadata
		want      string
	}{
		{"the challenge's", "a b", []string{"c"}, nil, refresh, "a b"},
		{"the resource metadata's", "", []string{"c", "d"}, nil, refresh, "c d"},
		{"the client's", "", nil, nil, refresh, "la:own"},
		{"none", "", nil, nil, ClientMetadata{}, ""},
		{"offline_access added", "a", nil, withOffline, refresh, "a offline_access"},
		{"offline_access once", "a offline_access", nil, withOffline, refresh, "a offline_access"},
		{"no offline_access without refresh_token", "a", nil, withOffline, ClientMetadata{GrantTypes: []string{"authorization_code"}}, "a"},
		{"no offline_access for no scope", "", nil, withOffline, ClientMetadata{GrantTypes: []string{"refresh_token"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &oauthSession{a: &Host{}}
			d := &discovery{meta: tc.meta}
			if tc.prm != nil {
				d.prm = &oauthex.ProtectedResourceMetadata{ScopesSupported: tc.prm}
			}
			if got := o.selectScope(tc.requested, d, tc.cm); got != tc.want {
				t.Errorf("Expected: %q\nActual:   %q", tc.want, got)
			}
		})
	}
}

func TestResourceAllowed(t *testing.T) {
	const mcp = "https://h.example/mcp/docs"
	for _, tc := range []struct {
		configured string
		want       bool
	}{
		{mcp, true},
		{mcp + "/", false}, // longer than the MCP URL's path, as the official check counts
		{"https://h.example/mcp", true},
		{"https://h.example/mcp/", true},
		{"https://h.example/", true},
		{"https://h.example", true},
		{"https://H.EXAMPLE:443/mcp", true},
		{"https://h.example/mcp/do", false},
		{"https://h.example/mcp/docs/admin", false},
		{"https://h.example/other", false},
		{"http://h.example/mcp/docs", false},
		{"https://h.example:8443/mcp/docs", false},
		{"https://other.example/mcp/docs", false},
		{"/mcp/docs", false},
	} {
		if got := resourceAllowed(mcp, tc.configured); got != tc.want {
			t.Errorf("%s: Expected: %v\nActual:   %v", tc.configured, tc.want, got)
		}
	}
}

func TestServerMetadataURLs(t *testing.T) {
	for _, tc := range []struct {
		as   string
		want []string
	}{
		{"https://as.example", []string{"https://as.example/.well-known/oauth-authorization-server", "https://as.example/.well-known/openid-configuration"}},
		{"https://as.example/", []string{"https://as.example/.well-known/oauth-authorization-server", "https://as.example/.well-known/openid-configuration"}},
		{"https://as.example/tenant/", []string{
			"https://as.example/.well-known/oauth-authorization-server/tenant",
			"https://as.example/.well-known/openid-configuration/tenant",
			"https://as.example/tenant/.well-known/openid-configuration",
		}},
	} {
		o := &oauthSession{a: &Host{}}
		if got := o.serverMetadataURLs(tc.as); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\nExpected: %v\nActual:   %v", tc.as, tc.want, got)
		}
	}
}

func TestWellKnown(t *testing.T) {
	for _, tc := range []struct {
		raw       string
		keepQuery bool
		want      string
	}{
		{"https://h.example/mcp/docs?x=1#f", true, "https://h.example/.well-known/oauth-protected-resource/mcp/docs?x=1"},
		{"https://h.example/mcp/docs/?x=1", false, "https://h.example/.well-known/oauth-protected-resource/mcp/docs"},
		{"https://h.example", false, "https://h.example/.well-known/oauth-protected-resource"},
	} {
		if got := wellKnown(tc.raw, resourceWellKnown, tc.keepQuery); got != tc.want {
			t.Errorf("%s: Expected: %s\nActual:   %s", tc.raw, tc.want, got)
		}
	}
}

func TestParseChallenge(t *testing.T) {
	long := make([]byte, maxChallengeValue+1)
	for i := range long {
		long[i] = 'a'
	}
	for _, tc := range []struct {
		header []string
		want   challenge
	}{
		{[]string{`Bearer resource_metadata="https://h.example/.well-known/oauth-protected-resource", scope="a b"`}, challenge{"https://h.example/.well-known/oauth-protected-resource", "a b"}},
		{[]string{`Bearer error="invalid_token"`}, challenge{}},
		{[]string{`Bearer resource_metadata="/relative"`}, challenge{}},
		{[]string{`Bearer resource_metadata="file:///etc/passwd"`}, challenge{}},
		{[]string{`Basic realm="x"`, `Bearer scope="s"`}, challenge{scope: "s"}},
		{[]string{`Bearer scope="` + string(long) + `"`}, challenge{}},
		{nil, challenge{}},
		{[]string{`Bearer ,,,="`}, challenge{}},
	} {
		h := http.Header{"Www-Authenticate": tc.header}
		if got := parseChallenge(h); got != tc.want {
			t.Errorf("%q:\nExpected: %+v\nActual:   %+v", tc.header, tc.want, got)
		}
	}
}

func TestIssuersMatch(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"https://as.example", "https://as.example", true},
		{"https://as.example/", "https://as.example", true},
		{"https://as.example", "https://as.example/", true},
		{"https://as.example//", "https://as.example", false},
		{"https://as.example", "https://AS.example", false},
		{"https://as.example/t", "https://as.example", false},
	} {
		if got := issuersMatch(tc.a, tc.b); got != tc.want {
			t.Errorf("%s %s: Expected: %v\nActual:   %v", tc.a, tc.b, tc.want, got)
		}
	}
}
