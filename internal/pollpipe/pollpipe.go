// Package pollpipe reads and writes a process's stdio pipes through the
// runtime's poller: the adapter processes of serve-reference and the
// stdio fakes, which spend their lives waiting on them.
package pollpipe

import (
	"os"
	"syscall"
)

// Pollable returns f, a pipe, in non-blocking mode and read and written
// through the runtime's poller, or f itself when it is no pipe (a
// terminal is left as it is: the mode would outlive the process). Read
// from a blocking pipe, every message wakes a thread parked in read(2),
// which must then win a P back from the scheduler: through the adapter
// protocol that cost about 5% of a run's CPU, and a stdio fake 0.3 ms of
// its 9.5. The pipe's other end is another open file, whose mode this
// does not change. Keep the returned file reachable while the pipe is in
// use: when it is collected, its finalizer closes the descriptor.
func Pollable(f *os.File) *os.File {
	fd := int(f.Fd())
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return f
	}
	if syscall.SetNonblock(fd, true) != nil {
		return f
	}
	return os.NewFile(uintptr(fd), f.Name())
}
