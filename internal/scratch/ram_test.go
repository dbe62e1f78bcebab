package scratch

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuickKeepsTheUsersTMPDIR checks that a chosen TMPDIR is where Quick
// makes its directories, named as Dir names them, and that Sweep finds
// them there.
func TestQuickKeepsTheUsersTMPDIR(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir, err := Quick("scenario")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if filepath.Dir(dir) != tmp || !strings.HasPrefix(filepath.Base(dir), prefix+owner()+"-scenario-") {
		t.Errorf("Expected: a directory %s/%s%s-scenario-*\nActual:   %s", tmp, prefix, owner(), dir)
	}
	if _, _, ok := parse(filepath.Base(dir)); !ok {
		t.Errorf("Expected: Sweep can read the owner of %s\nActual:   it cannot", dir)
	}
}

// TestRAMFitRefuses checks what makes a file system unfit for Quick: not
// being there, not being a tmpfs, too little free space.
func TestRAMFitRefuses(t *testing.T) {
	for _, c := range []struct {
		name, dir string
		free      uint64
	}{
		{"a missing directory", filepath.Join(t.TempDir(), "missing"), 0},
		{"a regular file", writeFile(t), 0},
		{"more free space than any file system has", "/dev/shm", math.MaxUint64},
		{"the process's working directory's file system, unless a tmpfs", ".", 0},
	} {
		if c.dir == "." && isTmpfs(c.dir) {
			continue
		}
		if ramFit(c.dir, c.free) {
			t.Errorf("%s: Expected: ramFit(%q, %d) is false\nActual:   true", c.name, c.dir, c.free)
		}
	}
}

// writeFile is a regular file of the test's.
func writeFile(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestQuickUsesTheRAMFileSystemWhenFit checks, with TMPDIR unset, that
// Quick makes its directory on /dev/shm when that is fit for it and in the
// system's temporary directory otherwise.
func TestQuickUsesTheRAMFileSystemWhenFit(t *testing.T) {
	t.Setenv("TMPDIR", "")
	want := os.TempDir()
	if ramFit(ramCandidate, minRAMFree) {
		want = ramCandidate
	}
	dir, err := Quick("scenario")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if filepath.Dir(dir) != want {
		t.Errorf("Expected: a directory under %s\nActual:   %s", want, dir)
	}
}
