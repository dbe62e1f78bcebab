package waits

import (
	"sync"
	"testing"
	"time"
)

func TestGroup(t *testing.T) {
	var wg sync.WaitGroup
	// A generous bound: an idle group is done at once, and a loaded
	// machine may take more than a millisecond to run the waiter.
	if !Group(&wg, time.Minute) {
		t.Error("an idle group was not done")
	}
	wg.Add(1)
	if Group(&wg, 10*time.Millisecond) {
		t.Error("a busy group was reported done")
	}
	release := make(chan struct{})
	go func() {
		<-release
		wg.Done()
	}()
	close(release)
	if !Group(&wg, time.Minute) {
		t.Error("the group was not done once released")
	}
}
