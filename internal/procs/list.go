package procs

import (
	"os"
	"strconv"
	"sync"
	"syscall"
)

// Listing /proc costs the kernel what the machine's processes number: it
// looks up every one it lists. A listing of the processes whose PID is
// above a bound starts at the bound instead: the offsets of /proc's
// entries are PIDs plus [pidOffset] (fs/proc/base.c, TGID_OFFSET), so a
// seek there skips the lower PIDs, in the kernel, without looking them
// up. [seekWorks] checks that offset on this kernel once; where it does
// not hold, the listing starts at the beginning.

// pidOffset is the offset of PID 0 among /proc's entries: the
// first process entry (FIRST_PROCESS_ENTRY, 256), after "self" and
// "thread-self".
const pidOffset = 256 + 2

// maxListReads bounds the reads of one listing: far more than the
// entries of a PID space of 4 Mi PIDs need, at 8 KiB a read.
const maxListReads = 1 << 16

// pidsAbove returns the PIDs above pid that /proc lists (all of them when
// pid is 0), in its order. A seek that fails leaves the listing at its
// beginning: it then lists every process, and the bound filters them.
func pidsAbove(pid int) []int {
	fd, err := syscall.Open("/proc", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	if pid > 0 && seekWorks() {
		_, _ = syscall.Seek(fd, int64(pidOffset+pid+1), 0)
	}
	return readPIDs(fd, pid)
}

// readPIDs reads the entries of the open /proc directory fd from where it
// is, keeping the PIDs above pid.
func readPIDs(fd, pid int) []int {
	var out []int
	buf := make([]byte, 8<<10)
	var names []string
	for range maxListReads {
		n, err := syscall.Getdents(fd, buf)
		if err != nil || n <= 0 {
			break
		}
		names = names[:0]
		_, _, names = syscall.ParseDirent(buf[:n], -1, names)
		for _, name := range names {
			if name == "" || name[0] < '0' || name[0] > '9' {
				continue
			}
			if p, err := strconv.Atoi(name); err == nil && p > pid {
				out = append(out, p)
			}
		}
	}
	return out
}

// seekWorks reports whether a listing of /proc that starts at
// [pidOffset] plus a PID starts with that PID: a listing that starts at
// this process's own PID must list it first (it is alive, and no PID is
// between it and itself).
var seekWorks = sync.OnceValue(func() bool {
	fd, err := syscall.Open("/proc", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	self := os.Getpid()
	if _, err := syscall.Seek(fd, int64(pidOffset+self), 0); err != nil {
		return false
	}
	pids := readPIDs(fd, 0)
	return len(pids) > 0 && pids[0] == self
})
