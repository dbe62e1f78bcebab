package rpcadapter

import "sync"

// ring keeps the last bytes written to it: an adapter's stderr.
type ring struct {
	mu   sync.Mutex
	size int
	buf  []byte
}

func newRing(size int) *ring { return &ring{size: size} }

// Write keeps the tail of what is written; it never fails, so a chatty
// adapter can never block on its stderr.
func (r *ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, p...)
	if over := len(r.buf) - r.size; over > 0 {
		r.buf = append([]byte(nil), r.buf[over:]...)
	}
	return len(p), nil
}

func (r *ring) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(r.buf)
}

// lines keeps the last n lines added.
type lines struct {
	mu    sync.Mutex
	n     int
	items []string
}

func newLines(n int) *lines { return &lines{n: n} }

func (l *lines) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = append(l.items, s)
	if len(l.items) > l.n {
		l.items = l.items[len(l.items)-l.n:]
	}
}

func (l *lines) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.items...)
}
