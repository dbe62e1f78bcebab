package quietinit

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"testing"
)

// TestRestore shows that PATH is empty until Restore, which the go command
// then cannot be found through, and exactly as the process received it
// (/proc/self/environ) afterwards, in the same place among the variables.
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
	if got, ok := os.LookupEnv("PATH"); !ok || got != "" {
		t.Fatalf("before Restore:\nExpected: PATH empty\nActual:   %q (set: %v)", got, ok)
	}
	if _, err := exec.LookPath("go"); err == nil {
		t.Fatal("before Restore:\nExpected: the go command not found\nActual:   found")
	}
	Restore()
	Restore() // idempotent
	if got := os.Environ(); !slices.Equal(got, want) {
		t.Fatalf("after Restore:\nExpected: %q\nActual:   %q", want, got)
	}
}
