// Package waits holds the bounded waits the fakes share, so that every
// wait of a fake's Close has a deadline.
package waits

import (
	"sync"
	"time"
)

// Group waits for wg's counter to reach zero, at most d; it reports
// whether it did. When it did not, the goroutine that waits on wg stays
// until the counter does reach zero.
func Group(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		// The counter may have reached zero as the timer fired: a
		// group that is done is reported done, however late it is seen.
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
}
