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
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
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
	// CPU is the user and system time all its threads have used, at the
	// kernel's USER_HZ precision (10 ms).
	CPU time.Duration
}

// Running reports whether the process has not exited (is not a zombie).
func (p Proc) Running() bool { return p.State != 'Z' && p.State != 'X' }

// Stat reads one process.
func Stat(pid int) (Proc, error) {
	var buf [statBuf]byte
	return stat(strconv.Itoa(pid), &buf)
}

// statBuf holds /proc/PID/stat up to the start time: 52 numbers after a
// command of at most 64 bytes.
const statBuf = 1024

// stat reads /proc/<pid>/stat into buf and parses it. It reads with bare
// system calls: a scan of every process (All) is run after every
// scenario of an adapter process that serves several, and os.ReadFile
// costs twice as much.
func stat(pid string, buf *[statBuf]byte) (Proc, error) {
	path := "/proc/" + pid + "/stat"
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return Proc{}, err
	}
	n, err := syscall.Read(fd, buf[:])
	syscall.Close(fd)
	if err != nil {
		return Proc{}, err
	}
	return parseStat(pid, buf[:max(n, 0)])
}

// userHZ is the unit of the times in /proc/PID/stat: USER_HZ, 100 on
// every Linux architecture Go supports.
const userHZ = 100

// parseStat parses /proc/PID/stat: "PID (COMM) STATE PPID PGRP SESSION
// TTY TPGID FLAGS MINFLT CMINFLT MAJFLT CMAJFLT UTIME STIME CUTIME CSTIME
// PRIORITY NICE THREADS ITREALVALUE STARTTIME ..."; COMM may hold spaces
// and parentheses.
func parseStat(pid string, b []byte) (Proc, error) {
	end := bytes.LastIndexByte(b, ')')
	if end < 0 {
		return Proc{}, fmt.Errorf("/proc/%s/stat: no command", pid)
	}
	var f [20][]byte
	k := 0
	for rest := b[end+1:]; k < len(f); k++ {
		rest = bytes.TrimLeft(rest, " ")
		i := bytes.IndexAny(rest, " \n")
		if i < 0 {
			i = len(rest)
		}
		if i == 0 {
			break
		}
		f[k], rest = rest[:i], rest[i:]
	}
	if k < len(f) || len(f[0]) != 1 {
		return Proc{}, fmt.Errorf("/proc/%s/stat: %d fields", pid, k)
	}
	p := Proc{State: f[0][0]}
	p.PID, _ = strconv.Atoi(pid)
	p.PPID, _ = strconv.Atoi(string(f[1]))
	p.PGID, _ = strconv.Atoi(string(f[2]))
	p.Start, _ = strconv.ParseUint(string(f[19]), 10, 64)
	utime, _ := strconv.ParseUint(string(f[11]), 10, 64)
	stime, _ := strconv.ParseUint(string(f[12]), 10, 64)
	p.CPU = time.Duration(utime+stime) * time.Second / userHZ
	return p, nil
}

// All returns every process that could be read, in PID order.
func All() []Proc { return Above(0) }

// Above is [All] for the processes whose PID is above pid: those started
// after it, until PIDs wrap around ([LastPID]). Reading a process costs
// the kernel more than listing it, so a scan for what started since a
// moment reads only those, and lists only those ([pidsAbove]).
func Above(pid int) []Proc {
	var out []Proc
	var buf [statBuf]byte
	for _, n := range pidsAbove(pid) {
		if p, err := stat(strconv.Itoa(n), &buf); err == nil {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b Proc) int { return a.PID - b.PID })
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
	below := Tree(all, pid)
	var out []Proc
	for _, p := range all {
		if p.PID != pid && below[p.PID] && p.Running() {
			out = append(out, p)
		}
	}
	return out
}

// Tree returns the set of PIDs of all that are one of pids or below one
// (their children, theirs, and so on), whether running or not.
func Tree(all []Proc, pids ...int) map[int]bool {
	below := map[int]bool{}
	for _, pid := range pids {
		below[pid] = true
	}
	for changed := true; changed; {
		changed = false
		for _, p := range all {
			if !below[p.PID] && below[p.PPID] {
				below[p.PID], changed = true, true
			}
		}
	}
	return below
}

// Ancestors returns pid's parent, its parent's, and so on up to init
// (excluded), as far as they can be read.
func Ancestors(pid int) []int {
	var out []int
	for range 4096 { // bounded: a PID chain is far shorter
		p, err := Stat(pid)
		if err != nil || p.PPID <= 1 {
			return out
		}
		out = append(out, p.PPID)
		pid = p.PPID
	}
	return out
}

// LastPID returns the PID given to the latest process of this PID
// namespace (/proc/loadavg), 0 when unknown. PIDs grow until they wrap
// around at the kernel's pid_max: a LastPID below an earlier one means
// they did.
func LastPID() int {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 5 {
		return 0
	}
	n, _ := strconv.Atoi(f[4])
	return n
}
