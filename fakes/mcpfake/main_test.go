package mcpfake

import (
	"os"
	"testing"

	"github.com/mcpconform/mcpconform/internal/fakebin"
)

// TestMain lets the test binary act as every fake process, as the
// mcpconform binary does: the tests spawn os.Args[0] with a hidden
// subcommand, which [Main] dispatches. BenchmarkStdioFake measures the
// small binary too ([fakebin]).
func TestMain(m *testing.M) {
	Main()
	os.Exit(fakebin.Run(m))
}
