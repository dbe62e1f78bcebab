package core

import (
	"encoding/json"
	"fmt"
	"strings"
)

// TransportSSE is the legacy HTTP+SSE transport, which only the Blade
// profile accepts (BL-TRN-03); lite-agent refuses it (LA-TRN-04).
const TransportSSE = "sse"

// BladeServerConfig is one Blade McpServerConfig (BL-CFG-02): the fields a
// lite-agent entry has, and disabled, alwaysAllow, oauth and healthCheck.
type BladeServerConfig struct {
	// ServerConfig holds type ("stdio", "sse" or "http"), command, args,
	// env, url and headers.
	ServerConfig
	// Disabled keeps the server unconnected until [Session.MCPConnect]
	// (BL-CFG-04, BL-CFG-05).
	Disabled bool
	// AlwaysAllow is reserved metadata: it authorizes nothing (BL-CFG-07,
	// BL-PERM-01).
	AlwaysAllow []string
	// OAuth is the server's oauth block. The reference's Blade profile
	// accepts it; a server with oauth enabled fails to connect with an
	// unsupported error, since it has no OAuth flow of its own.
	OAuth *BladeOAuth
	// HealthCheck is the server's healthCheck block, accepted and kept.
	HealthCheck *BladeHealthCheck
	// InProcess is the in-process server of a configuration of type
	// "in-process" ([InProcessServer.ServerConfig], BL-INP-04); nil for
	// the external ones.
	InProcess *InProcessServer
}

// BladeOAuth is a Blade server's oauth block.
type BladeOAuth struct {
	Provider string
	ClientID string
	// Enabled is nil when the block does not say.
	Enabled *bool
}

// enabled reports whether the block turns OAuth on (B-05: absent means on).
func (o *BladeOAuth) enabled() bool { return o != nil && (o.Enabled == nil || *o.Enabled) }

// BladeHealthCheck is a Blade server's healthCheck block.
type BladeHealthCheck struct {
	Enabled    *bool
	IntervalMs *int
}

// NamedBladeServer is one entry of a Blade mcpServers option, in the order
// the option declares them.
type NamedBladeServer struct {
	Name   string
	Config BladeServerConfig
}

// DecodeBladeServers decodes a Blade mcpServers object (name → config)
// strictly: JSON types are checked, unknown fields and duplicate names are
// refused with the field that is wrong. Values are judged by [NewSession].
func DecodeBladeServers(data []byte) ([]NamedBladeServer, error) {
	d := decoder{source: "mcpServers option"}
	members, err := d.object(data, "mcpServers")
	if err != nil {
		return nil, err
	}
	out := make([]NamedBladeServer, 0, len(members))
	for _, m := range members {
		c, err := d.bladeEntry(m.value, "mcpServers."+m.key)
		if err != nil {
			return nil, err
		}
		out = append(out, NamedBladeServer{Name: m.key, Config: c})
	}
	return out, nil
}

// bladeEntry decodes one McpServerConfig at field.
func (d *decoder) bladeEntry(data []byte, field string) (BladeServerConfig, error) {
	members, err := d.object(data, field)
	if err != nil {
		return BladeServerConfig{}, err
	}
	var c BladeServerConfig
	for _, m := range members {
		f := joinField(field, m.key)
		if ok, cerr := d.commonField(m, f, &c.ServerConfig); ok {
			if cerr != nil {
				return BladeServerConfig{}, cerr
			}
			continue
		}
		switch m.key {
		case "disabled":
			err = d.boolean(m.value, f, &c.Disabled)
		case "alwaysAllow":
			err = d.strings(m.value, f, &c.AlwaysAllow)
		case "oauth":
			c.OAuth, err = d.bladeOAuth(m.value, f)
		case "healthCheck":
			c.HealthCheck, err = d.bladeHealthCheck(m.value, f)
		default:
			err = d.fail("BL-CFG-02", f, "unknown field %q; an McpServerConfig has command, args, env, disabled, alwaysAllow, type, url, headers, oauth and healthCheck", m.key)
		}
		if err != nil {
			return BladeServerConfig{}, err
		}
	}
	return c, nil
}

func (d *decoder) bladeOAuth(data []byte, field string) (*BladeOAuth, error) {
	members, err := d.object(data, field)
	if err != nil {
		return nil, err
	}
	o := &BladeOAuth{}
	seen := false
	for _, m := range members {
		f := joinField(field, m.key)
		switch m.key {
		case "provider":
			seen = true
			err = d.str(m.value, f, &o.Provider)
		case "clientId":
			err = d.str(m.value, f, &o.ClientID)
		case "enabled":
			var b bool
			err = d.boolean(m.value, f, &b)
			o.Enabled = &b
		default:
			err = d.fail("BL-CFG-02", f, "unknown field %q; oauth has provider, clientId and enabled", m.key)
		}
		if err != nil {
			return nil, err
		}
	}
	if !seen {
		return nil, d.fail("BL-CFG-02", joinField(field, "provider"), "oauth needs a provider")
	}
	return o, nil
}

func (d *decoder) bladeHealthCheck(data []byte, field string) (*BladeHealthCheck, error) {
	members, err := d.object(data, field)
	if err != nil {
		return nil, err
	}
	h := &BladeHealthCheck{}
	for _, m := range members {
		f := joinField(field, m.key)
		switch m.key {
		case "enabled":
			var b bool
			err = d.boolean(m.value, f, &b)
			h.Enabled = &b
		case "intervalMs":
			var n int
			if uerr := json.Unmarshal(m.value, &n); uerr != nil || n < 1 {
				err = d.fail("BL-CFG-02", f, "intervalMs must be a positive whole number of milliseconds, not %s", describeRaw(m.value))
			}
			h.IntervalMs = &n
		default:
			err = d.fail("BL-CFG-02", f, "unknown field %q; healthCheck has enabled and intervalMs", m.key)
		}
		if err != nil {
			return nil, err
		}
	}
	return h, nil
}

func (d *decoder) boolean(raw json.RawMessage, field string, out *bool) error {
	if err := json.Unmarshal(raw, out); err != nil {
		return d.fail("BL-CFG-02", field, "must be true or false, not %s", describeRaw(raw))
	}
	return nil
}

// validateBlade checks a Blade entry: its type is stdio, sse or http
// (BL-CFG-03), a stdio entry has a command, a remote one a URL that
// passes the network policy the reference applies everywhere.
func (d *decoder) validateBlade(c *BladeServerConfig, field string) error {
	switch c.Type {
	case TransportInProcess:
		// BL-INP-03: type "in-process" is a handle, never an external server.
		if c.InProcess == nil {
			return d.fail("BL-INP-03", joinField(field, "type"), "an \"in-process\" server is a handle made by createSdkMcpServer; a configuration cannot name one")
		}
		if c.Command != "" || c.Args != nil || c.Env != nil || c.URL != "" || c.Headers != nil {
			return d.fail("BL-INP-03", field, "an in-process server has no command, args, env, url or headers")
		}
	case "", TransportStdio:
		if c.Type == "" && c.URL != "" && c.Command == "" {
			return d.fail("BL-CFG-03", joinField(field, "type"), "an entry with \"url\" must say whether it is \"sse\" or \"http\"")
		}
		if c.Command == "" {
			return d.fail("BL-CFG-02", joinField(field, "command"), "a stdio server needs a non-empty \"command\"")
		}
		if c.URL != "" || c.Headers != nil {
			return d.fail("BL-CFG-02", field, "\"url\" and \"headers\" belong to sse and http servers, not stdio")
		}
	case TransportSSE, TransportHTTP:
		if c.Command != "" || c.Args != nil || c.Env != nil {
			return d.fail("BL-CFG-02", field, "\"command\", \"args\" and \"env\" belong to stdio servers, not %s", c.Type)
		}
		if err := d.checkURL(c.URL); err != nil {
			return d.policy(err, joinField(field, "url"))
		}
	default:
		return d.fail("BL-CFG-03", joinField(field, "type"), "unknown type %q; use \"stdio\", \"sse\" or \"http\"", c.Type)
	}
	return nil
}

// bladeKey is the normalized form of a server key or tool name under
// which Blade names collide (BL-NAME-03, interpretation B-02): ASCII
// letters folded to lower case, and '-', '.' and ' ' read as '_'.
func bladeKey(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'A' <= r && r <= 'Z':
			return r + 'a' - 'A'
		case r == '-' || r == '.' || r == ' ':
			return '_'
		}
		return r
	}, name)
}

// bladeCollision names the earlier of names that collides with name after
// normalization, or "".
func bladeCollision(names []string, name string) string {
	k := bladeKey(name)
	for _, n := range names {
		if bladeKey(n) == k {
			return n
		}
	}
	return ""
}

// errBladeOAuth is why a server with oauth enabled does not connect.
func errBladeOAuth(name string) error {
	return &Error{Kind: KindUnsupported, Rule: "BL-OAU-01", Source: name, Msg: fmt.Sprintf("server %q has oauth enabled; the reference's Blade profile has no OAuth flow", name)}
}
