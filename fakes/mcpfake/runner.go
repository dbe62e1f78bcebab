package mcpfake

import (
	"fmt"
	"os"
	"syscall"

	"github.com/mcpconform/mcpconform/fakes/record"
)

// A fake process must not outlive the runner that started its scenario,
// even when the runner is killed (a CI timeout, SIGKILL) and cannot clean
// up. Two lifelines, because the runner is not always the fake's parent:
// the implementation under test spawns stdio fakes, in the runner's
// process when it runs in process but in an adapter process otherwise, and
// a fake's grandchild has the fake for its parent.

// exitRunnerGone is a fake's exit code when its runner went away.
const exitRunnerGone = 4

// dieWithParentRunner asks the kernel to kill this process when its
// parent dies, if its parent is the runner (runnerPID): then the
// runner's death is the end of the run. A fake whose parent is an adapter
// process, or a sandbox, must outlive that parent long enough for the
// runner to see it left behind, so it relies on [watchRunner] alone.
func dieWithParentRunner(runnerPID int) {
	if runnerPID <= 0 || os.Getppid() != runnerPID {
		return
	}
	setParentDeathSignal()
	if os.Getppid() != runnerPID {
		// The runner died before the signal was set.
		syscall.Exit(exitRunnerGone)
	}
}

// watchRunner ends this process when its record connection to the
// runner's record server ends without the fake closing it: the runner is
// gone, or has closed the scenario.
func watchRunner(rec *record.Client, what string) {
	go func() {
		<-rec.Lost()
		fmt.Fprintf(os.Stderr, "%s: the runner's record server went away; exiting\n", what)
		syscall.Exit(exitRunnerGone)
	}()
}
