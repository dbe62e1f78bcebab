package mcpfake

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// stall is how long one write of an endless body may block before the
// fake decides that the client stopped reading, and drops it.
func (bd Body) stall() time.Duration {
	if bd.StallMs > 0 {
		return time.Duration(bd.StallMs) * time.Millisecond
	}
	return 5 * time.Second
}

// padChunk is what endless bodies write, again and again; made on first
// use, not by every fake process at its start.
var padChunk = sync.OnceValue(func() []byte { return bytes.Repeat([]byte("x"), 32<<10) })

// endlessPause is where an endless body hesitates: having written this
// many bytes (4 MiB, the cap of LA-LIM-10, and 64 KiB more), the fake
// waits up to [endlessWait] for the client to hang up before it writes
// on. A client that stops at the cap has then taken all it will take,
// so the bytes the fake reports as written do not depend on how much
// the kernel buffers (a receive buffer may grow to tens of MiB on
// loopback); a client that keeps reading gets the rest after the pause.
const endlessPause = 4<<20 + 64<<10

// endlessWait bounds the pause at [endlessPause].
const endlessWait = 5 * time.Second

// serveBody answers x with a scripted body.
func (m *mount) serveBody(x *exchange, bd Body) {
	switch bd.Mode {
	case BodyExact, BodySSEEvent:
		padded, ok := m.padded(x, bd.Bytes)
		if !ok {
			return
		}
		if bd.Mode == BodyExact {
			x.w.Header().Set("Content-Type", "application/json")
			x.w.Header().Set("Content-Length", strconv.Itoa(len(padded)))
			x.w.WriteHeader(http.StatusOK)
			_, _ = x.w.Write(padded)
			return
		}
		x.w.Header().Set("Content-Type", "text/event-stream")
		x.w.Header().Set("Cache-Control", "no-cache")
		x.w.WriteHeader(http.StatusOK)
		event := append(append([]byte("event: message\ndata: "), padded...), "\n\n"...)
		_, _ = x.w.Write(event)
	case BodyUnbounded:
		x.w.Header().Set("Content-Type", "application/json")
		x.w.WriteHeader(http.StatusOK)
		rc := http.NewResponseController(x.w)
		write := func(p []byte) error {
			_ = rc.SetWriteDeadline(time.Now().Add(bd.stall()))
			if _, err := x.w.Write(p); err != nil {
				return err
			}
			return rc.Flush()
		}
		gone := func(d time.Duration) bool {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-x.r.Context().Done():
				return true
			case <-x.h.closing:
				return true
			case <-t.C:
				return false
			}
		}
		if x.endless(write, gone) {
			// End without the final chunk: the body never ends well.
			x.aborted = true
			panic(http.ErrAbortHandler)
		}
	case BodyLyingLength:
		m.serveLyingLength(x, bd)
	default:
		http.Error(x.w, fmt.Sprintf("mcpfake: unknown body mode %q", bd.Mode), http.StatusInternalServerError)
	}
}

// padded returns the server's own JSON response to x padded to size
// bytes. When the server does not answer with a JSON body, its answer is
// passed on as it is; when it cannot be padded, the client gets a 500.
func (m *mount) padded(x *exchange, size int64) ([]byte, bool) {
	cw := &captureWriter{header: http.Header{}}
	r := x.r.Clone(x.r.Context())
	r.Body = http.NoBody
	if len(x.body) > 0 {
		r.Body = io.NopCloser(bytes.NewReader(x.body))
	}
	m.json.ServeHTTP(cw, r)
	if cw.status == 0 {
		cw.status = http.StatusOK
	}
	if cw.status != http.StatusOK || !bytes.HasPrefix(bytes.TrimSpace(cw.body.Bytes()), []byte("{")) {
		for k, v := range cw.header {
			x.w.Header()[k] = v
		}
		x.w.WriteHeader(cw.status)
		_, _ = x.w.Write(cw.body.Bytes())
		return nil, false
	}
	padded, err := padResponse(bytes.TrimSpace(cw.body.Bytes()), x.method, size)
	if err != nil {
		http.Error(x.w, "mcpfake: "+err.Error(), http.StatusInternalServerError)
		return nil, false
	}
	return padded, true
}

// endless writes the start of a JSON-RPC response to x and then padding
// until a write fails, the client goes away or the server closes, pausing
// once at [endlessPause] bytes for as long as gone, which reports whether
// the client went away within the time it is given, takes. It reports
// whether it stopped for one of these reasons, which is always.
func (x *exchange) endless(write func([]byte) error, gone func(time.Duration) bool) bool {
	id := "null"
	if x.id.IsValid() {
		id = string(marshal(x.id.Raw()))
	}
	prefix := `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"`
	if err := write([]byte(prefix)); err != nil {
		return true
	}
	sent, paused := int64(len(prefix)), false
	for {
		if !paused && sent >= endlessPause {
			paused = true
			if gone(endlessWait) {
				return true
			}
		}
		select {
		case <-x.r.Context().Done():
			return true
		case <-x.h.closing:
			return true
		default:
		}
		chunk := padChunk()
		if err := write(chunk); err != nil {
			return true
		}
		sent += int64(len(chunk))
	}
}

// serveLyingLength takes the connection over and writes a raw HTTP/1.1
// response that declares Content-Length: 10 and then writes bd.Bytes body
// bytes, or padding forever; it closes the connection after.
func (m *mount) serveLyingLength(x *exchange, bd Body) {
	var body []byte
	if bd.Bytes > 0 {
		var ok bool
		if body, ok = m.padded(x, bd.Bytes); !ok {
			return
		}
	}
	conn, _, err := http.NewResponseController(x.w).Hijack()
	if err != nil {
		http.Error(x.w, "mcpfake: cannot take the connection over: "+err.Error(), http.StatusInternalServerError)
		return
	}
	x.hijacked = true
	x.w.status = http.StatusOK
	if !x.h.track(conn) {
		conn.Close()
		x.aborted = true
		return
	}
	defer x.h.untrack(conn)
	defer conn.Close()
	head := "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n"
	_ = conn.SetWriteDeadline(time.Now().Add(bd.stall()))
	if _, err := conn.Write([]byte(head)); err != nil {
		x.aborted = true
		return
	}
	write := func(p []byte) error {
		_ = conn.SetWriteDeadline(time.Now().Add(bd.stall()))
		n, err := conn.Write(p)
		x.w.written += int64(n)
		return err
	}
	if body != nil {
		if err := write(body); err != nil {
			x.aborted = true
		}
		return
	}
	// The connection is the fake's own: the client hanging up shows as
	// the end of what it sends.
	gone := func(d time.Duration) bool {
		deadline := time.Now().Add(d)
		_ = conn.SetReadDeadline(deadline)
		buf := make([]byte, 4<<10)
		for {
			if _, err := conn.Read(buf); err != nil {
				var ne net.Error
				return !(errors.As(err, &ne) && ne.Timeout())
			}
		}
	}
	x.aborted = x.endless(write, gone)
}

// track registers a hijacked connection, for Close to close; it reports
// false when the server is closing.
func (h *HTTPServer) track(c net.Conn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.hijacked[c] = true
	return true
}

func (h *HTTPServer) untrack(c net.Conn) {
	h.mu.Lock()
	delete(h.hijacked, c)
	h.mu.Unlock()
}

// captureWriter keeps a response in memory.
type captureWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (c *captureWriter) Header() http.Header { return c.header }

func (c *captureWriter) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
	}
}

func (c *captureWriter) Write(p []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return c.body.Write(p)
}

func (c *captureWriter) Flush() {}
