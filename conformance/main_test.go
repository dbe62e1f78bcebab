package conformance_test

import (
	"fmt"
	"io"
	"log"
	"os"
	"testing"

	"github.com/mcpconform/mcpconform/internal/hollow"
)

// TestMain silences the standard logger: only net/http writes to it here,
// about the fakes' deliberate misbehaviour (a body longer than its
// Content-Length), which the scenarios check themselves.
//
// It also lets the test binary act as the adapter programs the tests run
// through the protocol:
//
//	<test binary> hollow-adapter CLAIMS   the adapter that implements nothing (package hollow)
func TestMain(m *testing.M) {
	log.SetOutput(io.Discard)
	if len(os.Args) == 3 && os.Args[1] == "hollow-adapter" {
		claims, ok := hollow.ClaimsNamed(os.Args[2])
		if !ok {
			fmt.Fprintf(os.Stderr, "hollow-adapter: unknown claims %q\n", os.Args[2])
			os.Exit(2)
		}
		if err := hollow.Serve(os.Stdin, os.Stdout, claims); err != nil {
			fmt.Fprintln(os.Stderr, "hollow-adapter:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
