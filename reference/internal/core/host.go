package core

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// Agent is the reference lite-agent host: it owns the MCP registry, runs
// turns against its [Model], and asks its [ApprovalHandler] what the
// [Policy] asks about.
//
// An Agent does one thing at a time: a run ([Host.Send]), a registration or
// an unregistration. Registry changes are refused while anything else is
// active (LA-REG-15).
type Host struct {
	opts    Options
	faults  fault.Set
	reg     *Registry
	rootCAs *x509.CertPool // nil: the system's
	// profile is the product the host is: lite-agent or Blade.
	profile Profile
	// dial, when set, is the byte stream of a server instead of its
	// process or its URL, spoken to like a stdio server's: the core's own
	// tests connect in-memory servers through it. Nothing outside this
	// package sets it.
	dial func(server string) (io.ReadWriteCloser, error)
	// health counts the running health checks (Blade profile); Close
	// waits for them.
	health sync.WaitGroup

	root      *Host // the root agent of a sub-agent; nil for a root
	archive   *archive
	listeners listeners

	// closeCtx is cancelled by Close; every activity's context derives
	// from it.
	closeCtx    context.Context
	closeCancel context.CancelFunc

	mu       sync.Mutex
	closed   bool
	active   string             // the running activity, "" when idle
	cancelFn context.CancelFunc // cancels the running activity
	idle     chan struct{}      // closed when the agent becomes idle
	leaked   []*connection      // connections kept open by a mutation
	open     []io.Closer        // files kept open by a mutation
	subs     []*Host            // the sub-agents of a root
	allowed  map[string]bool    // fault.RememberApproval only
}

// New builds a host of profile p: it reads and validates the
// configuration files (unless StrictMCPConfig) and the mcpServers option,
// and starts nothing (LA-CFG-10, LA-CFG-11).
func New(opts Options, p Profile) (*Host, error) {
	opts = opts.resolved()
	for i, t := range opts.MCPTransports {
		if t != TransportStdio && t != TransportHTTP {
			return nil, &Error{Kind: KindConfig, Rule: "LA-SEC-21", Source: "mcpTransports option", Field: fmt.Sprintf("mcpTransports[%d]", i),
				Msg: fmt.Sprintf("unknown transport %q; use \"stdio\" or \"http\"", t)}
		}
	}
	a := &Host{opts: opts, faults: opts.Faults, profile: p}
	if err := a.validateOAuth(); err != nil {
		return nil, err
	}
	a.archive = &archive{faults: a.faults}
	var err error
	if a.rootCAs, err = rootCAs(opts.Environ); err != nil {
		return nil, err
	}
	a.closeCtx, a.closeCancel = context.WithCancel(context.Background())
	a.idle = make(chan struct{})
	close(a.idle)
	a.reg = &Registry{agent: a, caller: a, registryState: &registryState{}}
	servers, err := a.loadConfig()
	if err != nil {
		a.closeCancel()
		return nil, err
	}
	a.reg.servers = servers
	// LA-CFG-11: construction starts nothing.
	if a.faults.Has(fault.EagerConnect) {
		ctx, done, err := a.begin(context.Background(), "construction")
		if err == nil {
			err = a.reg.connectPending(ctx)
			done()
		}
		if err != nil {
			a.Close()
			return nil, err
		}
	}
	return a, nil
}

// MCP returns the agent's registry (agent.mcp).
func (a *Host) MCP() *Registry { return a.reg }

// Subscribe registers fn for every event of the agent's runs, as they
// happen (agent.subscribe()). It returns the function that unsubscribes.
// Listeners get nothing once the agent is closed (LA-REG-22).
func (a *Host) Subscribe(fn func(Event)) (unsubscribe func()) {
	return a.listeners.add(fn)
}

// beginChange starts a registry change: an activity like any other, except
// that the mutations for LA-REG-15 and LA-REG-16 let it run beside a run.
func (a *Host) beginChange(ctx context.Context, what string) (context.Context, func(), error) {
	if a.faults.Has(fault.RegisterWhileBusy) || a.faults.Has(fault.HookMayRegister) {
		a.mu.Lock()
		closed := a.closed
		a.mu.Unlock()
		if closed {
			return nil, nil, newError(KindClosed, "LA-REG-21", "the agent is closed")
		}
		return ctx, func() {}, nil
	}
	return a.begin(ctx, what)
}

// begin starts an activity named what, or fails if the agent is closed or
// busy. The returned context is cancelled when ctx is, when the activity
// ends and when the agent closes; done ends the activity.
func (a *Host) begin(ctx context.Context, what string) (context.Context, func(), error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return nil, nil, newError(KindClosed, "LA-REG-21", "the agent is closed")
	}
	if a.active != "" {
		return nil, nil, newError(KindBusy, "LA-REG-15", "the agent is busy with %s; wait until it is idle", a.active)
	}
	actx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(a.closeCtx, cancel)
	// LA-REG-21: close() cancels the activity, it does not wait for it.
	if a.faults.Has(fault.CloseWaits) {
		stop() // close() will not cancel this activity
	}
	a.active, a.cancelFn, a.idle = what, cancel, make(chan struct{})
	var once sync.Once
	done := func() {
		once.Do(func() {
			stop()
			cancel()
			a.mu.Lock()
			a.active, a.cancelFn = "", nil
			close(a.idle)
			a.mu.Unlock()
		})
	}
	return actx, done, nil
}

// AwaitIdle waits until no run or registry change is active (awaitIdle()).
func (a *Host) AwaitIdle(ctx context.Context) error {
	// LA-REG-15: awaitIdle() waits until nothing is active.
	if a.faults.Has(fault.AwaitIdleAtOnce) {
		return nil
	}
	a.mu.Lock()
	idle := a.idle
	a.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return cancelled(ctx, "waiting for the agent to become idle")
	}
}

// Close cancels active work, waits for it to end, and closes every
// connection, reaping stdio child processes (LA-REG-21, LA-REG-22).
// Configuration files and saved credentials are left alone. Close is
// idempotent; after it every operation fails with [KindClosed].
func (a *Host) Close() error {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil
	}
	a.closed = true
	idle := a.idle
	subs := a.subs
	leaked, open := a.leaked, a.open
	a.leaked, a.open = nil, nil
	a.mu.Unlock()
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()

	// LA-REG-21: close() cancels active work first.
	if !a.faults.Has(fault.CloseWaits) {
		a.closeCancel()
	}
	for _, sub := range subs {
		sub.Close()
	}
	<-idle
	a.closeCancel()
	a.listeners.clear()
	// LA-REG-20: a sub-agent's connections are its root's: closing it closes none.
	if a.root != nil && !a.faults.Has(fault.SubagentCloseClosesRoot) {
		// A sub-agent's connections are its root's (LA-REG-20).
		return nil
	}

	conns := a.reg.takeAll()
	// LA-REG-22: close() reaps every child process.
	if a.faults.Has(fault.CloseLeavesChildren) {
		for _, c := range conns {
			c.abandon()
		}
		return nil
	}
	var errs []error
	for _, c := range slices.Concat(conns, leaked) {
		if err := c.close(); err != nil {
			errs = append(errs, err)
		}
	}
	a.health.Wait() // each ends with closeCtx; one may be closing its connection
	return errors.Join(errs...)
}

// keepOpen remembers a file a mutation keeps open until Close.
func (a *Host) keepOpen(c io.Closer) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.open = append(a.open, c)
}

// keepLeaked remembers a connection a mutation left open, so that Close can
// still reclaim it.
func (a *Host) keepLeaked(c *connection) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.leaked = append(a.leaked, c)
}

// cancelled converts a done context into a [KindCancelled] or [KindTimeout]
// error describing what was interrupted.
func cancelled(ctx context.Context, what string) error {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return &Error{Kind: KindTimeout, Rule: "LA-TMO-04", Msg: what + " timed out", Err: context.Cause(ctx)}
	}
	return &Error{Kind: KindCancelled, Rule: "LA-TMO-05", Msg: what + " was cancelled", Err: context.Cause(ctx)}
}
