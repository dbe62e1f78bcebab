package core

import (
	"os"
	"testing"
)

// exitServerCommand makes the test binary a stdio server that exits with
// status 3 before it reads anything.
const exitServerCommand = "__core-exit-server"

// TestMain runs the tests, unless the binary was started as one of the
// test servers.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == exitServerCommand {
		os.Exit(3)
	}
	os.Exit(m.Run())
}
