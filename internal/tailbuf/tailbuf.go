// Package tailbuf keeps the tail of what a process writes: an adapter's
// stderr, shown in the evidence of its failures.
package tailbuf

import "sync"

// Buffer keeps the last bytes written to it. It is safe for concurrent
// use, and its Write never fails, so a chatty process can never block on
// its stderr.
type Buffer struct {
	mu   sync.Mutex
	size int
	buf  []byte
}

// New returns a Buffer that keeps the last size bytes.
func New(size int) *Buffer { return &Buffer{size: size} }

// Write keeps the tail of what is written.
func (r *Buffer) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, p...)
	if over := len(r.buf) - r.size; over > 0 {
		r.buf = append([]byte(nil), r.buf[over:]...)
	}
	return len(p), nil
}

// String returns the bytes kept, raw: escape them to show them.
func (r *Buffer) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(r.buf)
}
