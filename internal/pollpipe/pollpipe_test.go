package pollpipe

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestPollableReadsAPipeThroughThePoller checks that the file Pollable
// makes of a pipe reads what is written to it, and honours a read
// deadline, which only a file of the poller does.
func TestPollableReadsAPipeThroughThePoller(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// A file of its own, as os.Stdin is: the test's pipe from os.Pipe is
	// pollable already.
	dup, err := dupFile(r)
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	p := Pollable(dup)
	defer p.Close()
	if err := p.SetReadDeadline(time.Now().Add(time.Minute)); err != nil {
		t.Fatalf("Expected: a file of the poller, which takes a read deadline\nActual:   %v", err)
	}
	if _, err := w.Write([]byte("x\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	n, err := p.Read(buf)
	if err != nil || string(buf[:n]) != "x\n" {
		t.Fatalf("Expected: %q\nActual:   %q, %v", "x\n", buf[:n], err)
	}
}

// TestPollableLeavesOtherFilesAlone checks that a file that is no pipe
// is returned as it is.
func TestPollableLeavesOtherFilesAlone(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := Pollable(f); got != f {
		t.Fatalf("Expected: the regular file itself\nActual:   another file, %v", got)
	}
}

// dupFile returns a blocking file of its own for f's descriptor, as
// os.Stdin is one.
func dupFile(f *os.File) (*os.File, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var fd int
	var derr error
	if err := rc.Control(func(s uintptr) { fd, derr = syscall.Dup(int(s)) }); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, derr
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), "dup"), nil
}
