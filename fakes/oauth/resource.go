package oauth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
)

// Where a [Resource] serves its protected resource metadata
// (ResourceOptions.MetadataAt).
const (
	// MetadataPathInserted serves it at the well-known URL with the
	// mount's path inserted (RFC 9728 §3.1): the default.
	MetadataPathInserted = ""
	// MetadataRoot serves it only at the root well-known URL,
	// /.well-known/oauth-protected-resource with no path after it.
	MetadataRoot = "root"
	// MetadataNowhere serves it nowhere: both well-known URLs answer 404,
	// as a server that predates RFC 9728 does.
	MetadataNowhere = "none"
)

// ResourceOptions configure a [Resource]. The zero value is a resource
// whose 401s name its metadata, served at the path-inserted well-known
// URL, for a resource that is the mount's URL.
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
	// BareChallenge leaves resource_metadata out of every challenge, as
	// RFC 9728 §5 allows: a client must then find the metadata at the
	// well-known URLs.
	BareChallenge bool
	// ChallengeScope, when set, is the scope of every 401 challenge (RFC
	// 6750 §3): the scope the resource says a token needs.
	ChallengeScope string
	// ScopesSupported, when set, are the metadata's scopes_supported.
	ScopesSupported []string
	// MetadataAt is where the metadata is served: MetadataPathInserted
	// (""), MetadataRoot or MetadataNowhere. The challenge's
	// resource_metadata names where it is (the path-inserted URL for
	// MetadataNowhere).
	MetadataAt string
	// Resource, when set, is the metadata's "resource" instead of the
	// mount's URL: an absolute URL, or a reference such as "/" or
	// "/mcp/other" resolved against the mount's URL. Tokens are then
	// accepted only for that resource (their audience).
	Resource string
}

// Resource makes a mount of the HTTP MCP fake an OAuth protected resource
// of a [Server] (RFC 9728): set it as the mount's HTTPBehaviour.Guard. It
// serves the mount's protected resource metadata, and lets through only
// requests whose Authorization is "Bearer <token>" with a token the server
// says is an active access token whose audience is the resource (the
// mount's URL unless ResourceOptions.Resource says otherwise, RFC 8707; a
// trailing slash aside). The mount records the Authorization of every
// request (its headers). It is safe for concurrent use.
type Resource struct {
	opts ResourceOptions

	mu  sync.Mutex
	s   *Server  // the authorization server it trusts ([Resource.MoveTo])
	all refusals // the refusals left for any request
	// methods are the refusals left for requests of one JSON-RPC method
	// ([Resource.RefuseMethod]).
	methods map[string]*refusals
}

// refusals are the 401s and 403s left; 401s are spent first.
type refusals struct{ unauth, forbid int }

// add adds n refusals with status.
func (r *refusals) add(status, n int) error {
	switch status {
	case http.StatusUnauthorized:
		r.unauth += n
	case http.StatusForbidden:
		r.forbid += n
	default:
		return fmt.Errorf("a protected resource refuses with 401 or 403, not %d", status)
	}
	return nil
}

// take spends one refusal, if any is left, and returns its status (0 for
// none).
func (r *refusals) take() int {
	switch {
	case r.unauth > 0:
		r.unauth--
		return http.StatusUnauthorized
	case r.forbid > 0:
		r.forbid--
		return http.StatusForbidden
	}
	return 0
}

var (
	_ mcpfake.ResourceGuard     = (*Resource)(nil)
	_ mcpfake.RootMetadataGuard = (*Resource)(nil)
)

// Resource returns a guard that makes an HTTP MCP fake mount a protected
// resource of this server (see [Resource]). Options it cannot serve (an
// unknown MetadataAt, a Resource that does not parse) panic: they are the
// scenario's mistakes.
func (s *Server) Resource(opts ResourceOptions) *Resource {
	if opts.InsufficientScope == "" {
		opts.InsufficientScope = "mcp:tools.write"
	}
	switch opts.MetadataAt {
	case MetadataPathInserted, MetadataRoot, MetadataNowhere:
	default:
		panic(fmt.Sprintf("oauth: ResourceOptions.MetadataAt %q is not %q, %q or %q", opts.MetadataAt, MetadataPathInserted, MetadataRoot, MetadataNowhere))
	}
	if _, err := url.Parse(opts.Resource); err != nil {
		panic(fmt.Sprintf("oauth: ResourceOptions.Resource %q: %v", opts.Resource, err))
	}
	return &Resource{s: s, opts: opts, all: refusals{unauth: opts.Unauthorized401, forbid: opts.Forbidden403}, methods: map[string]*refusals{}}
}

// MoveTo makes the resource trust another authorization server from now
// on, as a server migrating to a new one does: its metadata lists to's
// issuer (unless ResourceOptions.AuthServer names one), and tokens are
// checked at to. Tokens of the old server are refused from then on.
func (g *Resource) MoveTo(to *Server) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.s = to
}

// server is the authorization server the resource trusts now.
func (g *Resource) server() *Server {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.s
}

// RootMetadata reports whether the resource claims the root well-known
// metadata URL (MetadataRoot and MetadataNowhere: the latter to answer it
// 404 as the mount's).
func (g *Resource) RootMetadata() bool {
	return g.opts.MetadataAt == MetadataRoot || g.opts.MetadataAt == MetadataNowhere
}

// prm is the RFC 9728 metadata document.
type prm struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
}

// resource is the resource the mount at resourceURL is: the mount's URL,
// or ResourceOptions.Resource resolved against it.
func (g *Resource) resource(resourceURL string) string {
	if g.opts.Resource == "" {
		return resourceURL
	}
	base, err := url.Parse(resourceURL)
	if err != nil {
		return resourceURL
	}
	ref, _ := url.Parse(g.opts.Resource)
	return base.ResolveReference(ref).String()
}

// Metadata serves the protected resource metadata of resourceURL, where
// ResourceOptions.MetadataAt says (404 elsewhere): the resource, the
// authorization server, scopes_supported when set, and bearer tokens in
// the header.
func (g *Resource) Metadata(w http.ResponseWriter, r *http.Request, resourceURL string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET")
		http.Error(w, "GET the metadata", http.StatusMethodNotAllowed)
		return
	}
	root := r.URL.Path == mcpfake.ProtectedResourceMetadataPrefix
	switch at := g.opts.MetadataAt; {
	case at == MetadataNowhere, at == MetadataRoot && !root, at == MetadataPathInserted && root:
		http.NotFound(w, r)
		return
	}
	as := g.opts.AuthServer
	if as == "" {
		as = g.server().Issuer()
	}
	b, _ := json.Marshal(prm{Resource: g.resource(resourceURL), AuthorizationServers: []string{as}, ScopesSupported: g.opts.ScopesSupported, BearerMethodsSupported: []string{"header"}})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// metadataURL is where the challenges of resourceURL say its metadata is.
func (g *Resource) metadataURL(resourceURL string) string {
	if g.opts.MetadataAt == MetadataRoot {
		u, err := url.Parse(resourceURL)
		if err == nil {
			return u.Scheme + "://" + u.Host + mcpfake.ProtectedResourceMetadataPrefix
		}
	}
	return MetadataURL(resourceURL)
}

// challengeFor builds a WWW-Authenticate value: Bearer with the given
// parameters (name, value pairs; empty values left out), the 401's scope
// and the metadata URL unless ResourceOptions.BareChallenge.
func (g *Resource) challengeFor(resourceURL string, status int, kv ...string) string {
	if status == http.StatusUnauthorized && g.opts.ChallengeScope != "" {
		kv = append(kv, "scope", g.opts.ChallengeScope)
	}
	if !g.opts.BareChallenge {
		kv = append(kv, "resource_metadata", g.metadataURL(resourceURL))
	}
	var parts []string
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			parts = append(parts, fmt.Sprintf("%s=%q", kv[i], kv[i+1]))
		}
	}
	if len(parts) == 0 {
		parts = []string{`realm="mcp"`}
	}
	return "Bearer " + strings.Join(parts, ", ")
}

// Check lets a request through when it carries a valid bearer token for
// the resource, and the faults are spent. Otherwise it answers 401 (no
// bearer token; error="invalid_token" for a token that is not valid for
// the resource, and for the 401 refusals) or 403 insufficient_scope (the
// 403 refusals), with a challenge as [ResourceOptions] say.
func (g *Resource) Check(w http.ResponseWriter, r *http.Request, resourceURL string) bool {
	token, ok := bearer(r)
	if !ok {
		challenge(w, http.StatusUnauthorized, g.challengeFor(resourceURL, http.StatusUnauthorized))
		return false
	}
	active, audience, _ := g.server().Introspect(r.Context(), token)
	if !active || !oauthex.MatchesResource(audience, g.resource(resourceURL)) {
		challenge(w, http.StatusUnauthorized, g.challengeFor(resourceURL, http.StatusUnauthorized, "error", "invalid_token", "error_description", "The access token is not valid for this resource."))
		return false
	}
	switch g.take(r) {
	case http.StatusUnauthorized:
		challenge(w, http.StatusUnauthorized, g.challengeFor(resourceURL, http.StatusUnauthorized, "error", "invalid_token", "error_description", "The access token expired (ResourceOptions.Unauthorized401)."))
		return false
	case http.StatusForbidden:
		challenge(w, http.StatusForbidden, g.challengeFor(resourceURL, http.StatusForbidden, "error", "insufficient_scope", "scope", g.opts.InsufficientScope))
		return false
	}
	return true
}

// take spends one fault, if any is left (the refusals of every request
// first, then those of the request's JSON-RPC method), and returns its
// status (0 for none).
func (g *Resource) take(r *http.Request) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if status := g.all.take(); status != 0 || len(g.methods) == 0 {
		return status
	}
	if left := g.methods[jsonrpcMethod(r)]; left != nil {
		return left.take()
	}
	return 0
}

// maxPeek bounds what [jsonrpcMethod] reads of a body.
const maxPeek = 4<<20 + 1

// jsonrpcMethod returns the JSON-RPC method of a request's body, leaving
// the body to be read again; "" when it has none.
func jsonrpcMethod(r *http.Request) string {
	if r.Body == nil {
		return ""
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxPeek))
	r.Body = io.NopCloser(bytes.NewReader(body))
	var msg struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(body, &msg)
	return msg.Method
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
	return g.all.add(status, n)
}

// RefuseMethod makes the next n requests of the JSON-RPC method method
// (such as "tools/list" or "server/discover") that carry a valid token
// answer status anyway, as [Resource.Refuse] does for any request. The
// refusals of every request are spent first.
func (g *Resource) RefuseMethod(status, n int, method string) error {
	if method == "" {
		return fmt.Errorf("RefuseMethod: no JSON-RPC method")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	left := g.methods[method]
	if left == nil {
		left = &refusals{}
		g.methods[method] = left
	}
	return left.add(status, n)
}

// Accept ends the refusals still to come: valid tokens are accepted
// again.
func (g *Resource) Accept() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.all = refusals{}
	clear(g.methods)
}
