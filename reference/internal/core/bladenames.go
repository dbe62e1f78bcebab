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
	case m.Has(fault.BladeDropArgs) && c.transport() == TransportStdio:
		c.Args = nil
	case m.Has(fault.BladeDropEnv) && c.transport() == TransportStdio:
		c.Env = nil
	case m.Has(fault.BladeSSEAsHTTP) && c.Type == TransportSSE:
		c.Type = TransportHTTP
	case m.Has(fault.BladeSSENoHeaders) && c.Type == TransportSSE:
		c.Headers = nil
	case m.Has(fault.BladeHTTPAsSSE) && c.Type == TransportHTTP:
		c.Type = TransportSSE
	case m.Has(fault.BladeHTTPNoHeaders) && c.Type == TransportHTTP:
		c.Headers = nil
	}
}
