// Package bounded holds the harness's bounded waits: every wait on
// something outside the harness (an adapter process, a proxy's child) has
// a deadline.
package bounded

import "time"

// Closed reports whether ch closed within d.
func Closed(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
