package corrupt

import (
	"net/url"
	"strings"
)

// Corruptions of configuration: options and entry fields the
// implementation ignores, normalizes or interpolates instead of honouring
// them as written.

func init() {
	register(
		Corruption{
			Name:   "strict-config-ignored",
			Breaks: "ignores strictMcpConfig and reads the configuration files anyway",
			Rules:  []string{"LA-CFG-15"},
			New:    hookFn(stripOption("strictMcpConfig")),
		},
		Corruption{
			Name:   "home-ignored",
			Breaks: "ignores the <home> option and reads the global configuration from ~/.lite-agent",
			Rules:  []string{"LA-CFG-03"},
			New:    hookFn(stripOption("home")),
		},
		Corruption{
			Name:   "policy-ignored",
			Breaks: "ignores the permission policy option and applies the default policy",
			Rules:  []string{"LA-SEC-01", "LA-SEC-03", "LA-REG-19", "LA-TOOL-02"},
			New:    hookFn(stripOption("permission")),
		},
		Corruption{
			Name:   "allowed-tools-ignored",
			Breaks: "ignores allowedTools and offers the model every tool",
			Rules:  []string{"LA-SEC-08", "LA-SEC-09"},
			New:    hookFn(stripOption("allowedTools")),
		},
		Corruption{
			Name:   "sandbox-ignored",
			Breaks: "starts stdio servers directly, not through the host's sandbox command",
			Rules:  []string{"LA-SEC-14"},
			New:    hookFn(stripOption("sandbox")),
		},
		Corruption{
			Name:   "transports-unrestricted",
			Breaks: "ignores mcpTransports and accepts every transport",
			Rules:  []string{"LA-SEC-21"},
			New:    hookFn(stripOption("mcpTransports")),
		},
		Corruption{
			Name:   "subagent-allowlist-ignored",
			Breaks: "gives a sub-agent its root's tools instead of its own allowedTools",
			Rules:  []string{"LA-REG-18"},
			New:    hookFn(stripSubagentOption("allowedTools")),
		},
		Corruption{
			Name:   "subagent-policy-ignored",
			Breaks: "runs a sub-agent under its root's policy instead of its own stricter one",
			Rules:  []string{"LA-REG-19"},
			New:    hookFn(stripSubagentOption("permission")),
		},
		Corruption{
			Name:   "disabled-ignored",
			Breaks: "connects Blade servers marked disabled when the session is created",
			Rules:  []string{"BL-CFG-04", "BL-CFG-05", "BL-RT-01", "BL-RT-05", "BL-RT-06"},
			New:    hookFn(eachEntry(func(_ string, e Object) { delete(e, "disabled") })),
		},
		Corruption{
			Name:   "health-check-ignored",
			Breaks: "never runs a Blade server's enabled health check",
			Rules:  []string{"BL-HC"},
			New:    hookFn(eachEntry(func(_ string, e Object) { delete(e, "healthCheck") })),
		},
		Corruption{
			Name:   "stdio-env-dropped",
			Breaks: "starts a stdio server without the env its entry sets",
			Rules:  []string{"BL-TRN-02", "LA-SEC-17"},
			New: hookFn(eachEntry(func(_ string, e Object) {
				if _, stdio := e["command"]; stdio {
					delete(e, "env")
				}
			})),
		},
		Corruption{
			Name:   "headers-dropped",
			Breaks: "sends an HTTP server's requests without the headers its entry configures",
			Rules:  []string{"LA-TRN-06", "BL-TRN-04", "BL-TRN-06", "LA-OAU-27"},
			New:    hookFn(eachEntry(func(_ string, e Object) { delete(e, "headers") })),
		},
		Corruption{
			Name:   "urls-normalized",
			Breaks: "drops the user credentials and the fragment of a server URL instead of refusing it",
			Rules:  []string{"LA-NET-04", "LA-NET-05", "LA-REG-01"},
			New: hookFn(eachEntry(func(_ string, e Object) {
				if u, err := url.Parse(e.String("url")); err == nil && u.Scheme != "" {
					u.User, u.Fragment, u.RawFragment = nil, "", ""
					e["url"] = strings.TrimSuffix(u.String(), "#")
				}
			})),
		},
		Corruption{
			Name:   "reserved-headers-dropped",
			Breaks: "silently drops configured headers of the MCP transport (Mcp-Session-Id, MCP-Protocol-Version) instead of refusing them",
			Rules:  []string{"LA-NET-06"},
			New: hookFn(eachEntry(func(_ string, e Object) {
				for k := range e.Object("headers") {
					if strings.EqualFold(k, "Mcp-Session-Id") || strings.EqualFold(k, "MCP-Protocol-Version") {
						delete(e.Object("headers"), k)
					}
				}
			})),
		},
		Corruption{
			Name:   "config-interpolated",
			Breaks: "expands ${VAR} and $VAR from the host environment in entries' args, env, headers and URLs",
			Rules:  []string{"LA-CFG-08", "LA-SEC-16"},
			New:    hookFn(eachEntry(interpolateEntry)),
		},
		Corruption{
			Name:   "login-deadline-ignored",
			Breaks: "ignores an mcpOAuth binding's timeoutMs: no login deadline, and no check of its range",
			Rules:  []string{"LA-OAU-04", "LA-OAU-32"},
			New:    hookFn(eachBinding(func(_ string, b Object) { delete(b, "timeoutMs") })),
		},
		Corruption{
			Name:   "server-url-normalized",
			Breaks: "compares an mcpOAuth binding's serverUrl with the server's URL after trimming a trailing slash",
			Rules:  []string{"LA-OAU-23"},
			New: hookFn(eachBinding(func(_ string, b Object) {
				if u := b.String("serverUrl"); strings.HasSuffix(u, "/") {
					b["serverUrl"] = strings.TrimRight(u, "/")
				}
			})),
		},
	)
}

// stripSubagentOption removes a field of agent/subagent's options.
func stripSubagentOption(field string) Hook {
	return editParams("agent/subagent", func(_ *State, p Object) {
		if o := p.Object("options"); o != nil {
			delete(o, field)
		}
	})
}

// eachBinding changes every mcpOAuth binding of agent/create.
func eachBinding(f func(server string, b Object)) Hook {
	return editParams("agent/create", func(_ *State, p Object) {
		bindings := p.Object("options").Object("mcpOAuth")
		for server := range bindings {
			if b := bindings.Object(server); b != nil {
				f(server, b)
			}
		}
	})
}

// interpolateEntry expands variables in an entry's strings.
func interpolateEntry(_ string, e Object) {
	if u, ok := e["url"].(string); ok {
		e["url"] = interpolate(u)
	}
	if args := e.List("args"); args != nil {
		for i, a := range args {
			if s, ok := a.(string); ok {
				args[i] = interpolate(s)
			}
		}
	}
	for _, key := range []string{"env", "headers"} {
		m := e.Object(key)
		for k, v := range m {
			if s, ok := v.(string); ok {
				m[k] = interpolate(s)
			}
		}
	}
}
