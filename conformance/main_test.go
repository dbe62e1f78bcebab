package conformance_test

import (
	"io"
	"log"
	"os"
	"testing"
)

// TestMain silences the standard logger: only net/http writes to it here,
// about the fakes' deliberate misbehaviour (a body longer than its
// Content-Length), which the scenarios check themselves.
func TestMain(m *testing.M) {
	log.SetOutput(io.Discard)
	os.Exit(m.Run())
}
