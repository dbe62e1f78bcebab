// Package scratch makes the runner's scratch directories so that a later
// run can clean up after one that was killed (a CI timeout, SIGKILL): every
// directory is named for the process that made it, with the process's
// start time, and [Sweep] removes those whose process is gone.
//
//	$TMPDIR/mcpconform-<pid>-<start ticks>-<what>-<random>
//	/dev/shm/mcpconform-<pid>-<start ticks>-<what>-<random>   (Quick, when it can)
package scratch

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpconform/mcpconform/internal/procs"
)

// prefix starts every scratch directory's name.
const prefix = "mcpconform-"

var (
	selfOnce  sync.Once
	selfStart uint64
)

// owner is this process's part of a name: "<pid>-<start>".
func owner() string {
	selfOnce.Do(func() {
		if p, err := procs.Self(); err == nil {
			selfStart = p.Start
		}
	})
	return fmt.Sprintf("%d-%d", os.Getpid(), selfStart)
}

// Dir makes a new scratch directory under the system's temporary
// directory; what says what it is for ("scenario", "adapter", ...). The
// caller removes it when done.
func Dir(what string) (string, error) {
	return os.MkdirTemp("", prefix+owner()+"-"+what+"-")
}

// Sweep removes the scratch directories, under the system's temporary
// directory and where [Quick] makes them, of processes that are no longer
// running, and returns their paths. Directories of running processes,
// including this one, and anything not named by [Dir] are left alone.
func Sweep() ([]string, error) {
	removed, err := sweepIn(os.TempDir())
	if root := ramRoot(); root != "" {
		more, ramErr := sweepIn(root)
		removed = append(removed, more...)
		if err == nil {
			err = ramErr
		}
	}
	return removed, err
}

// sweepIn sweeps the scratch directories directly under dir.
func sweepIn(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		pid, start, ok := parse(e.Name())
		if !ok || !e.IsDir() || procs.Alive(pid, start) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if err := removeAll(path); err == nil {
			removed = append(removed, path)
		}
	}
	return removed, nil
}

// parse reads the owner of a scratch directory's name.
func parse(name string) (pid int, start uint64, ok bool) {
	rest, found := strings.CutPrefix(name, prefix)
	if !found {
		return 0, 0, false
	}
	parts := strings.SplitN(rest, "-", 4)
	if len(parts) < 4 {
		return 0, 0, false
	}
	pid, err := strconv.Atoi(parts[0])
	if err != nil || pid <= 0 {
		return 0, 0, false
	}
	start, err = strconv.ParseUint(parts[1], 10, 64)
	if err != nil || start == 0 {
		return 0, 0, false
	}
	return pid, start, true
}

// removeAll removes a tree, first making its directories writable: a
// scenario may have left one read-only.
func removeAll(path string) error {
	_ = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(path)
}
