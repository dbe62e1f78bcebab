package rpcadapter

import (
	"errors"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// An adapter process's stderr is the console of the implementation behind
// it: each scenario's tail is its own ([adapterProc.Write]). What the
// adapter wrote before it answered scenario/end is the ending scenario's
// (a secret it printed as it closed its agents is searched for there,
// LA-SEC-19): the pipe may still hold it when the answer arrives on
// stdout, so the end of a scenario drains it first ([adapterProc.drainStderr]).

// copyStderr copies the adapter's stderr into the tail of the scenario it
// serves, until the pipe ends, and answers the drains asked for.
func (a *adapterProc) copyStderr(r *os.File) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			_, _ = a.Write(buf[:n])
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			_ = r.SetReadDeadline(time.Time{})
		} else if err != nil {
			a.answerDrains()
			return
		}
		if a.draining() && pipeUnread(r) == 0 {
			a.answerDrains()
		}
	}
}

// drainStderrGrace bounds the wait for an adapter that keeps writing.
const drainStderrGrace = 2 * time.Second

// drainStderr returns once everything in the stderr pipe when it was
// called has reached the current scenario's tail (or after
// drainStderrGrace, or when stderr ended).
func (a *adapterProc) drainStderr() {
	done := make(chan struct{})
	a.mu.Lock()
	a.drains = append(a.drains, done)
	a.mu.Unlock()
	// Wake the copier if it waits in a read: it then looks at the pipe.
	_ = a.stderrPipe.SetReadDeadline(time.Now())
	select {
	case <-done:
	case <-a.stderrDone:
	case <-time.After(drainStderrGrace):
	}
}

// draining reports whether a drain is asked for.
func (a *adapterProc) draining() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.drains) > 0
}

// answerDrains tells every drain asked for that it is done.
func (a *adapterProc) answerDrains() {
	a.mu.Lock()
	ds := a.drains
	a.drains = nil
	a.mu.Unlock()
	for _, d := range ds {
		close(d)
	}
}

// pipeUnread returns the bytes a pipe holds unread (FIONREAD); -1 when it
// cannot tell.
func pipeUnread(f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return -1
	}
	n := int32(-1)
	_ = rc.Control(func(fd uintptr) {
		var v int32
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&v))); e == 0 {
			n = v
		}
	})
	return int(n)
}
