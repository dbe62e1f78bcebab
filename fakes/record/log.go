package record

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Log is the ordered, append-only record of one scenario world. It is safe
// for concurrent use; waiters are woken on every append.
//
// The log also holds the world's latches (Call.Latch): named gates that
// fakes wait at, and that the runner opens with [Log.Release] (or
// [Server.Release]). A latch starts closed; once released it stays open.
type Log struct {
	mu      sync.Mutex
	records []Record
	changed chan struct{} // closed and replaced on every append

	latches map[string]chan struct{} // closed when released
	allOpen bool                     // every latch is open, now and later
}

// NewLog returns an empty log.
func NewLog() *Log { return &Log{changed: make(chan struct{}), latches: map[string]chan struct{}{}} }

// Append adds r, assigning its sequence number and time, and returns it.
func (l *Log) Append(r Record) Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.appendLocked(r)
}

// appendLocked appends r; l.mu is held.
func (l *Log) appendLocked(r Record) Record {
	r.Seq = int64(len(l.records) + 1)
	r.Time = time.Now()
	l.records = append(l.records, r)
	close(l.changed)
	l.changed = make(chan struct{})
	return r
}

// Release opens the latch name: every fake waiting at it goes on, and so
// will every fake that reaches it later. The first release of a latch is
// recorded ([KindRelease]); releasing it again does nothing.
func (l *Log) Release(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch := l.latchLocked(name)
	select {
	case <-ch:
		return // already open
	default:
	}
	close(ch)
	l.appendLocked(Record{Kind: KindRelease, Method: name})
}

// releaseAll opens every latch, now and later, recording nothing.
func (l *Log) releaseAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.allOpen = true
	for _, ch := range l.latches {
		select {
		case <-ch:
		default:
			close(ch)
		}
	}
}

// latch returns the channel that is closed when the latch name opens.
func (l *Log) latch(name string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.latchLocked(name)
}

func (l *Log) latchLocked(name string) chan struct{} {
	ch, ok := l.latches[name]
	if !ok {
		ch = make(chan struct{})
		if l.allOpen {
			close(ch)
		}
		l.latches[name] = ch
	}
	return ch
}

// WaitLatch is how a fake in the runner's process waits at a latch: it
// appends r as a [KindLatch] record (Method is the latch's name) and
// blocks until the latch is released, returning nil, or until ctx ends,
// returning its error after appending the same record with Aborted set.
func (l *Log) WaitLatch(ctx context.Context, r Record) error {
	r.Kind = KindLatch
	open := l.latch(r.Method)
	l.Append(r)
	select {
	case <-open:
		return nil
	case <-ctx.Done():
		r.Aborted = true
		l.Append(r)
		return fmt.Errorf("waiting at latch %q: %w", r.Method, context.Cause(ctx))
	}
}

// Records returns a copy of every record so far.
func (l *Log) Records() []Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.records)
}

// Len returns the number of records so far.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.records)
}

// Wait blocks until cond holds for the records so far, re-checking on every
// append, or until ctx is done. It returns the records cond accepted.
func (l *Log) Wait(ctx context.Context, cond func([]Record) bool) ([]Record, error) {
	for {
		l.mu.Lock()
		recs, changed := slices.Clone(l.records), l.changed
		l.mu.Unlock()
		if cond(recs) {
			return recs, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return recs, fmt.Errorf("waiting for the fakes' records: %w", context.Cause(ctx))
		}
	}
}
