package core

import (
	"context"
	"slices"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// SubAgentOptions configure [Host.SubAgent].
type SubAgentOptions struct {
	// AllowedTools is the sub-agent's own tool allowlist; nil keeps its
	// root's (LA-REG-18).
	AllowedTools []string
	// Permission is the sub-agent's own policy, applied on top of its
	// root's: the stricter answer wins, so a sub-agent can never loosen
	// what its root denies (LA-REG-19).
	Permission *Policy
}

// SubAgent creates a sub-agent of a root agent. It shares the root's
// registry and connections (LA-REG-17) and its model and approval handler,
// keeps its own allowlist and a stricter policy, and may not change the
// registry (LA-REG-14). Closing it closes none of the root's connections
// (LA-REG-20); closing the root closes it.
func (a *Host) SubAgent(opts SubAgentOptions) (*Host, error) {
	if a.root != nil {
		return nil, newError(KindUnsupported, "LA-REG-14", "only a root agent creates sub-agents")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return nil, newError(KindClosed, "LA-REG-21", "the agent is closed")
	}
	o := a.opts
	o.Permission = opts.Permission
	// LA-REG-18: a sub-agent keeps its own allowlist.
	if opts.AllowedTools != nil && !a.faults.Has(fault.SubagentIgnoresAllowlist) {
		o.AllowedTools = opts.AllowedTools
	}
	// A sub-agent is the same product as its root.
	sub := &Host{opts: o, faults: a.faults, profile: a.profile, rootCAs: a.rootCAs, root: a, archive: &archive{faults: a.faults}}
	sub.reg = &Registry{agent: a, caller: sub, registryState: a.reg.registryState}
	// LA-REG-17: a sub-agent shares its root's connections.
	if a.faults.Has(fault.SubagentOwnConnections) {
		sub.reg = a.reg.copyUnconnected(sub)
	}
	sub.closeCtx, sub.closeCancel = context.WithCancel(a.closeCtx)
	sub.idle = make(chan struct{})
	close(sub.idle)
	a.subs = append(a.subs, sub)
	return sub, nil
}

// checkRegistryChange refuses a registry change unless the agent is a root
// and its sub-agents are idle too (LA-REG-14, LA-REG-15). The root's own
// activity is checked by begin.
func (a *Host) checkRegistryChange() error {
	if a.root != nil && !a.faults.Has(fault.SubagentMayRegister) {
		return newError(KindUnsupported, "LA-REG-14", "only the root agent may change the registry; a sub-agent may not")
	}
	a.mu.Lock()
	subs := slices.Clone(a.subs)
	a.mu.Unlock()
	for _, s := range subs {
		s.mu.Lock()
		busy := s.active
		s.mu.Unlock()
		// LA-REG-15: the registry changes only when the root and its sub-agents are idle.
		if busy != "" && !a.faults.Has(fault.RegisterWhileBusy) {
			return newError(KindBusy, "LA-REG-15", "a sub-agent is busy with %s; the registry changes only when the root and its sub-agents are idle", busy)
		}
	}
	return nil
}

// copyUnconnected is a registry with the same servers, none connected. It
// serves only [fault.SubagentOwnConnections]: sub-agents share their root's
// connections (LA-REG-17).
func (r *Registry) copyUnconnected(owner *Host) *Registry {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := &Registry{agent: owner, caller: owner, registryState: &registryState{}}
	for _, s := range r.servers {
		cp := *s
		cp.conn, cp.status = nil, StatusConfigured
		c.servers = append(c.servers, &cp)
	}
	return c
}
