package rpcadapter

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/internal/procs"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// What an adapter process leaves behind once it has exited: processes in
// its process group, and processes elsewhere (a grandchild that started a
// session of its own) that still hold its stdout or stderr. The runner
// kills them, and names them in the scenario's evidence.

// groupLeftovers kills what is left in process group pgid and returns it.
func groupLeftovers(pgid int) []adapter.Leftover {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return nil // nobody is left: the usual case, found without reading /proc
	}
	left := leftoversWhere(func(p procs.Proc) bool { return p.PGID == pgid })
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	return left
}

// pipeLeftovers kills the processes that hold one of the pipes (their
// inodes) open and returns them.
func pipeLeftovers(pipes []uint64) []adapter.Leftover {
	left := leftoversWhere(func(p procs.Proc) bool { return holdsAny(p.PID, pipes) })
	for _, l := range left {
		_ = syscall.Kill(l.PID, syscall.SIGKILL)
	}
	return left
}

// leftoversWhere names the running processes, other than this one and its
// children, that match, with their command lines (capped). A child of the
// runner is never an adapter's leftover (those are the adapter's children,
// or orphans adopted by init), and one that is starting holds, between its
// fork and its exec, a copy of every pipe the runner has open, among them
// the pipes of the adapter being reaped.
func leftoversWhere(match func(procs.Proc) bool) []adapter.Leftover {
	return leftoversAmong(procs.All(), match)
}

// leftoversAmong is leftoversWhere over one reading of every process.
func leftoversAmong(all []procs.Proc, match func(procs.Proc) bool) []adapter.Leftover {
	var out []adapter.Leftover
	self := os.Getpid()
	for _, p := range all {
		if p.PID == self || p.PPID == self || !p.Running() || !match(p) {
			continue
		}
		argv := procs.Argv(p.PID)
		if len(argv) > 32 {
			argv = append(argv[:32:32], fmt.Sprintf("… %d more arguments", len(argv)-32))
		}
		for i, a := range argv {
			argv[i] = safetext.Cap(a, safetext.Field)
		}
		out = append(out, adapter.Leftover{PID: p.PID, Argv: argv})
	}
	return out
}

// inode returns the inode of an open file, 0 when unknown.
func inode(f *os.File) uint64 {
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return s.Ino
	}
	return 0
}
