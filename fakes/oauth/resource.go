package oauth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
)

// ResourceOptions configure a [Resource].
type ResourceOptions struct {
	// AuthServer is the authorization server URL the metadata lists
	// (authorization_servers); "" means the server's Issuer(). A scenario
	// that co-hosts the server on the MCP origin (LA-OAU-22, [NewCoHosted])
	// needs nothing here: the Issuer() is then that origin.
	AuthServer string
	// Unauthorized401 makes the next N requests that carry a valid token
	// answer 401 anyway (error="invalid_token"), to make a host refresh.
	Unauthorized401 int
	// Forbidden403 makes the next N requests that carry a valid token (and
	// were not answered 401 by Unauthorized401) answer 403 with
	// WWW-Authenticate: Bearer error="insufficient_scope",
	// scope="<InsufficientScope>".
	Forbidden403 int
	// InsufficientScope is the scope the 403s ask for; "" means
	// "mcp:tools.write".
	InsufficientScope string
}

// Resource makes a mount of the HTTP MCP fake an OAuth protected resource
// of a [Server] (RFC 9728): set it as the mount's HTTPBehaviour.Guard. It
// serves the mount's protected resource metadata, and lets through only
// requests whose Authorization is "Bearer <token>" with a token the server
// says is an active access token whose audience is the mount's URL (RFC
// 8707; a trailing slash aside). The mount records the Authorization of
// every request (its headers). It is safe for concurrent use.
type Resource struct {
	s    *Server
	opts ResourceOptions

	mu             sync.Mutex
	unauth, forbid int // faults left
}

var _ mcpfake.ResourceGuard = (*Resource)(nil)

// Resource returns a guard that makes an HTTP MCP fake mount a protected
// resource of this server (see [Resource]).
func (s *Server) Resource(opts ResourceOptions) *Resource {
	if opts.InsufficientScope == "" {
		opts.InsufficientScope = "mcp:tools.write"
	}
	return &Resource{s: s, opts: opts, unauth: opts.Unauthorized401, forbid: opts.Forbidden403}
}

// prm is the RFC 9728 metadata document.
type prm struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
}

// Metadata serves the protected resource metadata of resourceURL: the
// resource itself, the authorization server, and bearer tokens in the
// header.
func (g *Resource) Metadata(w http.ResponseWriter, r *http.Request, resourceURL string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET")
		http.Error(w, "GET the metadata", http.StatusMethodNotAllowed)
		return
	}
	as := g.opts.AuthServer
	if as == "" {
		as = g.s.Issuer()
	}
	b, _ := json.Marshal(prm{Resource: resourceURL, AuthorizationServers: []string{as}, BearerMethodsSupported: []string{"header"}})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// Check lets a request through when it carries a valid bearer token for
// resourceURL, and the faults are spent. Otherwise it answers: 401 with
// WWW-Authenticate: Bearer resource_metadata="<metadata URL>" for no
// bearer token, adding error="invalid_token" for a token that is not
// valid for resourceURL (and for Unauthorized401), or 403
// insufficient_scope (Forbidden403).
func (g *Resource) Check(w http.ResponseWriter, r *http.Request, resourceURL string) bool {
	meta := MetadataURL(resourceURL)
	token, ok := bearer(r)
	if !ok {
		challenge(w, http.StatusUnauthorized, fmt.Sprintf("Bearer resource_metadata=%q", meta))
		return false
	}
	active, audience, _ := g.s.Introspect(r.Context(), token)
	if !active || !oauthex.MatchesResource(audience, resourceURL) {
		challenge(w, http.StatusUnauthorized, fmt.Sprintf("Bearer error=\"invalid_token\", error_description=\"The access token is not valid for this resource.\", resource_metadata=%q", meta))
		return false
	}
	switch g.take() {
	case http.StatusUnauthorized:
		challenge(w, http.StatusUnauthorized, fmt.Sprintf("Bearer error=\"invalid_token\", error_description=\"The access token expired (ResourceOptions.Unauthorized401).\", resource_metadata=%q", meta))
		return false
	case http.StatusForbidden:
		challenge(w, http.StatusForbidden, fmt.Sprintf("Bearer error=\"insufficient_scope\", scope=%q, resource_metadata=%q", g.opts.InsufficientScope, meta))
		return false
	}
	return true
}

// take spends one fault, if any is left, and returns its status (0 for
// none).
func (g *Resource) take() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.unauth > 0:
		g.unauth--
		return http.StatusUnauthorized
	case g.forbid > 0:
		g.forbid--
		return http.StatusForbidden
	}
	return 0
}

// challenge answers status with the WWW-Authenticate header value.
func challenge(w http.ResponseWriter, status int, value string) {
	w.Header().Set("WWW-Authenticate", value)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"error":%q}`, http.StatusText(status))
}

// bearer returns the token of an "Authorization: Bearer <token>" header.
func bearer(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return token, true
}

// MetadataURL is the URL of the protected resource metadata of
// resourceURL (RFC 9728 §3.1: the well-known path inserted between the
// origin and the resource's path), e.g.
// https://127.0.0.1:PORT/.well-known/oauth-protected-resource/mcp/name for
// https://127.0.0.1:PORT/mcp/name.
func MetadataURL(resourceURL string) string {
	u, err := url.Parse(resourceURL)
	if err != nil {
		return resourceURL
	}
	return u.Scheme + "://" + u.Host + mcpfake.ProtectedResourceMetadataPrefix + strings.TrimSuffix(u.Path, "/")
}

// Refuse makes the next n requests that carry a valid token answer status
// anyway: 401 (an access token the server no longer accepts, which a
// client refreshes) or 403 insufficient_scope. It adds to what
// [ResourceOptions] asked for; 401s are spent before 403s.
func (g *Resource) Refuse(status, n int) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch status {
	case http.StatusUnauthorized:
		g.unauth += n
	case http.StatusForbidden:
		g.forbid += n
	default:
		return fmt.Errorf("a protected resource refuses with 401 or 403, not %d", status)
	}
	return nil
}

// Accept ends the refusals still to come: valid tokens are accepted
// again.
func (g *Resource) Accept() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.unauth, g.forbid = 0, 0
}
