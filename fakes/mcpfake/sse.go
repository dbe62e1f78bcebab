package mcpfake

import "net/http"

// MountSSE serves script over the legacy HTTP+SSE transport (MCP
// 2024-11-05) under /sse/<script.Name> and returns that URL on 127.0.0.1,
// so that a scenario can offer an implementation an "sse" server: a GET of
// the URL opens an event stream whose first event, "endpoint", names the
// message URL (/sse/<name>?sessionid=<id>); the client POSTs its messages
// there (202 Accepted, empty body) and the answers come as "message" events
// of the stream. The stream lasts until the client goes away or the fake
// closes; each GET is a session of its own.
//
// It is go-sdk's own HTTP+SSE handler serving the script's go-sdk server,
// built as for [HTTPServer.Mount], and recorded as a mount is, with
// Instance "<name>@sse" (a Streamable mount of the same name is another
// mount, "<name>@http"): every request ([record.KindHTTP], headers
// included), the JSON-RPC messages of each POST body (Dir "in"), every
// message event of the stream (Dir "out", recorded before it is written)
// and every response once it ended ([record.KindHTTPResponse]; the
// stream's is recorded when the stream ends).
//
// Of [HTTPBehaviour], an HTTP+SSE mount acts on Status (for the GET and
// the POSTs alike) and Guard (its protected resource metadata is at
// [ProtectedResourceMetadataPrefix]/sse/<name>); the rest is about
// Streamable HTTP responses. The answer of a call travels on the stream,
// not in the response to its POST, so the Call fields that act on the
// answer as it goes out (Result, LateProgress, ThenTools, ExitAfterAnswer)
// are not acted on: the call is answered with go-sdk's own result (Text,
// IsError, Structured), after Progress, Latch and DelayMs.
func (h *HTTPServer) MountSSE(s *Script) string {
	m := h.newMount(s, true)
	h.mu.Lock()
	h.sse[s.Name] = m
	h.mu.Unlock()
	return h.BaseURL() + m.path
}

// serveSSE answers one request to an HTTP+SSE mount: a scripted status,
// or go-sdk's HTTP+SSE handler, whose stream's messages are recorded as
// they go out.
func (m *mount) serveSSE(x *exchange) {
	if m.scriptedStatus(x) {
		return
	}
	x.w.tap = x.r.Method == http.MethodGet
	m.serveLegacy(x)
}

// serveLegacy serves a request with go-sdk's HTTP+SSE handler.
func (m *mount) serveLegacy(x *exchange) {
	if x.r.Method == http.MethodPost {
		// go-sdk accepts a message with a bare 202, and the fake flushes
		// the response before the handler returns, to learn whether the
		// client took it. Without a length that flush would make the body
		// chunked, ending only once the handler returned; a client that
		// closes the body as soon as it has the status (go-sdk's) would
		// then drop the connection, and the 202 be recorded aborted. A
		// refusal (http.Error) drops this header and sets its own.
		x.w.Header().Set("Content-Length", "0")
	}
	m.legacy.ServeHTTP(x.w, x.r)
}
