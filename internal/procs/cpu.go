package procs

import (
	"syscall"
	"time"
)

// CPU is the CPU time, user and system, this process has used, and the
// one its children that it waited for have used (fakes, adapters, and
// what they waited for in turn): the cost of a run, which benchmarks
// report beside its wall time. It is zero where getrusage fails.
func CPU() (self, children time.Duration) {
	return rusage(syscall.RUSAGE_SELF), rusage(syscall.RUSAGE_CHILDREN)
}

// rusage is the user and system time of who.
func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(who, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
