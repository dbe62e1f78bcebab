// Command mcpconform-fake serves the fakes that the mcpconform runner
// hands implementations under test to spawn: the stdio MCP server, the
// sandbox wrapper and the stdio server's grandchild, under the hidden
// subcommands of [mcpfake.Dispatch]. The mcpconform binary serves them
// too; this one links only the fakes (a third of the size, a tenth of the
// initialization), so each of the hundreds of processes a run starts
// costs a quarter of the CPU. The runner uses it when it lies beside the
// runner's own executable and comes from the same build (package
// conformance, fakeBinary).
//
//	mcpconform-fake __mcpconform-fake-stdio --script FILE --record ADDR --runner PID
package main

import (
	"fmt"
	"os"
	"syscall"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
)

func main() {
	code, ok := mcpfake.Dispatch(os.Args[1:])
	if !ok {
		fmt.Fprintln(os.Stderr, "mcpconform-fake: serves the fakes of a mcpconform run; it is started by the runner, not by hand")
		code = 2
	}
	// syscall.Exit, as mcpfake.Main does: no delay added under the
	// race detector.
	syscall.Exit(code)
}
