package fakebin

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/fakes"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
)

// tests is a *testing.M stand-in: its Run is the body under [Run].
type tests func() int

func (t tests) Run() int { return t() }

// TestRun checks, in one test because [Run] enables the package for the
// process: no command before Run; within it, the small binary of the
// fakes, built from this checkout (it prints the fakes' digest of the
// sources this test was built from); after it, the build removed.
func TestRun(t *testing.T) {
	if cmd, ok := Command(); ok {
		t.Fatalf("Command() before Run = %q, true; want false", cmd)
	}
	var bin string
	code := Run(tests(func() int {
		cmd, ok := Command()
		if !ok || len(cmd) != 1 {
			t.Errorf("Command() within Run = %q, %v; want the binary", cmd, ok)
			return 1
		}
		bin = cmd[0]
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, bin, mcpfake.DigestSubcommand).Output()
		if err != nil {
			t.Errorf("%s %s: %v", bin, mcpfake.DigestSubcommand, err)
			return 1
		}
		if got, want := strings.TrimSpace(string(out)), fakes.Digest(); got != want {
			t.Errorf("the built fake's digest = %q, want this checkout's %q", got, want)
		}
		if again, _ := Command(); len(again) != 1 || again[0] != bin {
			t.Errorf("a second Command() = %q, want the same build %q", again, bin)
		}
		return 7
	}))
	if code != 7 {
		t.Errorf("Run returned %d, want the tests' 7", code)
	}
	if bin == "" {
		return
	}
	if _, err := os.Stat(bin); !os.IsNotExist(err) {
		t.Errorf("after Run, stat %s: %v; want the build removed", bin, err)
	}
}
