package mcpfake

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/mcpconform/mcpconform/fakes/record"
)

// ProtectedResourceMetadataPrefix is the well-known path of OAuth protected
// resource metadata (RFC 9728). The metadata of the mount /mcp/<name> is at
// this prefix followed by /mcp/<name> (RFC 9728 §3.1 path insertion), which
// is where a client looks for it first; that of the HTTP+SSE mount
// /sse/<name>, at this prefix followed by /sse/<name>.
const ProtectedResourceMetadataPrefix = "/.well-known/oauth-protected-resource"

// ResourceGuard makes a mount an OAuth protected resource
// (HTTPBehaviour.Guard). Package oauth provides one, backed by its
// authorization server; the HTTP fake only routes to it.
type ResourceGuard interface {
	// Metadata serves the mount's RFC 9728 protected resource metadata;
	// resourceURL is the mount's URL as requested
	// (<scheme>://<Host header>/mcp/<name>, or /sse/<name> for an
	// HTTP+SSE mount).
	Metadata(w http.ResponseWriter, r *http.Request, resourceURL string)
	// Check authorizes one request to the mount; when it returns false it
	// has answered (401 with WWW-Authenticate: Bearer
	// resource_metadata="<url>", or 403) and the request goes no further.
	Check(w http.ResponseWriter, r *http.Request, resourceURL string) bool
}

// RootMetadataGuard is implemented by a [ResourceGuard] that claims the
// root well-known URL of protected resource metadata
// (ProtectedResourceMetadataPrefix with no path after it, RFC 9728 §3.1):
// when RootMetadata reports true, a request for that URL is the mount's
// metadata request, recorded as the mount's and answered by its guard's
// Metadata with the mount's resource URL. At most one mount of a server
// should claim it; if several do, the first name in byte order gets it.
type RootMetadataGuard interface {
	RootMetadata() bool
}

// rootMetadataMount returns the name of the Streamable HTTP mount whose
// guard claims the root metadata URL, "" for none.
func (h *HTTPServer) rootMetadataMount() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	best := ""
	for name, m := range h.mounts {
		if g, ok := m.guard.(RootMetadataGuard); ok && g.RootMetadata() && (best == "" || name < best) {
			best = name
		}
	}
	return best
}

// SelfRecording is implemented by a handler given to [HTTPServer.Handle]
// that records every request it serves itself, under its own name (the
// handler of package oauth's authorization server does). The HTTP fake then
// leaves the recording to it, so that each request is recorded once.
type SelfRecording interface {
	// RecordsRequests reports whether the handler records every request.
	RecordsRequests() bool
}

// Handle serves handler for pattern (an [http.ServeMux] pattern) on the
// HTTP fake's origin, for paths outside the mounts: it is how a scenario
// co-hosts something on the MCP origin, such as an OAuth authorization
// server whose issuer is [HTTPServer.BaseURL] (patterns
// "/.well-known/oauth-authorization-server" and "/oauth/"). Paths under
// /mcp/ and /sse/ and the mounts' protected resource metadata paths stay
// the mounts'; a pattern for them panics. Each request to a handled path is
// recorded as a [record.KindHTTP] whose Server is the pattern (Instance
// "<pattern>@http"), unless the handler records it itself
// ([SelfRecording]); no response record follows. Handle may be called while
// the server runs; [HTTPServer.Close] waits for these requests too.
func (h *HTTPServer) Handle(pattern string, handler http.Handler) {
	path := pattern
	if i := strings.IndexByte(path, '/'); i >= 0 {
		path = path[i:] // drop a method or a host
	}
	if _, _, _, ok := route(path); ok {
		panic(fmt.Sprintf("mcpfake: Handle(%q): paths under /mcp/ and /sse/ belong to the mounts", pattern))
	}
	h.mu.Lock()
	if h.extra == nil {
		h.extra = http.NewServeMux()
	}
	mux := h.extra
	h.mu.Unlock()
	mux.Handle(pattern, handler)
}

// serveExtra serves a request for a handler of [HTTPServer.Handle] and
// reports whether there was one.
func (h *HTTPServer) serveExtra(w http.ResponseWriter, r *http.Request) bool {
	if _, _, _, ok := route(r.URL.Path); ok {
		return false
	}
	h.mu.Lock()
	mux := h.extra
	h.mu.Unlock()
	if mux == nil {
		return false
	}
	handler, pattern := mux.Handler(r)
	if pattern == "" {
		return false
	}
	if sr, ok := handler.(SelfRecording); !ok || !sr.RecordsRequests() {
		h.log.Append(record.Record{
			Server: pattern, Instance: pattern + "@http", Kind: record.KindHTTP,
			HTTP: &record.HTTPRequest{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Host: r.Host, Header: r.Header.Clone()},
		})
	}
	handler.ServeHTTP(w, r)
	return true
}

// resourceURL is the URL of the mount as the request r reached the
// server: its scheme, r's Host header and the mount's path.
func (h *HTTPServer) resourceURL(r *http.Request, m *mount) string {
	return h.scheme + "://" + r.Host + m.path
}

// serveMetadata answers a request for the mount's protected resource
// metadata: the guard's, or 404 for a mount without one.
func (m *mount) serveMetadata(x *exchange) {
	if m.guard == nil {
		http.NotFound(x.w, x.r)
		return
	}
	m.guard.Metadata(x.w, x.r, x.h.resourceURL(x.r, m))
}

// authorized passes a request to the mount through its guard, if any, and
// reports whether the mount may serve it (otherwise it was answered).
func (m *mount) authorized(x *exchange) bool {
	return m.guard == nil || m.guard.Check(x.w, x.r, x.h.resourceURL(x.r, m))
}
