package main

import (
	"os"
	"runtime/debug"
)

// tuneGC trades memory for CPU in the processes that run scenarios (run,
// and adapter serve-reference): they are short-lived and allocate freely,
// and with Go's default (GOGC=100) the collector took a sixth of the
// runner's CPU. The collector runs when the heap has grown by 400%, within
// a soft limit of 1 GiB. GOGC or GOMEMLIMIT in the environment take
// precedence. Only the process itself is tuned: the environment handed
// to implementations and fakes is left as it was.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(400)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(1 << 30)
	}
}
