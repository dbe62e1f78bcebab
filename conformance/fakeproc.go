package conformance

import (
	"os"
	"syscall"

	"github.com/mcpconform/mcpconform/conformance/internal/quietinit"
	_ "github.com/mcpconform/mcpconform/conformance/internal/quietinit/godogready" // PATH back as soon as godog is initialized
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
)

// Any binary that links this package can serve as the fakes that
// implementations under test start: run with one of the hidden
// subcommands of [mcpfake.Dispatch] as its first argument, it becomes that
// fake and never returns. This is what lets scenarios hand an
// implementation a command it can spawn — the mcpconform binary itself,
// or the test binary under `go test` — without building anything; a
// mcpconform-fake binary of the same build beside the runner's serves
// them faster ([fakeBinary]).
func init() {
	quietinit.Restore() // already done by godogready; PATH as it came, whatever the order
	if code, ok := mcpfake.Dispatch(os.Args[1:]); ok {
		// syscall.Exit, not os.Exit: under the race detector os.Exit
		// waits a second before exiting, which a fake must not add to the
		// timings of the implementation under test.
		syscall.Exit(code)
	}
}
