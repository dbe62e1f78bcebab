package core

import (
	"fmt"
	"slices"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// admitNormalized checks a candidate connection's tools under the Blade
// profile: two tools whose names are equal after normalization fail the
// server at registration (BL-NAME-03). r.mu must be held.
func (r *Registry) admitNormalized(s *server, conn *connection) error {
	m := r.agent.faults
	// BL-NAME-04: two servers' same-named tools are both offered, each under its own namespace.
	if m.Has(fault.BladeDropSameName) {
		taken := map[string]bool{}
		for _, o := range r.servers {
			if o != s && o.conn != nil {
				for _, t := range o.conn.tools {
					taken[t.raw] = true
				}
			}
		}
		conn.tools = slices.DeleteFunc(conn.tools, func(t *tool) bool { return taken[t.raw] })
	}
	// BL-NAME-03: names equal after normalization fail the server at registration.
	if m.Has(fault.BladeNoKeyCollision) {
		return nil
	}
	var names []string
	for _, t := range conn.tools {
		if other := bladeCollision(names, t.raw); other != "" {
			return &Error{Kind: KindName, Rule: "BL-NAME-03", Source: s.name, Msg: fmt.Sprintf("tools %q and %q of server %q collide after normalization", other, t.raw, s.name)}
		}
		names = append(names, t.raw)
	}
	return nil
}

// mutateBlade applies the mutations that change how a Blade entry is
// used.
func mutateBlade(c *BladeServerConfig, m fault.Set) {
	switch {
	case m.Has(fault.BladeDropArgs) && c.transport() == TransportStdio: // BL-TRN-01: a stdio server runs its command with its args
		c.Args = nil
	case m.Has(fault.BladeDropEnv) && c.transport() == TransportStdio: // BL-TRN-02: and its env
		c.Env = nil
	case m.Has(fault.BladeSSEAsHTTP) && c.Type == TransportSSE: // BL-TRN-03: sse is the legacy HTTP+SSE transport
		c.Type = TransportHTTP
	case m.Has(fault.BladeSSENoHeaders) && c.Type == TransportSSE: // BL-TRN-04: with the entry's headers
		c.Headers = nil
	case m.Has(fault.BladeHTTPAsSSE) && c.Type == TransportHTTP: // BL-TRN-05: http is Streamable HTTP
		c.Type = TransportSSE
	case m.Has(fault.BladeHTTPNoHeaders) && c.Type == TransportHTTP: // BL-TRN-06: with the entry's headers
		c.Headers = nil
	case m.Has(fault.BladeInProcessUntyped) && c.Type == TransportInProcess: // BL-INP-03: type "in-process" sets a handle apart from the external servers
		c.Type = ""
	}
}
