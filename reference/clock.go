package reference

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// Clock is the source of every timeout of the reference: connecting,
// calling, logging in, and Blade's health checks. Its one method,
// WithTimeout(ctx, d), returns a context that is done d after now on the
// clock, with [context.DeadlineExceeded] as its cause. The real clock is
// the default; [ManualClock] lets a host's tests move time instead of
// waiting for it, so that the 30 s defaults can be checked in
// microseconds.
type Clock = core.Clock

// ManualClock is a [Clock] that stands still until [ManualClock.Advance]
// moves it. It is safe for concurrent use.
type ManualClock struct {
	mu     sync.Mutex
	now    time.Duration
	timers []*manualTimer
}

type manualTimer struct {
	due  time.Duration
	fire func()
}

// WithTimeout returns a context that ends, with cause
// [context.DeadlineExceeded], once the clock has advanced by d.
func (c *ManualClock) WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	tctx, cancel := context.WithCancelCause(ctx)
	c.mu.Lock()
	t := &manualTimer{due: c.now + d, fire: func() { cancel(context.DeadlineExceeded) }}
	c.timers = append(c.timers, t)
	c.mu.Unlock()
	return tctx, func() {
		c.mu.Lock()
		c.timers = slices.DeleteFunc(c.timers, func(x *manualTimer) bool { return x == t })
		c.mu.Unlock()
		cancel(context.Canceled)
	}
}

// Advance moves the clock forward by d and fires, in due order, every
// timer that is due. It returns how many fired.
func (c *ManualClock) Advance(d time.Duration) int {
	c.mu.Lock()
	c.now += d
	var due []*manualTimer
	c.timers = slices.DeleteFunc(c.timers, func(t *manualTimer) bool {
		if t.due <= c.now {
			due = append(due, t)
			return true
		}
		return false
	})
	c.mu.Unlock()
	slices.SortStableFunc(due, func(a, b *manualTimer) int { return int(a.due - b.due) })
	for _, t := range due {
		t.fire()
	}
	return len(due)
}

// Pending returns how many timers are waiting.
func (c *ManualClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}
