package mcpfake

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxHTTPBody bounds the request bodies the HTTP fake reads.
const maxHTTPBody = 16 << 20

// HTTPServer serves scripted MCP servers over Streamable HTTP on loopback,
// each under /mcp/<name>. Every HTTP request and every JSON-RPC message in
// a request body is recorded before it is handled.
type HTTPServer struct {
	log  *record.Log
	ln   net.Listener
	srv  *http.Server
	done chan struct{}

	mu     sync.Mutex
	mounts map[string]http.Handler
}

// NewHTTPServer starts an HTTP fake on 127.0.0.1 on a free port.
func NewHTTPServer(log *record.Log) (*HTTPServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	h := &HTTPServer{log: log, ln: ln, mounts: map[string]http.Handler{}, done: make(chan struct{})}
	h.srv = &http.Server{Handler: h}
	go func() {
		defer close(h.done)
		_ = h.srv.Serve(ln)
	}()
	return h, nil
}

// BaseURL is the server's root, http://127.0.0.1:<port>.
func (h *HTTPServer) BaseURL() string { return "http://" + h.ln.Addr().String() }

// Mount serves script under /mcp/<script.Name> and returns its URL.
func (h *HTTPServer) Mount(s *Script) string {
	srv := newServer(s, func() { panic(http.ErrAbortHandler) })
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:                  true,
		DisableLocalhostProtection: true,
	})
	h.mu.Lock()
	h.mounts[s.Name] = handler
	h.mu.Unlock()
	return h.BaseURL() + "/mcp/" + s.Name
}

// ServeHTTP records the request and hands it to the mounted server.
func (h *HTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, _ := strings.CutPrefix(r.URL.Path, "/mcp/")
	base := record.Record{Server: name, Instance: name + "@http"}
	rec := base
	rec.Kind = record.KindHTTP
	rec.HTTP = &record.HTTPRequest{Method: r.Method, Path: r.URL.Path, Host: r.Host, Header: r.Header.Clone()}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxHTTPBody))
	rec.Bytes = len(body)
	h.log.Append(rec)
	if err != nil {
		http.Error(w, "cannot read the body", http.StatusBadRequest)
		return
	}
	h.recordMessages(base, body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	h.mu.Lock()
	handler, ok := h.mounts[name]
	h.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	handler.ServeHTTP(w, r)
}

// recordMessages records each JSON-RPC message of a request body.
func (h *HTTPServer) recordMessages(base record.Record, body []byte) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return
	}
	base.Kind, base.Dir = record.KindMessage, "in"
	var batch []json.RawMessage
	if body[0] != '[' || json.Unmarshal(body, &batch) != nil {
		batch = []json.RawMessage{body}
	}
	for _, raw := range batch {
		r := base
		r.Bytes = len(raw)
		describeMessage(&r, raw)
		h.log.Append(r)
	}
}

// Close stops the server and waits for it.
func (h *HTTPServer) Close() error {
	err := h.srv.Close()
	<-h.done
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
