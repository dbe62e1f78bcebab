package rpcadapter

import "sync"

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
