package core

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressDrain bounds how long the end of a call waits for the progress
// notifications that came before its result to be handled.
const progressDrain = time.Second

// progressRoutes routes a connection's progress notifications to the calls
// that asked for them, as tool_progress events (LA-EVT-01, LA-EVT-02).
//
// go-sdk hands notifications to their handler on a goroutine of their
// own, while the result of a call is delivered as soon as it is read: a
// notification the server sent just before the result may be handled just
// after the call returned. So the bytes the connection reads are scanned,
// in wire order, for each routed token; when a call ends it waits (at most
// [progressDrain]) until every notification read before its result has
// been handled, and only then drops the route: what comes after the result
// is late and dropped.
type progressRoutes struct {
	mu      sync.Mutex
	routes  map[string]*progressRoute
	next    int
	tail    []byte        // the end of the last bytes scanned
	join    []byte        // scan's scratch: tail and the start of the next bytes
	handled chan struct{} // closed and replaced whenever a notification is handled
	// twice serves only [fault.ProgressTwice].
	twice bool
}

// progressRoute is one call's routing.
type progressRoute struct {
	emit                 func(Event)
	callID, full, server string // what the call's events name
	quoted               []byte // the token as a JSON string, as scan looks for it
	seen                 int    // notifications read from the wire so far
	handled              int    // notifications delivered so far
}

// progressTokenPrefix starts every progress token; a counter ends it.
const progressTokenPrefix = "lite-agent-progress-"

// route gives a call a progress token and routes the progress for it to
// emit, as events of the call id and full tool name.
func (r *progressRoutes) route(callID, full, server string, emit func(Event)) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.routes == nil {
		r.routes = map[string]*progressRoute{}
		r.handled = make(chan struct{})
	}
	r.next++
	// A token of letters, digits and dashes only: it reads the same in
	// any JSON encoding, so that scan finds it.
	quoted := make([]byte, 0, len(progressTokenPrefix)+22)
	quoted = append(append(append(quoted, '"'), progressTokenPrefix...), strconv.Itoa(r.next)...)
	quoted = append(quoted, '"')
	token := string(quoted[1 : len(quoted)-1])
	r.routes[token] = &progressRoute{emit: emit, callID: callID, full: full, server: server, quoted: quoted}
	return token
}

// unroute ends a call's routing once the notifications read before its
// end have been handled. The wait is armed only when some are pending:
// most calls have none.
func (r *progressRoutes) unroute(token string) {
	var deadline <-chan time.Time
	for {
		r.mu.Lock()
		rt := r.routes[token]
		if rt == nil || rt.handled >= rt.seen {
			delete(r.routes, token)
			r.mu.Unlock()
			return
		}
		wait := r.handled
		r.mu.Unlock()
		if deadline == nil {
			t := time.NewTimer(progressDrain)
			defer t.Stop()
			deadline = t.C
		}
		select {
		case <-wait:
		case <-deadline:
			r.mu.Lock()
			delete(r.routes, token)
			r.mu.Unlock()
			return
		}
	}
}

// scan counts the routed tokens in bytes just read from the server: those
// in p, and those cut between the end of the last read (tail) and the
// start of p. It copies no more than the few bytes of a cut token.
func (r *progressRoutes) scan(p []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.routes) == 0 {
		r.tail = r.tail[:0]
		return
	}
	longest := 0
	for _, rt := range r.routes {
		q := rt.quoted
		longest = max(longest, len(q))
		rt.seen += bytes.Count(p, q)
		if len(r.tail) > 0 {
			// A token that starts in the tail ends in p's first len(q)-1 bytes.
			r.join = append(append(r.join[:0], r.tail...), p[:min(len(p), len(q)-1)]...)
			rt.seen += bytes.Count(r.join, q) - bytes.Count(r.tail, q)
		}
	}
	// Keep what could be the start of a token cut by the next read.
	keep := longest - 1
	if len(p) < keep {
		r.join = append(append(r.join[:0], r.tail...), p...)
		p = r.join
	}
	r.tail = append(r.tail[:0], p[len(p)-min(len(p), keep):]...)
}

// handle is the client's progress handler.
func (r *progressRoutes) handle(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
	p := req.Params
	token, _ := p.ProgressToken.(string)
	r.mu.Lock()
	rt := r.routes[token]
	r.mu.Unlock()
	if rt == nil {
		return // late, or not ours
	}
	ev := Event{Type: "tool_progress", ID: rt.callID, Name: rt.full, Server: rt.server, Progress: p.Progress, Message: p.Message}
	if p.Total != 0 {
		total := p.Total
		ev.Total = &total
	}
	rt.emit(ev)
	if r.twice {
		rt.emit(ev)
	}
	// Counted once delivered, so that the call ends after its events.
	r.mu.Lock()
	rt.handled++
	close(r.handled)
	r.handled = make(chan struct{})
	r.mu.Unlock()
}

// scanReader is a stdio server's output, scanned for progress tokens.
type scanReader struct {
	io.ReadCloser
	routes *progressRoutes
}

func (s *scanReader) Read(p []byte) (int, error) {
	n, err := s.ReadCloser.Read(p)
	s.routes.scan(p[:n])
	return n, err
}
