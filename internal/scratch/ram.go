package scratch

import (
	"os"
	"sync"
)

// ramCandidate is the RAM file system [Quick] prefers.
const ramCandidate = "/dev/shm"

// minRAMFree is the free space the RAM file system must have for [Quick]
// to use it: a run's scratch directories are small (configuration files,
// scripts, logs; a few scenarios at a time), but a RAM file system that
// fills up would fail scenarios that pass on a disk, so a small one (a
// container's /dev/shm is 64 MB) is not used.
const minRAMFree = 1 << 30

// ramRoot is the directory [Quick] makes its directories under, or ""
// when it makes them where [Dir] does: when the user chose TMPDIR, or the
// RAM file system is not fit for them ([ramFit]).
func ramRoot() string {
	if os.Getenv("TMPDIR") != "" {
		return ""
	}
	return ramFitOnce()
}

// ramFitOnce is ramFit of ramCandidate, worked out once per process.
var ramFitOnce = sync.OnceValue(func() string {
	if ramFit(ramCandidate, minRAMFree) {
		return ramCandidate
	}
	return ""
})

// Quick makes a new scratch directory, as [Dir] does, for one of the many
// short-lived directories of a run (a scenario's): on a RAM file system
// (/dev/shm) when the user has not chosen TMPDIR and it is a tmpfs that
// this process can write, that lets programs run from it (the opener shims
// of a scenario are run from its directory) and has at least 1 GiB free;
// where [Dir] makes them otherwise. Making, filling and removing a
// scenario's directory on a disk's file system costs four times the CPU it
// does on a tmpfs. [Sweep] sweeps both places.
func Quick(what string) (string, error) {
	root := ramRoot()
	if root == "" {
		return Dir(what)
	}
	return os.MkdirTemp(root, prefix+owner()+"-"+what+"-")
}
