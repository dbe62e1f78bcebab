package corrupt

// Corruptions of operations and cancellation: what the implementation
// claims to have done without doing it, and signals that never fire.

func init() {
	empty := map[string]any{}
	register(
		Corruption{
			Name:   "register-not-done",
			Breaks: "resolves agent.mcp.register() at once, without validating, authorizing, connecting or registering",
			Rules:  []string{"LA-REG-01", "LA-REG-05", "LA-REG-07", "LA-NAME-02"},
			New:    hookFn(always("agent/register", empty)),
		},
		Corruption{
			Name:   "unregister-not-done",
			Breaks: "resolves agent.mcp.unregister() without closing the connection or freeing the name",
			Rules:  []string{"LA-REG-06", "LA-REG-12", "LA-REG-13", "LA-OAU-10"},
			New:    hookFn(always("agent/unregister", empty)),
		},
		Corruption{
			Name:   "close-not-done",
			Breaks: "resolves close() without cancelling work or reclaiming connections and processes",
			Rules:  []string{"LA-REG-21", "LA-REG-22", "LA-SEC-07", "LA-OAU-04", "LA-TRN-12"},
			New:    hookFn(always("agent/close", empty)),
		},
		Corruption{
			Name:   "await-idle-not-waiting",
			Breaks: "resolves awaitIdle() at once, while the agent or its associated work still runs",
			Rules:  []string{"LA-REG-15", "LA-CAT-05", "LA-CAT-06", "LA-TMO-06", "LA-OAU-37"},
			New:    hookFn(always("agent/awaitIdle", empty)),
		},
		Corruption{
			Name:   "run-abort-ignored",
			Breaks: "ignores the run's AbortSignal: a cancelled send goes on with its calls",
			Rules:  []string{"LA-TMO-05", "LA-TMO-06", "LA-SEC-07"},
			New:    hookFn(dropCancel(ToAdapter, "")),
		},
		Corruption{
			Name:   "approval-signal-not-aborted",
			Breaks: "never aborts the approval handler's signal when the run is cancelled or the agent closes",
			Rules:  []string{"LA-SEC-07", "LA-TMO-05"},
			New:    hookFn(dropCancel(ToRunner, "host/approve")),
		},
		Corruption{
			Name:   "authorize-signal-not-aborted",
			Breaks: "never aborts authorize()'s signal at the login deadline or on close()",
			Rules:  []string{"LA-OAU-04", "LA-OAU-31"},
			New:    hookFn(dropCancel(ToRunner, "host/authorize")),
		},
		Corruption{
			Name:   "clock-not-used",
			Breaks: "runs timers (connect and call timeouts, health checks) on the real clock, ignoring the host's manual clock",
			Rules:  []string{"BL-HC-01", "BL-HC-02", "LA-TMO-01", "LA-TMO-02"},
			New:    hookFn(always("agent/advanceClock", empty)),
		},
	)
}

// dropCancel drops the $/cancelRequest notifications travelling d that
// cancel a request of method (any, when empty).
func dropCancel(d Dir, method string) Hook {
	return drop("$/cancelRequest", func(s *State, m *Msg) bool {
		if m.Dir != d {
			return true
		}
		if method == "" {
			return false
		}
		id := rawOf(m.ParamsObject()["id"])
		req := s.Sent(d, id)
		return req == nil || req.Method != method
	})
}
