package core

import (
	"context"
	"time"
)

// Clock is the source of every timeout of the reference: connecting,
// calling, and later logging in. The real clock is the default;
// [ManualClock] lets tests move time instead of waiting for it, so that
// the 30 s defaults can be checked in microseconds.
type Clock interface {
	// WithTimeout returns a context that is done d after now on this
	// clock, with [context.DeadlineExceeded] as its cause.
	WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc)
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, d, context.DeadlineExceeded)
}
