package conformance

import (
	"context"
	"errors"
	"time"
)

// errPollStopped says that poll's stop channel closed before its check
// held.
var errPollStopped = errors.New("stopped before the check held")

// poll asks check again and again, with a pause growing from 1 ms to
// 100 ms, until check holds or fails, ctx ends (its error is returned) or
// stop, when not nil, is closed ([errPollStopped]). It serves the states
// an implementation reaches asynchronously and tells no event about:
// list() and mcpServerStatus() answers.
func poll(ctx context.Context, stop <-chan struct{}, check func() (bool, error)) error {
	for pause := time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		select {
		case <-stop:
			return errPollStopped
		default:
		}
		if ok, err := check(); ok || err != nil {
			return err
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-stop:
			t.Stop()
			return errPollStopped
		case <-t.C:
		}
	}
}
