package core

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// Health checks of the Blade profile (BL-HC): a server whose healthCheck is
// enabled is pinged every intervalMs while it is connected; a run of
// failed pings marks it failed and closes its connection, so that its
// status leaves connected without any tool call (BL-HC-02). Servers
// without an enabled healthCheck are never pinged (BL-HC-03).

// DefaultHealthInterval is the interval of a healthCheck that names
// none (the document's example, interpretation B-04).
const DefaultHealthInterval = 30 * time.Second

// healthFailures is how many pings in a row must fail before a server
// counts as broken (B-04 leaves the threshold open).
const healthFailures = 3

// DefaultHealthTimeout bounds one health check; a shorter intervalMs
// bounds it instead (interpretation B-04).
const DefaultHealthTimeout = 10 * time.Second

// Health is the health status of a Blade server (BL-HC-04), with the
// thresholds of interpretation B-04: disabled without an enabled health
// check; checking while a check is in progress; healthy when the last
// check was answered within half its timeout (and at connection, before
// any check); degraded when it was answered later than that, or when
// fewer than [healthFailures] checks in a row failed (no answer within
// the timeout, or an error); unhealthy once that many failed in a row,
// which also ends the connection (BL-HC-02), until the server connects
// again.
type Health string

// The health statuses (BL-HC-04).
const (
	HealthDisabled  Health = "disabled"
	HealthChecking  Health = "checking"
	HealthHealthy   Health = "healthy"
	HealthDegraded  Health = "degraded"
	HealthUnhealthy Health = "unhealthy"
)

// setHealth records s's health.
func (r *Registry) setHealth(s *server, h Health) {
	r.mu.Lock()
	s.health = h
	r.mu.Unlock()
}

// healthInterval returns how often s is checked, or 0 when it is not.
func (r *Registry) healthInterval(s *server) time.Duration {
	m := r.agent.faults
	hc := s.blade.HealthCheck
	enabled := hc != nil && hc.Enabled != nil && *hc.Enabled
	// BL-HC-01: an enabled health check runs; BL-HC-03: one not enabled never does.
	if m.Has(fault.BladeNoHealthChecks) || (!enabled && !m.Has(fault.BladeCheckWhenDisabled)) {
		return 0
	}
	if hc != nil && hc.IntervalMs != nil {
		return time.Duration(*hc.IntervalMs) * time.Millisecond
	}
	return DefaultHealthInterval
}

// startHealth starts the health checks of a Blade server's new
// connection; they end when the connection closes.
func (r *Registry) startHealth(s *server, conn *connection) {
	every := r.healthInterval(s)
	if every == 0 {
		r.setHealth(s, HealthDisabled)
		return
	}
	r.setHealth(s, HealthHealthy)
	// BL-HC-03: a server without an enabled health check is never pinged.
	if hc := s.blade.HealthCheck; r.agent.faults.Has(fault.BladeCheckWhenDisabled) && (hc == nil || hc.Enabled == nil || !*hc.Enabled) {
		// The mutant checks a server without an enabled health check at
		// once, before the connection is handed back, and then every
		// interval: a scenario sees the ping without waiting for it.
		pctx, cancel := context.WithTimeout(r.agent.closeCtx, DefaultTimeout)
		_ = conn.session.Ping(pctx, nil)
		cancel()
	}
	ctx, cancel := context.WithCancel(r.agent.closeCtx)
	conn.mu.Lock()
	conn.stopHealth = cancel
	conn.mu.Unlock()
	// The first tick is armed before the session is handed back, so that
	// a clock the host advances right after counts from the connection.
	next, stop := r.agent.opts.Clock.WithTimeout(ctx, every)
	r.agent.health.Add(1)
	go func() {
		defer r.agent.health.Done()
		defer cancel()
		r.checkHealth(ctx, s, conn, every, next, stop)
	}()
}

// checkHealth pings conn every interval on the agent's clock. The next
// tick is armed before each ping, so that a clock the host drives never
// skips one; each ping is bounded by the interval.
func (r *Registry) checkHealth(ctx context.Context, s *server, conn *connection, every time.Duration, next context.Context, stop context.CancelFunc) {
	clock := r.agent.opts.Clock
	tick := func() (context.Context, context.CancelFunc) { return clock.WithTimeout(ctx, every) }
	defer func() { stop() }()
	failures := 0
	for {
		<-next.Done()
		if ctx.Err() != nil {
			return
		}
		stop()
		next, stop = tick()
		m := r.agent.faults
		timeout := min(every, DefaultHealthTimeout)
		// BL-HC-04: checking while a check is in progress.
		if !m.Has(fault.BladeHealthNeverChecking) {
			r.setHealth(s, HealthChecking)
		}
		pctx, pcancel := clock.WithTimeout(ctx, timeout)
		slow, scancel := clock.WithTimeout(ctx, timeout/2)
		err := conn.session.Ping(pctx, nil)
		// BL-HC-04: an answer later than half the bound is a slow response.
		late := slow.Err() != nil && !m.Has(fault.BladeHealthSlowHealthy)
		pcancel()
		scancel()
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			failures = 0
			// BL-HC-04: healthy for a timely answer, degraded for a slow one.
			switch {
			case late, m.Has(fault.BladeHealthNoRecovery):
				r.setHealth(s, HealthDegraded)
			default:
				r.setHealth(s, HealthHealthy)
			}
			continue
		}
		failures++
		// BL-HC-02: failed pings take the server out of connected.
		if failures >= healthFailures && !m.Has(fault.BladeIgnoreFailedPings) {
			r.unhealthy(s, conn, fmt.Errorf("%d health checks in a row failed, the last: %w", failures, err))
			return
		}
		// BL-HC-04: degraded after a failed check, unhealthy after consecutive ones.
		if m.Has(fault.BladeHealthFailureUnhealthy) {
			r.setHealth(s, HealthUnhealthy)
		} else {
			r.setHealth(s, HealthDegraded)
		}
	}
}

// unhealthy marks s failed, if conn is still its connection, and closes
// the connection.
func (r *Registry) unhealthy(s *server, conn *connection, cause error) {
	r.mu.Lock()
	if s.conn != conn {
		r.mu.Unlock()
		return
	}
	r.detachLocked(s, StatusFailed, &Error{Kind: KindTransport, Rule: "BL-HC-02", Source: s.name, Msg: "the server stopped answering its health checks", Err: cause})
	// BL-HC-04: unhealthy after consecutive failed checks.
	s.health = HealthUnhealthy
	if r.agent.faults.Has(fault.BladeHealthNoUnhealthy) {
		s.health = HealthDegraded
	}
	r.mu.Unlock()
	_ = conn.close()
}
