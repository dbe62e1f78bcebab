package node_test

import (
	"os"
	"testing"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/internal/fakebin"
)

// TestMain makes the test binary serve the stdio fakes that the scenarios
// hand the stub to spawn (mcpfake.Main), then runs the tests.
func TestMain(m *testing.M) {
	mcpfake.Main()
	os.Exit(fakebin.Run(m)) // the scenarios' stdio fakes from the small binary
}
