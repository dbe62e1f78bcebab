package mcpfake

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpconform/mcpconform/fakes/internal/waits"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxHTTPBody bounds the request bodies the HTTP fake reads.
const maxHTTPBody = 16 << 20

// sendBuffer is the kernel send buffer of each connection the HTTP fake
// accepts. It is small so that the bytes a response reports as written
// are close to the bytes the client took: a client that stops reading
// leaves at most this much (plus its own receive buffer) in flight.
const sendBuffer = 64 << 10

// closeWait bounds how long [HTTPServer.Close] waits for the requests in
// flight once their connections are closed.
const closeWait = 10 * time.Second

// HTTPOptions configure an [HTTPServer].
type HTTPOptions struct {
	// TLS, when set, makes the server speak HTTPS only, with this
	// certificate (see package tlsca).
	TLS *tls.Certificate
	// IPv6 makes the server listen on [::1] too, on the same port as on
	// 127.0.0.1 when it can. When the host has no IPv6 loopback the server
	// still starts, on 127.0.0.1 only, and [HTTPServer.IPv6] says why.
	IPv6 bool
}

// ErrNoIPv6 is wrapped by [HTTPServer.IPv6] and [HTTPServer.URL] when the
// server does not listen on [::1].
var ErrNoIPv6 = errors.New("the HTTP fake does not listen on [::1]")

// HTTPServer serves scripted MCP servers over Streamable HTTP on loopback,
// each under /mcp/<name> ([HTTPServer.Mount]), and over the legacy
// HTTP+SSE transport under /sse/<name> ([HTTPServer.MountSSE]). Every HTTP
// request and every JSON-RPC message in a request body is recorded before
// it is handled, and every response after it ended
// ([record.KindHTTPResponse]). It speaks HTTP/1.1 only
// (over TLS when configured so), so that scripted bodies are framed the
// same way for every client.
type HTTPServer struct {
	log     *record.Log
	scheme  string
	v4      net.Listener
	v6      net.Listener // nil when not listening on [::1]
	v6err   error
	srv     *http.Server
	serving sync.WaitGroup
	closing chan struct{} // closed by Close

	mu       sync.Mutex
	closed   bool
	inflight sync.WaitGroup    // requests being served; Add only under mu
	mounts   map[string]*mount // Streamable HTTP mounts, under /mcp/
	sse      map[string]*mount // HTTP+SSE mounts, under /sse/ ([HTTPServer.MountSSE])
	hijacked map[net.Conn]bool
	extra    *http.ServeMux // handlers for paths outside the mounts ([HTTPServer.Handle]); nil for none
}

// mount is one scripted server of an [HTTPServer].
type mount struct {
	script *Script
	path   string // the mount's path: /mcp/<name>, or /sse/<name> for an HTTP+SSE mount
	sse    bool   // an HTTP+SSE mount ([HTTPServer.MountSSE])
	fake   *fakeServer
	stream http.Handler // go-sdk's Streamable HTTP handler
	json   http.Handler // the same server answering with plain JSON, for padded bodies
	legacy http.Handler // go-sdk's HTTP+SSE handler, for LegacyOnly and HTTP+SSE mounts
	// stateful is go-sdk's stateful Streamable HTTP handler, for Stateful.
	stateful http.Handler
	guard    ResourceGuard // HTTPBehaviour.Guard; nil for an open mount

	// gone: the server forgot every session (Call.ExitAfterAnswer); every
	// later request answers 404.
	gone atomic.Bool

	mu   sync.Mutex
	used []int // answers given per StatusReply
}

// goneBody is the body of the 404 of a mount that forgot every session.
const goneBody = "mcpfake: this server forgot every session (Call.ExitAfterAnswer)"

// NewHTTPServer starts an HTTP fake on 127.0.0.1 on a free port (and on
// [::1] with opts.IPv6). At most one HTTPOptions may be given; none means
// plain HTTP on 127.0.0.1.
func NewHTTPServer(rlog *record.Log, opts ...HTTPOptions) (*HTTPServer, error) {
	if len(opts) > 1 {
		return nil, errors.New("NewHTTPServer takes at most one HTTPOptions")
	}
	var o HTTPOptions
	if len(opts) == 1 {
		o = opts[0]
	}
	v4, v6, v6err, err := listenLoopback(o.IPv6)
	if err != nil {
		return nil, err
	}
	h := &HTTPServer{
		log: rlog, scheme: "http", v4: v4, v6: v6, v6err: v6err,
		mounts: map[string]*mount{}, sse: map[string]*mount{}, hijacked: map[net.Conn]bool{}, closing: make(chan struct{}),
	}
	h.srv = &http.Server{
		Handler: h,
		// TLS handshakes of clients that do not trust the CA, and clients
		// that go away mid-body, are part of the scenarios, not errors.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	listeners := []net.Listener{v4}
	if v6 != nil {
		listeners = append(listeners, v6)
	}
	for i, ln := range listeners {
		ln = smallSendBuffer{ln}
		if o.TLS != nil {
			ln = tls.NewListener(ln, &tls.Config{
				Certificates: []tls.Certificate{*o.TLS},
				NextProtos:   []string{"http/1.1"},
			})
			h.scheme = "https"
		}
		listeners[i] = ln
	}
	for _, ln := range listeners {
		h.serving.Add(1)
		go func() {
			defer h.serving.Done()
			_ = h.srv.Serve(ln)
		}()
	}
	return h, nil
}

// listenLoopback listens on 127.0.0.1 and, with ipv6, on [::1] on the same
// port when it can, on another port when it cannot. v6err says why there
// is no IPv6 listener.
func listenLoopback(ipv6 bool) (v4, v6 net.Listener, v6err error, err error) {
	if !ipv6 {
		v4, err = net.Listen("tcp4", "127.0.0.1:0")
		return v4, nil, fmt.Errorf("%w: IPv6 was not asked for", ErrNoIPv6), err
	}
	for range 20 {
		v4, err = net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			return nil, nil, nil, err
		}
		port := strconv.Itoa(v4.Addr().(*net.TCPAddr).Port)
		v6, err = net.Listen("tcp6", net.JoinHostPort("::1", port))
		if err == nil {
			return v4, v6, nil, nil
		}
		if !errors.Is(err, syscall.EADDRINUSE) {
			return v4, nil, fmt.Errorf("%w: the host has no IPv6 loopback: %v", ErrNoIPv6, err), nil
		}
		v4.Close()
	}
	v4, err = net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, nil, nil, err
	}
	v6, err = net.Listen("tcp6", "[::1]:0")
	if err != nil {
		return v4, nil, fmt.Errorf("%w: %v", ErrNoIPv6, err), nil
	}
	return v4, v6, nil, nil
}

// smallSendBuffer shrinks the send buffer of each accepted connection.
type smallSendBuffer struct{ net.Listener }

func (l smallSendBuffer) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(sendBuffer)
	}
	return c, err
}

// BaseURL is the server's root on 127.0.0.1, http://127.0.0.1:<port>
// (https with TLS).
func (h *HTTPServer) BaseURL() string { return h.scheme + "://" + h.v4.Addr().String() }

// IPv6 returns nil when the server listens on [::1], and otherwise an
// error wrapping [ErrNoIPv6] that says why (not asked for, or no IPv6
// loopback on the host: scenarios skip, reporting it).
func (h *HTTPServer) IPv6() error { return h.v6err }

// URL returns the endpoint of the mount name as reached through host:
// "127.0.0.1", "localhost" in any letter case, kept in the URL as given
// (the IPv4 port, which is also the IPv6 one when the server listens on
// [::1] on the same port), or "[::1]" (also "::1").
// The scheme is https with TLS.
func (h *HTTPServer) URL(name, host string) (string, error) {
	h.mu.Lock()
	_, ok := h.mounts[name]
	h.mu.Unlock()
	if !ok {
		return "", fmt.Errorf("the HTTP fake has no mount %q", name)
	}
	var ln net.Listener
	switch {
	case host == "127.0.0.1" || strings.EqualFold(host, "localhost"):
		ln = h.v4
	case host == "[::1]" || host == "::1":
		if h.v6 == nil {
			return "", h.v6err
		}
		host, ln = "[::1]", h.v6
	default:
		return "", fmt.Errorf("the HTTP fake has no URL for host %q (127.0.0.1, localhost or [::1])", host)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	return h.scheme + "://" + host + ":" + port + "/mcp/" + name, nil
}

// The path prefixes of the mounts, and the suffixes of their records'
// Instance (<name><suffix>).
const (
	streamablePrefix = "/mcp/"
	ssePrefix        = "/sse/"
	streamableSuffix = "@http"
	sseSuffix        = "@sse"
)

// route splits the path of a request for a mount: the mount's name,
// whether it is an HTTP+SSE mount, and whether the request asks for its
// protected resource metadata. ok is false for a path outside the mounts,
// whose name is then the path itself.
func route(p string) (name string, sse, metadata, ok bool) {
	if rest, md := strings.CutPrefix(p, ProtectedResourceMetadataPrefix); md {
		if name, ok := strings.CutPrefix(rest, streamablePrefix); ok {
			return name, false, true, true
		}
		if name, ok := strings.CutPrefix(rest, ssePrefix); ok {
			return name, true, true, true
		}
	}
	if name, ok := strings.CutPrefix(p, streamablePrefix); ok {
		return name, false, false, true
	}
	if name, ok := strings.CutPrefix(p, ssePrefix); ok {
		return name, true, false, true
	}
	return p, false, false, false
}

// Mount serves script under /mcp/<script.Name> and returns its URL on
// 127.0.0.1.
func (h *HTTPServer) Mount(s *Script) string {
	m := h.newMount(s, false)
	h.mu.Lock()
	h.mounts[s.Name] = m
	h.mu.Unlock()
	return h.BaseURL() + m.path
}

// newMount builds the mount of s: the script's go-sdk server ([newServer]),
// acting through the HTTP fake (crashes, latches, Close), and go-sdk's
// handlers serving it. sse makes it an HTTP+SSE mount.
func (h *HTTPServer) newMount(s *Script, sse bool) *mount {
	prefix, suffix := streamablePrefix, streamableSuffix
	if sse {
		prefix, suffix = ssePrefix, sseSuffix
	}
	latch := func(ctx context.Context, name string) error {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-h.closing:
				cancel()
			case <-ctx.Done():
			}
		}()
		return h.log.WaitLatch(ctx, record.Record{Server: s.Name, Instance: s.Name + suffix, Method: name})
	}
	abort := func() { panic(http.ErrAbortHandler) }
	f := newServer(s, serverEnv{exit: abort, crash: abort, done: h.closing, latch: latch})
	get := func(*http.Request) *mcp.Server { return f.srv }
	// PropagateRequestCancellation ends the handler of a 2026-07-28 request
	// whose client went away, so that its response is recorded then.
	m := &mount{
		script: s,
		path:   prefix + s.Name,
		sse:    sse,
		fake:   f,
		stream: mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true, DisableLocalhostProtection: true, PropagateRequestCancellation: true}),
		json:   mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true, DisableLocalhostProtection: true, PropagateRequestCancellation: true, JSONResponse: true}),
		// go-sdk's stateful mode answers server/discover offering only
		// the versions before 2026-07-28: a real old server.
		stateful: mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{DisableLocalhostProtection: true}),
		legacy:   mcp.NewSSEHandler(get, &mcp.SSEOptions{DisableLocalhostProtection: true}),
	}
	if s.HTTP != nil {
		m.used = make([]int, len(s.HTTP.Status))
		m.guard = s.HTTP.Guard
	}
	return m
}

// exchange is one request being served.
type exchange struct {
	h      *HTTPServer
	m      *mount // nil for no mount
	w      *countingWriter
	r      *http.Request
	body   []byte
	method string     // JSON-RPC method of the first message, if any
	id     jsonrpc.ID // its id, when it is a request
	rec    record.Record

	// call is the tools/call whose answer the exchange acts on (Call.Result,
	// LateProgress, ThenTools), until the answer went out.
	call *pendingCall

	hijacked  bool
	aborted   bool
	recorded  bool
	delivered bool // the whole answer was written and flushed
}

// toolName is the tool a tools/call request names, "" for anything else.
func (x *exchange) toolName() string {
	if x.method != "tools/call" {
		return ""
	}
	msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(x.body))
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil {
		name, _ := callParams(req.Params)
		return name
	}
	return ""
}

// ServeHTTP records the request and answers it as the mount's script says,
// then records the response.
func (h *HTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		panic(http.ErrAbortHandler)
	}
	h.inflight.Add(1)
	h.mu.Unlock()
	defer h.inflight.Done()

	if h.serveExtra(w, r) {
		return
	}
	name, sse, metadata, _ := route(r.URL.Path)
	if r.URL.Path == ProtectedResourceMetadataPrefix {
		if root := h.rootMetadataMount(); root != "" {
			name, metadata = root, true
		}
	}
	mounts, suffix := h.mounts, streamableSuffix
	if sse {
		mounts, suffix = h.sse, sseSuffix
	}
	base := record.Record{Server: name, Instance: name + suffix}
	rec := base
	rec.Kind = record.KindHTTP
	rec.HTTP = &record.HTTPRequest{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Host: r.Host, Header: r.Header.Clone()}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxHTTPBody))
	rec.Bytes = len(body)
	h.log.Append(rec)

	x := &exchange{h: h, r: r, body: body, rec: base}
	x.w = &countingWriter{w: w, x: x}
	defer x.finish()
	if err != nil {
		http.Error(x.w, "cannot read the body", http.StatusBadRequest)
		return
	}
	var params json.RawMessage
	if msg := h.recordMessages(base, body); msg != nil {
		if req, ok := msg.(*jsonrpc.Request); ok {
			x.method, x.id, params = req.Method, req.ID, req.Params
			if req.ID.IsValid() {
				x.w.watch = []byte(`"id":` + idKey(req.ID))
			}
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	h.mu.Lock()
	m, ok := mounts[name]
	h.mu.Unlock()
	if !ok {
		http.NotFound(x.w, r)
		return
	}
	x.m = m
	if metadata {
		m.serveMetadata(x)
		return
	}
	if !m.authorized(x) {
		return
	}
	if x.method == "tools/call" && x.id.IsValid() && r.Method == http.MethodPost {
		x.scriptedCall(params)
	}
	m.serve(x)
}

// scriptedCall notes a tools/call whose answer the exchange acts on, and
// records why scripted progress will not be sent.
func (x *exchange) scriptedCall(params json.RawMessage) {
	name, token := callParams(params)
	c, ok := x.m.script.call(name)
	if !ok || x.m.legacyOnly() {
		return
	}
	switch {
	case !c.sendsProgress():
	case token == nil:
		x.h.log.Append(notSent(x.rec, x.id, "notifications/progress", noProgressToken))
	case x.m.jsonResponse():
		x.h.log.Append(notSent(x.rec, x.id, "notifications/progress", jsonCarriesNoProgress))
	}
	if c.afterAnswer() && !x.m.sse {
		x.call = &pendingCall{call: c, token: token}
	}
}

// jsonCarriesNoProgress is why an application/json response carries no
// progress.
const jsonCarriesNoProgress = "the answer is an application/json body, which holds the answer alone"

// jsonResponse and legacyOnly report the Streamable mount's HTTPBehaviour
// (an HTTP+SSE mount has neither).
func (m *mount) jsonResponse() bool {
	return !m.sse && m.script.HTTP != nil && m.script.HTTP.JSONResponse
}
func (m *mount) legacyOnly() bool { return !m.sse && m.script.HTTP != nil && m.script.HTTP.LegacyOnly }

// finish records the response once it ended, unless it was recorded when
// its JSON-RPC answer went out. A handler that panicked (a scripted crash,
// or an abandoned body) is recorded as aborted and the panic goes on.
func (x *exchange) finish() {
	p := recover()
	if p != nil {
		x.aborted = true
	} else if !x.hijacked && !x.recorded {
		// Push out what is buffered, to learn whether the client took it.
		if err := http.NewResponseController(x.w.w).Flush(); err != nil {
			x.aborted = true
		}
	}
	x.record()
	if p != nil {
		panic(p)
	}
}

// record appends the response record, once.
func (x *exchange) record() {
	if x.recorded {
		return
	}
	x.recorded = true
	rec := x.rec
	rec.Kind = record.KindHTTPResponse
	rec.HTTP = &record.HTTPRequest{Method: x.r.Method, Path: x.r.URL.Path, Query: x.r.URL.RawQuery, Host: x.r.Host}
	rec.Method = x.method
	if x.id.IsValid() {
		rec.ID = json.RawMessage(idKey(x.id))
	}
	rec.Status = x.w.status
	if rec.Status == 0 {
		rec.Status = http.StatusOK
	}
	rec.Written = x.w.written
	// A client that went away once it had the whole answer did not cut it
	// short (it may close a connection as soon as it has the last byte).
	rec.Aborted = x.aborted || x.w.err != nil || (!x.hijacked && !x.delivered && x.r.Context().Err() != nil)
	x.h.log.Append(rec)
}

// answered is called when a flush succeeded. Once the JSON-RPC answer to
// the request is out, the response has ended for the client, which may
// act on it at once; go-sdk only returns later. Recording it then, rather
// than when the handler returns, keeps the record ahead of what the
// client does next (as nearly as a record after the fact can be).
func (x *exchange) answered() {
	if x.w.answer && !x.recorded && x.w.err == nil {
		x.record()
	}
}

// serve answers one request: through an HTTP+SSE mount, or with a
// scripted status, the legacy transport, a redirect, a scripted body, or
// the MCP server.
func (m *mount) serve(x *exchange) {
	if m.gone.Load() {
		http.Error(x.w, goneBody, http.StatusNotFound)
		return
	}
	if m.sse {
		m.serveSSE(x)
		return
	}
	b := m.script.HTTP
	if b == nil {
		x.w.tap = true
		m.stream.ServeHTTP(x.w, x.r)
		return
	}
	mcpHandler := m.stream
	switch {
	case b.Stateful:
		mcpHandler = m.stateful
	case b.JSONResponse:
		mcpHandler = m.json
	}
	if m.scriptedStatus(x) {
		return
	}
	post := x.r.Method == http.MethodPost
	if b.LegacyOnly {
		if post && x.r.URL.Query().Get("sessionid") == "" {
			x.w.Header().Set("Allow", "GET")
			http.Error(x.w, "Method Not Allowed: this is a legacy HTTP+SSE server; GET the endpoint", http.StatusMethodNotAllowed)
			return
		}
		m.serveLegacy(x)
		return
	}
	if post {
		for _, rd := range b.Redirects {
			if rd.Method == "" || rd.Method == x.method {
				if rd.Status < 300 || rd.Status > 399 {
					http.Error(x.w, fmt.Sprintf("mcpfake: the script redirects with status %d", rd.Status), http.StatusInternalServerError)
					return
				}
				x.w.Header().Set("Location", rd.Location)
				x.w.WriteHeader(rd.Status)
				return
			}
		}
		for _, bd := range b.Bodies {
			if x.id.IsValid() && (bd.Method == "" || bd.Method == x.method) && (bd.Tool == "" || bd.Tool == x.toolName()) {
				m.serveBody(x, bd)
				return
			}
		}
	}
	x.w.tap = true
	mcpHandler.ServeHTTP(x.w, x.r)
}

// scriptedStatus answers the request with the first StatusReply of the
// script that matches it and is not spent, and reports whether there was
// one.
func (m *mount) scriptedStatus(x *exchange) bool {
	b := m.script.HTTP
	if b == nil {
		return false
	}
	post := x.r.Method == http.MethodPost
	for i, sr := range b.Status {
		if sr.Method != "" && (!post || sr.Method != x.method) {
			continue
		}
		m.mu.Lock()
		spent := sr.Times > 0 && m.used[i] >= sr.Times
		if !spent {
			m.used[i]++
		}
		m.mu.Unlock()
		if spent {
			continue
		}
		if sr.Status < 100 || sr.Status > 999 {
			http.Error(x.w, fmt.Sprintf("mcpfake: the script answers with status %d", sr.Status), http.StatusInternalServerError)
			return true
		}
		for k, v := range sr.Header {
			x.w.Header().Set(k, v)
		}
		if sr.Body != "" && x.w.Header().Get("Content-Type") == "" {
			x.w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		}
		x.w.WriteHeader(sr.Status)
		_, _ = io.WriteString(x.w, sr.Body)
		return true
	}
	return false
}

// recordMessages records each JSON-RPC message of a request body and
// returns the first one, if it is one.
func (h *HTTPServer) recordMessages(base record.Record, body []byte) jsonrpc.Message {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil
	}
	base.Kind, base.Dir = record.KindMessage, "in"
	var batch []json.RawMessage
	if body[0] != '[' || json.Unmarshal(body, &batch) != nil {
		batch = []json.RawMessage{body}
	}
	var first jsonrpc.Message
	for i, raw := range batch {
		r := base
		r.Bytes = len(raw)
		msg := describeMessage(&r, raw)
		if i == 0 {
			first = msg
		}
		h.log.Append(r)
	}
	return first
}

// Close stops the server: it closes the listeners and every connection,
// and waits for the requests in flight to end (for a while).
func (h *HTTPServer) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	for c := range h.hijacked {
		c.Close()
	}
	h.mu.Unlock()
	// Connections first, so that the responses in flight are cut off
	// (and recorded so), then the scripted hangs go-sdk would not end.
	err := h.srv.Close()
	close(h.closing)
	h.serving.Wait()
	if !waits.Group(&h.inflight, closeWait) {
		err = errors.Join(err, fmt.Errorf("requests of the HTTP fake were still running %v after Close", closeWait))
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// countingWriter counts the body bytes of a response and remembers its
// status and the first write error. It watches for the JSON-RPC answer to
// the request (go-sdk writes each event, or a whole JSON body, in one
// Write) and tells the exchange when a flush has sent it.
type countingWriter struct {
	w       http.ResponseWriter
	x       *exchange
	status  int
	written int64
	err     error
	watch   []byte // `"id":<id>` of the request; nil for no request
	answer  bool   // the answer was written
	// tap says that go-sdk's Streamable HTTP handler writes: one SSE event
	// or one whole JSON body per Write. The writer then records each
	// message going out and acts on the answer of a scripted call.
	tap bool
}

func (c *countingWriter) Header() http.Header { return c.w.Header() }

func (c *countingWriter) WriteHeader(code int) {
	if c.status == 0 && code >= 200 {
		c.status = code
	}
	c.w.WriteHeader(code)
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	if c.tap {
		return c.writeMCP(p)
	}
	// Known before the write: a client that has the whole answer acts on
	// it at once.
	isAnswer := !c.answer && c.watch != nil && bytes.Contains(p, c.watch) && answers(p, c.x.id)
	present := c.x.r.Context().Err() == nil
	n, err := c.write(p)
	if isAnswer && err == nil {
		c.answer = true
		c.answerOut(present)
	}
	return n, err
}

// answerOut pushes out the answer just written, and so records it while
// the client is still reading it: a client that has the whole answer may
// close the connection at once (a JSON body read to its last byte, not to
// its end), and a flush after that fails, which would record an answer
// the client had as cut short. present says the client was still there
// when the answer was written: only then is a successful flush a delivery
// (a write to a peer that just went away may succeed too).
func (c *countingWriter) answerOut(present bool) {
	// The flush records the answer (answered) when it succeeds; when it
	// fails, the write error marks the response cut short.
	c.x.delivered = present
	_ = c.FlushError()
}

// answers reports whether p, a JSON body or SSE events, holds a response
// to id.
func answers(p []byte, id jsonrpc.ID) bool {
	is := func(raw []byte) bool {
		msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(raw))
		resp, ok := msg.(*jsonrpc.Response)
		return err == nil && ok && resp.ID == id
	}
	if is(p) {
		return true
	}
	for line := range bytes.Lines(p) {
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok && is(data) {
			return true
		}
	}
	return false
}

// FlushError flushes, remembering a failure (http.ResponseController and
// go-sdk flush through it).
func (c *countingWriter) FlushError() error {
	err := http.NewResponseController(c.w).Flush()
	if err != nil && !errors.Is(err, http.ErrNotSupported) && c.err == nil {
		c.err = err
	}
	if err == nil {
		c.x.answered()
	}
	return err
}

func (c *countingWriter) Flush() { _ = c.FlushError() }

func (c *countingWriter) Unwrap() http.ResponseWriter { return c.w }
