package procs

import (
	"os"
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

// Spent starts counting the CPU time, user and system, of this process
// and its descendants; the function it returns reports what they used
// since: this process's, the children it waited for, and the descendants
// still running (an adapter process that serves scenarios in turn, which
// [CPU] counts only once it is waited for), at 10 ms precision for those.
func Spent() func() time.Duration {
	self0, children0 := CPU()
	live0 := liveCPU()
	return func() time.Duration {
		self1, children1 := CPU()
		spent := self1 - self0 + children1 - children0
		live1 := liveCPU()
		for k, p := range live1 {
			spent += p.CPU - live0[k].CPU // what started since had none
		}
		for k, p := range live0 {
			if _, ok := live1[k]; !ok && p.PPID == os.Getpid() {
				spent -= p.CPU // waited for since: children1 holds its whole life
			}
		}
		return spent
	}
}

// liveCPU is every running descendant, by PID and start.
func liveCPU() map[[2]uint64]Proc {
	out := map[[2]uint64]Proc{}
	for _, p := range Descendants(os.Getpid()) {
		out[[2]uint64{uint64(p.PID), p.Start}] = p
	}
	return out
}
