package procs

import (
	"os"
	"slices"
	"strings"
)

// SpareRaceExitSleep makes every process this one starts from now on
// exit without the second the race detector sleeps by default when a
// -race binary exits (GORACE atexit_sleep_ms=0), keeping the GORACE
// options already set. Test binaries that start themselves again as
// adapters call it first in TestMain: every scenario through the protocol
// waits for its adapter's exit, so under -race each paid a second. The
// detector still reports a race, and still makes the process exit with
// status 66 when it found one. Outside -race builds GORACE means nothing.
func SpareRaceExitSleep() {
	const spare = "atexit_sleep_ms=0"
	if opts := os.Getenv("GORACE"); !slices.Contains(strings.Fields(opts), spare) {
		_ = os.Setenv("GORACE", strings.TrimSpace(opts+" "+spare))
	}
}
