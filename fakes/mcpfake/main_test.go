package mcpfake

import (
	"os"
	"testing"
)

// TestMain lets the test binary act as every fake process, as the
// mcpconform binary does: the tests spawn os.Args[0] with a hidden
// subcommand, which [Main] dispatches.
func TestMain(m *testing.M) {
	Main()
	os.Exit(m.Run())
}
