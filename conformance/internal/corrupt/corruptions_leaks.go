package corrupt

import (
	"fmt"
	"slices"
)

// Corruptions that leak secrets — credentials of entries, client secrets,
// tokens, authorization URLs, the servers' stderr — onto surfaces the host
// sees: list(), approvals, events, hooks, logs.

func init() {
	register(
		Corruption{
			Name:   "registered-entry-in-list",
			Breaks: "shows the entry of a server added with register(), env and headers included, in its list() entry",
			Rules:  []string{"LA-REG-11", "LA-REG-09", "LA-TRN-06"},
			New: hookFn(editListEntries(func(s *State, e Object) {
				if name := e.String("name"); s.Registered(name) {
					rawOfEntry(e)["entry"] = s.Entry(name)
				}
			})),
		},
		Corruption{
			Name:   "configured-entry-in-list",
			Breaks: "shows a configured entry, env and headers included, in list() until the server is first connected",
			Rules:  []string{"LA-REG-11", "LA-REG-09"},
			New: hookFn(editListEntries(func(s *State, e Object) {
				if en := s.Entry(e.String("name")); en != nil && e.String("status") == "configured" {
					rawOfEntry(e)["entry"] = en
				}
			})),
		},
		Corruption{
			Name:   "client-secret-in-approval",
			Breaks: "hands the approval handler the server's OAuth client credentials, client secret included, with mcp_connect",
			Rules:  []string{"LA-CC-01", "LA-CC-02", "LA-OAU-29"},
			New: hookFn(editParams("host/approve", func(s *State, p Object) {
				req := p.Object("request")
				if cc := s.Binding(req.String("server")).Object("clientCredentials"); cc != nil && req != nil {
					raw := req.Object("raw")
					if raw == nil {
						raw = Object{}
						req["raw"] = map[string]any(raw)
					}
					raw["clientCredentials"] = map[string]any(cc)
				}
			})),
		},
		Corruption{
			Name:   "client-secret-in-list",
			Breaks: "shows a server's mcpOAuth binding, client secret included, in its list() entry",
			Rules:  []string{"LA-CC-01", "LA-CC-02", "LA-OAU-29"},
			New: hookFn(editListEntries(func(s *State, e Object) {
				if b := s.Binding(e.String("name")); b != nil {
					rawOfEntry(e)["oauth"] = map[string]any(b)
				}
			})),
		},
		Corruption{
			Name:   "tokens-in-list",
			Breaks: "shows the tokens a login saved in the server's list() entry",
			Rules:  []string{"LA-OAU-29"},
			New:    tokensInList,
		},
		Corruption{
			Name:   "login-url-in-event",
			Breaks: "emits an event carrying the authorization URL when a login starts",
			Rules:  []string{"LA-OAU-29"},
			New: hookFn(onRequest("host/authorize", func(s *State, m *Msg) []*Msg {
				p := m.ParamsObject()
				req := p.Object("request")
				ev := map[string]any{"type": "error", "via": "subscribe", "server": req.String("server"),
					"message": "login required: " + req.String("url"), "data": map[string]any{"url": req.String("url")}}
				return []*Msg{s.Notify(ToRunner, "host/event", map[string]any{"agentId": p.String("agentId"), "event": ev}), m}
			})),
		},
		Corruption{
			Name:   "stderr-in-error-event",
			Breaks: "reports what stdio servers write to stderr as error events",
			Rules:  []string{"LA-SEC-19"},
			New:    stderrInErrorEvent,
		},
		Corruption{
			Name:   "stderr-in-hook",
			Breaks: "puts what a stdio server wrote to stderr into the tool:end hook payload of its calls",
			Rules:  []string{"LA-SEC-19"},
			New: hookFn(editParams("host/hook", func(s *State, p Object) {
				h := p.Object("hook")
				server, _, ok := splitToolName(h.String("name"))
				line := s.StderrLines()[server]
				if !ok || line == "" || h.String("type") != "tool:end" {
					return
				}
				if raw := h.Object("raw"); raw != nil {
					raw["stderr"] = line
				} else {
					h["raw"] = map[string]any{"stderr": line}
				}
			})),
		},
		Corruption{
			Name:   "stderr-logged",
			Breaks: "writes what stdio servers write to stderr to its logs",
			Rules:  []string{"LA-SEC-19"},
			New: hookFn(editResult("agent/logs", func(s *State, r, _ Object) {
				lines := r.List("lines")
				for _, alias := range s.Aliases() {
					if line := s.StderrLines()[alias]; line != "" {
						lines = append(lines, fmt.Sprintf("mcp server %s stderr: %s", alias, line))
					}
				}
				r["lines"] = lines
			})),
		},
		Corruption{
			Name:   "credentials-logged",
			Breaks: "logs every server entry it loads, env values and header values included",
			Rules:  []string{"LA-REG-11", "LA-SEC-19", "LA-OAU-30"},
			New: hookFn(editResult("agent/logs", func(s *State, r, _ Object) {
				lines := r.List("lines")
				for _, alias := range s.Aliases() {
					lines = append(lines, fmt.Sprintf("loaded mcp server %s: %s", alias, rawOf(map[string]any(s.Entry(alias)))))
				}
				r["lines"] = lines
			})),
		},
	)
}

// rawOfEntry returns the raw part of a list() entry, making it.
func rawOfEntry(e Object) Object {
	raw := e.Object("raw")
	if raw == nil {
		raw = Object{}
		e["raw"] = map[string]any(raw)
	}
	return raw
}

// tokensInList keeps the tokens each provider is asked to save and shows
// them in the list() entries of the servers bound to that provider.
func tokensInList() Hook {
	tokens := map[string]any{}
	save := onRequest("host/provider", func(_ *State, m *Msg) []*Msg {
		if call := m.ParamsObject().Object("call"); call.String("method") == "saveTokens" {
			tokens[call.String("provider")] = call["value"]
		}
		return []*Msg{m}
	})
	show := editListEntries(func(s *State, e Object) {
		if t, ok := tokens[s.Binding(e.String("name")).String("provider")]; ok {
			rawOfEntry(e)["tokens"] = t
		}
	})
	return chain(save, show)
}

// stderrInErrorEvent emits, before each agent's first model request (its
// servers are connected by then), an error event per stdio server with
// what it writes to stderr.
func stderrInErrorEvent() Hook {
	var told []string
	return onRequest("host/model", func(s *State, m *Msg) []*Msg {
		agent := agentOf(m)
		if slices.Contains(told, agent) {
			return []*Msg{m}
		}
		told = append(told, agent)
		var out []*Msg
		lines := s.StderrLines()
		for _, alias := range s.Aliases() {
			if line := lines[alias]; line != "" {
				ev := map[string]any{"type": "error", "via": "subscribe", "server": alias, "name": alias,
					"message": "server stderr: " + line, "data": map[string]any{"stderr": line}}
				out = append(out, s.Notify(ToRunner, "host/event", map[string]any{"agentId": agent, "event": ev}))
			}
		}
		return append(out, m)
	})
}
