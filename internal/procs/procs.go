// Package procs reads this machine's processes from /proc (Linux): what
// the runner needs to find what an adapter left behind, to tell whether
// the run that made a scratch directory is still alive, and what its own
// tests need to watch processes come and go. Every function reads only
// what the kernel lets this user read and skips the rest; on a system
// without /proc they find nothing.
package procs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Proc is one process, as /proc/PID/stat describes it.
type Proc struct {
	PID  int
	PPID int
	// PGID is the process group.
	PGID int
	// State is the state letter: R, S, D, Z (a zombie: it has exited and
	// awaits its parent's wait), T, ...
	State byte
	// Start is when the process started, in clock ticks after boot: with
	// the PID it names one process, even after its PID is reused.
	Start uint64
}

// Running reports whether the process has not exited (is not a zombie).
func (p Proc) Running() bool { return p.State != 'Z' && p.State != 'X' }

// Stat reads one process.
func Stat(pid int) (Proc, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return Proc{}, err
	}
	// "PID (COMM) STATE PPID PGRP SESSION TTY TPGID FLAGS MINFLT CMINFLT
	// MAJFLT CMAJFLT UTIME STIME CUTIME CSTIME PRIORITY NICE THREADS
	// ITREALVALUE STARTTIME ..."; COMM may hold spaces and parentheses.
	end := bytes.LastIndexByte(b, ')')
	if end < 0 {
		return Proc{}, fmt.Errorf("/proc/%d/stat: no command", pid)
	}
	f := strings.Fields(string(b[end+1:]))
	if len(f) < 20 || len(f[0]) != 1 {
		return Proc{}, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	p := Proc{PID: pid, State: f[0][0]}
	p.PPID, _ = strconv.Atoi(f[1])
	p.PGID, _ = strconv.Atoi(f[2])
	p.Start, _ = strconv.ParseUint(f[19], 10, 64)
	return p, nil
}

// All returns every process that could be read, in PID order.
func All() []Proc {
	entries, _ := os.ReadDir("/proc")
	var out []Proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, err := Stat(pid); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// Alive reports whether the process pid that started at start is still
// running: a process of that PID with another start time is another
// process.
func Alive(pid int, start uint64) bool {
	p, err := Stat(pid)
	return err == nil && p.Start == start && p.Running()
}

// Self is this process.
func Self() (Proc, error) { return Stat(os.Getpid()) }

// Argv returns a process's command line, or nil when it cannot be read.
func Argv(pid int) []string { return nulList(pid, "cmdline") }

// nulList reads /proc/PID/<file>, a list of NUL-terminated strings; nil
// when it cannot be read or is empty.
func nulList(pid int, file string) []string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), file))
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// Pipes returns the inodes of the pipes a process holds open.
func Pipes(pid int) []uint64 {
	var out []uint64
	for _, link := range Files(pid) {
		if n, ok := strings.CutPrefix(link, "pipe:["); ok {
			if ino, err := strconv.ParseUint(strings.TrimSuffix(n, "]"), 10, 64); err == nil {
				out = append(out, ino)
			}
		}
	}
	return out
}

// Files returns what a process's open file descriptors refer to, as
// /proc/PID/fd shows them: paths, "pipe:[INODE]", "socket:[INODE]", ...
func Files(pid int) []string {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if link, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil {
			out = append(out, link)
		}
	}
	return out
}

// Environ returns a process's environment as KEY=VALUE pairs, or nil
// when it cannot be read (another user's process, or one that exited).
func Environ(pid int) []string { return nulList(pid, "environ") }

// Descendants returns the running processes below pid (its children,
// theirs, and so on), in PID order, from one reading of every process.
func Descendants(pid int) []Proc {
	all := All()
	below := map[int]bool{pid: true}
	for changed := true; changed; {
		changed = false
		for _, p := range all {
			if !below[p.PID] && below[p.PPID] {
				below[p.PID], changed = true, true
			}
		}
	}
	var out []Proc
	for _, p := range all {
		if p.PID != pid && below[p.PID] && p.Running() {
			out = append(out, p)
		}
	}
	return out
}
