package corrupt

// Corruptions of failures: the implementation throws the wrong kind of
// error, or none.

func init() {
	register(
		Corruption{
			Name:   "name-error-as-config",
			Breaks: "reports an invalid alias or tool name as a generic configuration error",
			Rules:  []string{"LA-NAME-02", "LA-NAME-04", "LA-CFG-10"},
			New:    hookFn(retypeError("name", "config")),
		},
		Corruption{
			Name:   "security-error-as-config",
			Breaks: "reports a refused URL, header, redirect or issuer as a configuration error",
			Rules:  []string{"LA-NET-05", "LA-NET-06", "LA-CC-03", "LA-CC-04"},
			New:    hookFn(retypeError("security", "config")),
		},
		Corruption{
			Name:   "limit-error-as-config",
			Breaks: "reports an exceeded limit as a configuration error",
			Rules:  []string{"LA-LIM-01", "LA-LIM-02", "LA-LIM-03"},
			New:    hookFn(retypeError("limit", "config")),
		},
		Corruption{
			Name:   "protocol-error-as-transport",
			Breaks: "reports a server that speaks another MCP version as a connection failure",
			Rules:  []string{"LA-TRN-02"},
			New:    hookFn(retypeError("protocol", "transport")),
		},
		Corruption{
			Name:   "timeout-error-as-transport",
			Breaks: "reports a timeout as a connection failure",
			Rules:  []string{"LA-TMO-01", "LA-TMO-04", "LA-REG-08", "LA-OAU-33"},
			New:    hookFn(retypeError("timeout", "transport")),
		},
		Corruption{
			Name:   "config-error-as-internal",
			Breaks: "throws a plain internal error for an invalid configuration",
			Rules:  []string{"LA-CFG-07", "LA-CFG-10", "LA-TMO-03"},
			New:    hookFn(retypeError("config", "internal")),
		},
		Corruption{
			Name:   "conflict-error-as-config",
			Breaks: "reports a name declared twice as a configuration error, not a conflict",
			Rules:  []string{"LA-REG-04", "LA-REG-05", "LA-OAU-10"},
			New:    hookFn(retypeError("conflict", "config")),
		},
		Corruption{
			Name:   "busy-change-succeeds",
			Breaks: "returns success for a registry change refused because the agent is busy",
			Rules:  []string{"LA-REG-15"},
			New:    hookFn(errorAsSuccess("busy", map[string]any{})),
		},
		Corruption{
			Name:   "closed-agent-answers",
			Breaks: "lets a closed agent answer a send with an empty reply instead of failing",
			Rules:  []string{"LA-REG-22"},
			New:    hookFn(errorAsSuccess("closed", map[string]any{"text": ""})),
		},
	)
}

// errorAsSuccess answers the runner with result where the adapter failed
// an agent/* operation with an error of kind.
func errorAsSuccess(kind string, result any) Hook {
	return func(s *State, m *Msg) []*Msg {
		if m.Kind == Error && m.Dir == ToRunner && m.ErrorKind() == kind && m.Request != nil {
			return []*Msg{s.Answer(m.Request, result)}
		}
		return []*Msg{m}
	}
}
