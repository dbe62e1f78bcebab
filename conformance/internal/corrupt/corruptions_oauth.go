package corrupt

// Corruptions of OAuth: what the implementation asks the host's provider,
// and what it never does.

func init() {
	register(
		Corruption{
			Name:   "tokens-never-saved",
			Breaks: "keeps the tokens of a login in memory instead of saving them through the provider",
			Rules:  []string{"LA-OAU-08", "LA-OAU-11", "LA-OAU-12"},
			New: hookFn(answerItself("host/provider", func(_ *State, m *Msg) (any, bool) {
				return map[string]any{"value": nil}, providerCall(m).String("method") == "saveTokens"
			})),
		},
		Corruption{
			Name:   "provider-state-called",
			Breaks: "asks the host's provider for state() at every login, a member lite-agent manages itself",
			Rules:  []string{"LA-OAU-07"},
			New: hookFn(onRequest("host/authorize", func(s *State, m *Msg) []*Msg {
				p := m.ParamsObject()
				provider := s.Binding(p.Object("request").String("server")).String("provider")
				if provider == "" {
					return []*Msg{m}
				}
				call := map[string]any{"agentId": p.String("agentId"), "call": map[string]any{"provider": provider, "method": "state"}}
				return []*Msg{s.Call(ToRunner, "host/provider", call), m}
			})),
		},
		Corruption{
			Name:   "machine-login-interactive",
			Breaks: "calls the host's authorize() for a server bound to client credentials, as for an interactive login",
			Rules:  []string{"LA-CC-01", "LA-CC-02"},
			New:    machineLoginInteractive,
		},
		Corruption{
			Name:   "logout-on-unregister",
			Breaks: "invalidates the provider's credentials when a server is unregistered",
			Rules:  []string{"LA-OAU-11", "LA-OAU-08"},
			New: hookFn(onRequest("agent/unregister", func(s *State, m *Msg) []*Msg {
				p := m.ParamsObject()
				provider := s.Binding(p.String("name")).String("provider")
				if provider == "" || m.Kind != Request {
					return []*Msg{m}
				}
				call := map[string]any{"agentId": p.String("agentId"), "call": map[string]any{"provider": provider, "method": "invalidateCredentials", "value": "all"}}
				return []*Msg{s.Call(ToRunner, "host/provider", call), m}
			})),
		},
	)
}

// providerCall returns the call of a host/provider request.
func providerCall(m *Msg) Object { return m.ParamsObject().Object("call") }

// machineLoginInteractive calls the host's authorize() once for every
// server bound to client credentials, when its connection is approved.
func machineLoginInteractive() Hook {
	asked := map[string]bool{}
	return onRequest("host/approve", func(s *State, m *Msg) []*Msg {
		p := m.ParamsObject()
		server := p.Object("request").String("server")
		b := s.Binding(server)
		if b.Object("clientCredentials") == nil || asked[server] {
			return []*Msg{m}
		}
		asked[server] = true
		login := map[string]any{"agentId": p.String("agentId"), "request": map[string]any{"server": server, "url": b.String("serverUrl")}}
		return []*Msg{s.Call(ToRunner, "host/authorize", login), m}
	})
}
