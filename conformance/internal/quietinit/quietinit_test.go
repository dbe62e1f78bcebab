package quietinit

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"testing"
)

// pathAtInit is PATH as the package's initialization left it: this file's
// init runs after quietinit.go's (files initialize in name order), before
// any test could call Restore.
var (
	pathAtInit string
	setAtInit  bool
)

func init() { pathAtInit, setAtInit = os.LookupEnv("PATH") }

// TestRestore shows that PATH is empty until Restore, which the go command
// then cannot be found through, and exactly as the process received it
// (/proc/self/environ) afterwards, in the same place among the variables.
// It reads the state before Restore from the initialization, not from the
// environment, and starts from that state again, so that it passes run
// again in the same process (-count).
func TestRestore(t *testing.T) {
	initial, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		t.Skipf("no /proc/self/environ: %v", err)
	}
	var want []string
	for _, kv := range bytes.Split(initial, []byte{0}) {
		if len(kv) > 0 {
			want = append(want, string(kv))
		}
	}
	if !setAtInit || pathAtInit != "" {
		t.Fatalf("before Restore:\nExpected: PATH empty\nActual:   %q (set: %v)", pathAtInit, setAtInit)
	}
	_ = os.Setenv("PATH", "") // as the initialization left it, in place, should an earlier run have restored it
	if _, err := exec.LookPath("go"); err == nil {
		t.Fatal("before Restore:\nExpected: the go command not found\nActual:   found")
	}
	Restore()
	Restore() // idempotent
	if got := os.Environ(); !slices.Equal(got, want) {
		t.Fatalf("after Restore:\nExpected: %q\nActual:   %q", want, got)
	}
}
