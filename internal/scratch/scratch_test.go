package scratch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcpconform/mcpconform/internal/procs"
)

// TestSweepRemovesOnlyTheDead makes directories for this process, for a
// process that has exited, and for a live process's PID with another start
// time (a reused PID), and sweeps.
func TestSweepRemovesOnlyTheDead(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	mine, err := Dir("scenario")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("no true: %v", err)
	}
	me, _ := procs.Self()
	dead := filepath.Join(tmp, prefix+fmt.Sprintf("%d-12345-scenario-x", cmd.Process.Pid))
	reused := filepath.Join(tmp, prefix+fmt.Sprintf("%d-%d-adapter-y", me.PID, me.Start+1))
	other := filepath.Join(tmp, "mcpconform-not-a-scratch-dir")
	for _, d := range []string{dead, reused, other} {
		if err := os.MkdirAll(filepath.Join(d, "home", "ro"), 0o755); err != nil {
			t.Fatal(err)
		}
		_ = os.Chmod(filepath.Join(d, "home", "ro"), 0o500)
	}
	removed, err := Sweep()
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 2 {
		t.Errorf("removed %q; want the dead process's and the reused PID's", removed)
	}
	for _, d := range []string{dead, reused} {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s was not removed: %v", d, err)
		}
	}
	for _, d := range []string{mine, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
	os.RemoveAll(mine)
}
