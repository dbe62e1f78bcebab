package core

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// NewSession builds a Blade session: it validates every server and
// connects those not disabled before it returns. A server that fails to
// connect, or whose name collides with an earlier one after normalization
// (BL-NAME-03), does not fail the session: it reports status error
// (interpretation B-08). An invalid configuration is an error and starts
// nothing.
//
// The session reads no configuration file (interpretation X-10): only
// servers declare its servers, and opts.MCPServers is ignored.
func NewSession(ctx context.Context, opts Options, servers []NamedBladeServer) (*Host, error) {
	return newSession(ctx, opts, servers, nil)
}

// newSession is [NewSession] whose servers are dialed by dial when it is
// not nil ([Host.dial]).
func newSession(ctx context.Context, opts Options, servers []NamedBladeServer, dial func(string) (io.ReadWriteCloser, error)) (*Host, error) {
	opts.StrictMCPConfig, opts.MCPServers = true, nil
	a, err := New(opts, Blade())
	if err != nil {
		return nil, err
	}
	a.dial = dial
	d := decoder{source: "mcpServers option", faults: a.faults}
	var names []string
	var declared []*server
	// BL-CFG-01: the session's servers are those of its mcpServers option.
	if a.faults.Has(fault.BladeIgnoreServers) {
		servers = nil
	}
	for _, ns := range servers {
		c := ns.Config
		field := "mcpServers." + ns.Name
		mutateBlade(&c, a.faults)
		// BL-CFG-02: healthCheck is part of an McpServerConfig.
		if c.HealthCheck != nil && a.faults.Has(fault.BladeRejectHealthCheck) {
			a.Close()
			return nil, d.fail("BL-CFG-02", field+".healthCheck", "healthCheck is not supported (mutated)")
		}
		if err := validateBladeKey(ns.Name, a.faults); err != nil {
			a.Close()
			return nil, err.(*Error).at(d.source, field)
		}
		if err := d.validateBlade(&c, field); err != nil {
			a.Close()
			return nil, err
		}
		s := &server{name: ns.Name, cfg: c.ServerConfig, blade: &c, source: SourceOption, where: d.source, status: StatusConfigured}
		// BL-NAME-03: server keys equal after normalization collide; the later one fails.
		if other := bladeCollision(names, ns.Name); other != "" && a.profile.NormalizedNames && !a.faults.Has(fault.BladeNoKeyCollision) {
			s.collision = &Error{Kind: KindName, Rule: "BL-NAME-03", Source: ns.Name, Msg: fmt.Sprintf("server name %q collides with %q after normalization", ns.Name, other)}
			s.status, s.err = StatusFailed, s.collision
		}
		names = append(names, ns.Name)
		declared = append(declared, s)
	}
	a.reg.servers = declared
	// BL-INP-04: in-process servers connect beside the external ones.
	alone := a.faults.Has(fault.BladeInProcessAlone) && slices.ContainsFunc(declared, func(s *server) bool { return s.blade.InProcess != nil })
	// BL-CFG-06: the servers connect as part of creating the session.
	if !a.faults.Has(fault.BladeLazyConnect) {
		for _, s := range declared {
			if alone && s.blade.InProcess == nil {
				continue
			}
			// BL-CFG-04: a disabled server is not connected at creation.
			if s.status == StatusConfigured && (!s.blade.Disabled || a.faults.Has(fault.BladeConnectDisabled)) {
				_ = a.reg.bladeConnect(ctx, s) // its status tells
			}
		}
	}
	return a, nil
}
