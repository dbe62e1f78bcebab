package core

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// ServerState is the local state of one server of a host, for a
// product's own status vocabulary (Blade's mcpServerStatus and
// mcpListTools).
type ServerState struct {
	Name   string
	Status Status
	// Connected says the server has a connection.
	Connected bool
	// Lost says the current connection ended by itself or a call broke
	// it: the server is no longer usable.
	Lost bool
	// Tools are the tools of the current connection; LastTools those of
	// the last one, once it is gone.
	Tools, LastTools []ToolState
	// ConnectedAt is when the current connection joined the registry,
	// zero when there is none.
	ConnectedAt time.Time
	// Err is why the server failed, if it did.
	Err error
	// Health is the health status of a Blade server (BL-HC-04): disabled
	// when its health check is not enabled, whatever its connection.
	Health Health
}

// ToolState is one discovered tool of a server.
type ToolState struct {
	// Name is the exposed name (mcp__<server>__<tool>); Tool is the
	// server's own; Description is the server's.
	Name, Tool, Description string
}

// ServerStates reports every server of the host, in declaration order:
// local state, no I/O.
func (a *Host) ServerStates() []ServerState {
	r := a.reg
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]ServerState, 0, len(r.servers))
	for _, sv := range r.servers {
		st := ServerState{Name: sv.name, Status: sv.status, Err: sv.err, LastTools: toolStates(sv.lastTools), Health: sv.health}
		// BL-HC-04: disabled when the health check is not enabled.
		if sv.blade != nil && r.healthInterval(sv) == 0 {
			st.Health = HealthDisabled
			if a.faults.Has(fault.BladeHealthDisabledHealthy) {
				st.Health = HealthHealthy
			}
		}
		if c := sv.conn; c != nil {
			st.Connected, st.Tools, st.ConnectedAt, st.Lost = true, toolStates(c.tools), c.connectedAt, c.isLost()
		}
		out = append(out, st)
	}
	return out
}

// toolStates describes tools.
func toolStates(tools []*tool) []ToolState {
	out := make([]ToolState, len(tools))
	for i, t := range tools {
		out[i] = ToolState{Name: t.full, Tool: t.raw, Description: t.description}
	}
	return out
}

// MCPConnect connects a server that is not connected (BL-CFG-05,
// BL-RT-06); a connected server is left as it is. While it connects the
// server reports status connecting (BL-RT-05). A failed attempt leaves
// status error and is returned.
func (a *Host) MCPConnect(ctx context.Context, name string) error {
	ctx, done, err := a.begin(ctx, "mcpConnect")
	if err != nil {
		return err
	}
	defer done()
	sv, err := a.reg.byName(name, "mcpConnect")
	if err != nil {
		return err
	}
	switch {
	case a.reg.isConnected(sv), a.faults.Has(fault.BladeConnectNoop): // BL-RT-06: mcpConnect connects a server that is not connected
		return nil
	case sv.blade.Disabled && a.faults.Has(fault.BladeDisabledStays): // BL-CFG-05: a disabled server connects on demand
		return &Error{Kind: KindConfig, Rule: "BL-CFG-05", Source: name, Msg: "the server is disabled (mutated)"}
	}
	return a.reg.bladeConnect(ctx, sv)
}

// MCPDisconnect closes a server's connection, reaping its child process;
// the server stays configured, as disconnected, and its tools are no
// longer offered (BL-RT-07). A server not connected is left as it is
// (interpretation B-09).
func (a *Host) MCPDisconnect(ctx context.Context, name string) error {
	_, done, err := a.begin(ctx, "mcpDisconnect")
	if err != nil {
		return err
	}
	defer done()
	sv, err := a.reg.byName(name, "mcpDisconnect")
	if err != nil {
		return err
	}
	return a.reg.bladeDisconnect(sv)
}

// MCPReconnect closes a server's connection, if any, and connects it
// again: a new process or session (BL-RT-08).
func (a *Host) MCPReconnect(ctx context.Context, name string) error {
	ctx, done, err := a.begin(ctx, "mcpReconnect")
	if err != nil {
		return err
	}
	defer done()
	sv, err := a.reg.byName(name, "mcpReconnect")
	if err != nil {
		return err
	}
	// BL-RT-08: mcpReconnect makes a new connection, even to a connected server.
	if a.faults.Has(fault.BladeReconnectNoop) && a.reg.isConnected(sv) {
		return nil
	}
	if err := a.reg.bladeDisconnect(sv); err != nil {
		return err
	}
	return a.reg.bladeConnect(ctx, sv)
}

// byName finds a configured server (interpretation B-16: an unknown name
// is an error).
func (r *Registry) byName(name, op string) (*server, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := slices.IndexFunc(r.servers, func(s *server) bool { return s.name == name })
	if i < 0 {
		return nil, &Error{Kind: KindNotFound, Rule: "BL-RT-06", Source: op, Msg: fmt.Sprintf("no server is configured as %q", name)}
	}
	return r.servers[i], nil
}

// bladeConnect connects s, reporting connecting meanwhile, and records
// the outcome: connected with its connection time, or error.
func (r *Registry) bladeConnect(ctx context.Context, s *server) error {
	if s.collision != nil {
		// Never connected, whatever the runtime API asks (BL-NAME-03).
		return s.collision
	}
	r.mu.Lock()
	s.status, s.err = StatusConnecting, nil
	r.mu.Unlock()
	var conn *connection
	var err error
	switch {
	case s.blade.OAuth.enabled():
		err = errBladeOAuth(s.name)
	case s.blade.InProcess != nil && r.agent.faults.Has(fault.BladeInProcessRefused): // BL-INP-02: an in-process server is a server the session connects
		err = &Error{Kind: KindUnsupported, Rule: "BL-INP-02", Source: s.name, Msg: "in-process servers are not supported (mutated)"}
	default:
		conn, err = r.connectAndCommit(ctx, s, false)
	}
	if err != nil {
		r.fail(s, err)
		return err
	}
	r.startHealth(s, conn)
	return nil
}

// bladeDisconnect closes s's connection, if any, and marks it
// disconnected.
func (r *Registry) bladeDisconnect(s *server) error {
	r.mu.Lock()
	if s.conn == nil {
		// Not connected: left as it is, failed or not (B-09).
		r.mu.Unlock()
		return nil
	}
	conn := r.detachLocked(s, StatusConfigured, nil)
	r.mu.Unlock()
	// BL-RT-07: mcpDisconnect closes the connection and reaps the process.
	if r.agent.faults.Has(fault.BladeDisconnectKeepsProcess) {
		r.agent.keepLeaked(conn)
		return nil
	}
	return conn.close()
}

// detachLocked takes s's connection away, remembering its tools, and
// gives s a status and error; r.mu must be held.
func (r *Registry) detachLocked(s *server, status Status, err error) *connection {
	conn := s.conn
	s.lastTools = conn.tools
	s.conn, s.status, s.err = nil, status, err
	return conn
}

// isConnected reports whether s has a connection.
func (r *Registry) isConnected(s *server) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return s.conn != nil
}
