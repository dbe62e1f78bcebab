package rpcadapter

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/internal/procs"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Reuse (spec/adapter-protocol.md §1, capability reuse): an adapter
// process that declares it serves scenarios in turn. Between two, it
// waits in its target's pool; the runner checks, after each scenario,
// that nothing the scenario started is left, and retires a process that
// left something, broke the protocol, spoke while it waited, or served
// [maxScenarios].

// maxScenarios bounds the scenarios one adapter process serves, so that
// what an implementation keeps growing (caches, a leak) stays bounded.
const maxScenarios = 100

// leftGrace is how long the processes a scenario started may take to go
// once the adapter ended it: the time an adapter process has to exit
// after shutdown, without reuse.
const leftGrace = 2 * time.Second

// pool holds a target's adapter processes that wait for a scenario.
type pool struct {
	mu   sync.Mutex
	idle []*adapterProc
}

// release puts a process that ended its scenario cleanly in the pool, or
// ends it when it has served its share.
func (t *Target) release(a *adapterProc) {
	a.mu.Lock()
	done := a.served >= maxScenarios
	a.mu.Unlock()
	if done {
		a.stop(true)
		return
	}
	t.pool.mu.Lock()
	t.pool.idle = append(t.pool.idle, a)
	t.pool.mu.Unlock()
}

// take returns a waiting process, or nil.
func (t *Target) take() *adapterProc {
	t.pool.mu.Lock()
	defer t.pool.mu.Unlock()
	n := len(t.pool.idle)
	if n == 0 {
		return nil
	}
	a := t.pool.idle[n-1]
	t.pool.idle = t.pool.idle[:n-1]
	return a
}

// reopen hands world env a waiting process, begun with env's directory
// and environment; nil when none is fit (the caller starts one).
func (t *Target) reopen(ctx context.Context, env adapter.Env) *process {
	for {
		a := t.take()
		if a == nil {
			return nil
		}
		if !a.fit() {
			a.stop(true)
			continue
		}
		p := a.begin()
		a.conn.ResetLimits()
		bctx, cancel := context.WithTimeout(ctx, t.handshakeTimeout())
		err := p.call(bctx, MethodScenarioBegin, BeginParams{Dir: env.Dir, Environ: t.environ(env)}, nil)
		cancel()
		if err == nil {
			return p
		}
		p.close() // a process that cannot begin a scenario serves none
	}
}

// Close ends the adapter processes that wait for a scenario. The target
// stays usable: a later Open starts a new one.
func (t *Target) Close() error {
	t.pool.mu.Lock()
	idle := t.pool.idle
	t.pool.idle = nil
	t.pool.mu.Unlock()
	var wg sync.WaitGroup
	for _, a := range idle {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.stop(true)
		}()
	}
	wg.Wait()
	return nil
}

// fit reports whether a waiting process may begin a scenario: alive,
// its connection whole, silent since it ended the last.
func (a *adapterProc) fit() bool {
	select {
	case <-a.conn.Done():
		return false
	case <-a.exited:
		return false
	default:
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stray == ""
}

// handle serves the adapter's host callbacks for the scenario it serves.
func (a *adapterProc) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	a.mu.Lock()
	p, idle := a.cur, a.idle
	a.mu.Unlock()
	if idle {
		return nil, &adapter.Error{Kind: adapter.KindInternal, Message: fmt.Sprintf("%s between scenarios: the adapter ended the scenario, and the next has not begun", safetext.Cap(method, safetext.Field))}
	}
	return p.handle(ctx, method, params)
}

// arrive is the connection's Arrive: a message that arrives while the
// process waits between scenarios retires it.
func (a *adapterProc) arrive(ctx context.Context, method string, params json.RawMessage) context.Context {
	a.mu.Lock()
	p, idle := a.cur, a.idle
	if idle && a.stray == "" {
		a.stray = method
	}
	a.mu.Unlock()
	if idle {
		return ctx
	}
	return p.arrive(ctx, method, params)
}

// observe keeps the messages of the scenario the process serves.
func (a *adapterProc) observe(t Traffic) { a.current().observe(t) }

// leftBehind waits, up to [leftGrace], for the processes the scenario
// started to go, then kills and returns those left: below the adapter
// process, in its process group, or holding its stdout or stderr (the
// runner's own children aside: [leftoversAmong]); and
// names the TCP sockets the adapter process still listens on.
func (a *adapterProc) leftBehind() (left []adapter.Leftover, listening []string) {
	pid := a.cmd.Process.Pid
	self, err := procs.Stat(pid)
	if err != nil {
		return nil, nil
	}
	// What the scenario started has a PID above the last one given when
	// it began, unless PIDs wrapped around since; what earlier scenarios
	// started was looked for as they ended.
	last := procs.LastPID()
	a.mu.Lock()
	since := a.since
	a.since = last // what starts from now on, the next scenario's end finds
	a.mu.Unlock()
	if last < since {
		since = 0
	}
	deadline := time.Now().Add(leftGrace)
	for wait := time.Millisecond; ; wait *= 2 {
		all := procs.Above(since)
		tree := procs.Tree(all, pid)
		orphans := orphanable(all)
		left = leftoversAmong(all, func(p procs.Proc) bool {
			if p.PID == pid {
				return false
			}
			// Below it, in its group, or started after it and holding its
			// output: an orphan, adopted by init or by whichever subreaper
			// is above the runner.
			return tree[p.PID] || p.PGID == pid || orphans[p.PID] && p.Start >= self.Start && holdsAny(p.PID, a.pipes)
		})
		if len(left) == 0 || !time.Now().Before(deadline) {
			break
		}
		time.Sleep(min(wait, time.Until(deadline), 100*time.Millisecond)) // a bounded poll: /proc has no event to wait on
	}
	for _, l := range left {
		_ = syscall.Kill(l.PID, syscall.SIGKILL)
	}
	// Only a socket the process did not hold when the scenario began can
	// be a listener the scenario left.
	now := procs.Sockets(pid)
	a.mu.Lock()
	before := a.sockets
	a.mu.Unlock()
	var opened []string
	for _, ino := range now {
		if !slices.Contains(before, ino) {
			opened = append(opened, ino)
		}
	}
	return left, procs.ListeningAmong(pid, opened)
}

// orphanable returns the PIDs among all that may be orphans: those
// adopted by init or by a process at or above the runner (a subreaper
// adopts there), and what is below them. Any other process has a living
// parent that adopts no one (what the other scenarios' adapters started,
// most of all): it is no orphan, and its open files need not be read.
func orphanable(all []procs.Proc) map[int]bool {
	adopters := map[int]bool{1: true, os.Getpid(): true, os.Getppid(): true}
	for _, pid := range runnerAncestors() {
		adopters[pid] = true
	}
	var roots []int
	for _, p := range all {
		if adopters[p.PPID] {
			roots = append(roots, p.PID)
		}
	}
	return procs.Tree(all, roots...)
}

// runnerAncestors are the processes above the runner, read once: they
// outlive it (but for its parent, which orphanable reads each time).
var runnerAncestors = sync.OnceValue(func() []int { return procs.Ancestors(os.Getpid()) })

// mark notes the sockets the adapter process holds as its first scenario
// begins: a listener a scenario opens and leaves fails it and retires the
// process, so a process that serves another scenario holds no listener
// but those it held then.
func (a *adapterProc) mark() {
	s := procs.Sockets(a.cmd.Process.Pid)
	a.mu.Lock()
	a.sockets = s
	a.mu.Unlock()
}

// holdsAny reports whether process pid holds one of the pipes open.
func holdsAny(pid int, pipes []uint64) bool {
	return slices.ContainsFunc(procs.Pipes(pid), func(ino uint64) bool { return slices.Contains(pipes, ino) })
}
