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
type Log struct {
	mu      sync.Mutex
	records []Record
	changed chan struct{} // closed and replaced on every append
}

// NewLog returns an empty log.
func NewLog() *Log { return &Log{changed: make(chan struct{})} }

// Append adds r, assigning its sequence number and time, and returns it.
func (l *Log) Append(r Record) Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	r.Seq = int64(len(l.records) + 1)
	r.Time = time.Now()
	l.records = append(l.records, r)
	close(l.changed)
	l.changed = make(chan struct{})
	return r
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
