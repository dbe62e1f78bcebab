package corrupt

import "strings"

// Corruptions of what the implementation reports about its servers:
// list(), Blade's mcpServerStatus() and mcpListTools().

func init() {
	register(
		Corruption{
			Name:   "raw-names-in-list",
			Breaks: "lists a server's tools in list() by their raw names, not mcp__<server>__<tool>",
			Rules:  []string{"LA-NAME-01", "LA-REG-05", "LA-REG-07", "LA-REG-09"},
			New: hookFn(editListEntries(func(_ *State, e Object) {
				for i, t := range e.List("tools") {
					if s, ok := t.(string); ok {
						if _, tool, ok := splitToolName(s); ok {
							e.List("tools")[i] = tool
						}
					}
				}
			})),
		},
		Corruption{
			Name:   "stale-shown-connected",
			Breaks: "never reports a server stale in list(): a stale one shows connected",
			Rules:  []string{"LA-CAT-02", "LA-CAT-03"},
			New:    hookFn(listStatus("stale", "connected")),
		},
		Corruption{
			Name:   "configured-shown-connected",
			Breaks: "reports servers not yet connected as connected in list()",
			Rules:  []string{"LA-REG-09"},
			New:    hookFn(listStatus("configured", "connected")),
		},
		Corruption{
			Name:   "global-shown-as-project",
			Breaks: "reports the servers of the global configuration file as coming from the project file in list()",
			Rules:  []string{"LA-REG-09"},
			New: hookFn(editListEntries(func(_ *State, e Object) {
				if e.String("source") == "global" {
					e["source"] = "project"
				}
			})),
		},
		Corruption{
			Name:   "connecting-hidden",
			Breaks: "reports a Blade server that is connecting as disconnected",
			Rules:  []string{"BL-RT-02", "BL-RT-05"},
			New: hookFn(editStatuses(func(_ *State, st Object) {
				if st.String("status") == "connecting" {
					st["status"] = "disconnected"
				}
			})),
		},
		Corruption{
			Name:   "tool-count-stale",
			Breaks: "reports a connected Blade server with toolCount 0 and no tools, counted before its tools were listed",
			Rules:  []string{"BL-CFG-01", "BL-CFG-06", "BL-RT-03"},
			New: hookFn(editStatuses(func(_ *State, st Object) {
				if st.String("status") == "connected" {
					st["toolCount"] = 0
					delete(st, "tools")
				}
			})),
		},
		Corruption{
			Name:   "connected-at-frozen",
			Breaks: "keeps a Blade server's first connectedAt after it reconnects",
			Rules:  []string{"BL-RT-08"},
			New:    connectedAtFrozen,
		},
		Corruption{
			Name:   "status-error-dropped",
			Breaks: "reports a failed Blade server's status error without its error message",
			Rules:  []string{"BL-RT-04", "BL-NAME-03"},
			New:    hookFn(editStatuses(func(_ *State, st Object) { delete(st, "error") })),
		},
		Corruption{
			Name:   "tool-info-server-missing",
			Breaks: "lists mcpListTools() entries without the serverName of their server",
			Rules:  []string{"BL-RT-09", "BL-RT-10", "BL-NAME-04", "BL-CFG-05"},
			New:    hookFn(editToolInfos(func(_ *State, t Object) { t["serverName"] = "" })),
		},
		Corruption{
			Name:   "tool-info-description-dropped",
			Breaks: "lists mcpListTools() entries with an empty description",
			Rules:  []string{"BL-RT-09"},
			New:    hookFn(editToolInfos(func(_ *State, t Object) { t["description"] = "" })),
		},
		Corruption{
			Name:   "tool-info-names-rewritten",
			Breaks: "names mcpListTools() entries serverName__toolName, a name neither the model nor the permission callback sees",
			Rules:  []string{"BL-NAME-06"},
			New: hookFn(editToolInfos(func(_ *State, t Object) {
				name := t.String("name")
				if i := strings.LastIndex(name, "__"); i >= 0 {
					name = name[i+2:]
				}
				t["name"] = t.String("serverName") + "__" + name
			})),
		},
		Corruption{
			Name:   "health-always-healthy",
			Breaks: "reads every Blade server's health as healthy, whatever its checks said",
			Rules:  []string{"BL-HC-04"},
			New: hookFn(eachResultItem("agent/mcpHealth", "servers", func(_ *State, h Object) {
				h["health"] = "healthy"
			})),
		},
		Corruption{
			Name:   "tool-infos-cached",
			Breaks: "keeps listing in mcpListTools() the tools of servers disconnected since",
			Rules:  []string{"BL-RT-07", "BL-RT-10", "BL-CFG-04"},
			New:    toolInfosCached,
		},
	)
}

// eachResultItem changes every object of the list under key of every
// answer to method.
func eachResultItem(method, key string, f func(s *State, item Object)) Hook {
	return editResult(method, func(s *State, r, _ Object) {
		for _, it := range r.Objects(key) {
			f(s, it)
		}
	})
}

// editListEntries changes every entry of every agent/list answer.
func editListEntries(f func(s *State, e Object)) Hook {
	return eachResultItem("agent/list", "servers", f)
}

// listStatus reports status from as to in list().
func listStatus(from, to string) Hook {
	return editListEntries(func(_ *State, e Object) {
		if e.String("status") == from {
			e["status"] = to
		}
	})
}

// editStatuses changes every entry of every agent/mcpStatus answer.
func editStatuses(f func(s *State, st Object)) Hook {
	return eachResultItem("agent/mcpStatus", "servers", f)
}

// editToolInfos changes every entry of every agent/mcpListTools answer.
func editToolInfos(f func(s *State, t Object)) Hook {
	return eachResultItem("agent/mcpListTools", "tools", f)
}

// connectedAtFrozen answers every status with the first connectedAt seen
// for its server.
func connectedAtFrozen() Hook {
	first := map[string]any{}
	return editStatuses(func(_ *State, st Object) {
		at, ok := st["connectedAt"]
		if !ok {
			return
		}
		if f, seen := first[st.String("name")]; seen {
			st["connectedAt"] = f
			return
		}
		first[st.String("name")] = at
	})
}

// toolInfosCached fills a cache of tool infos as servers connect (when a
// session is created and after mcpConnect or mcpReconnect: it asks the
// adapter's mcpListTools() before the runner gets the answer), and adds to
// every mcpListTools() answer the cached entries it lacks: the cache is
// never invalidated.
func toolInfosCached() Hook {
	var seen []Object
	known := map[string]bool{}
	key := func(t Object) string { return t.String("serverName") + "\x00" + t.String("name") }
	remember := func(tools []Object) {
		for _, t := range tools {
			if !known[key(t)] {
				known[key(t)] = true
				seen = append(seen, t)
			}
		}
	}
	fill := func(s *State, m *Msg) []*Msg {
		if m.Kind != Result || s.Options(agentOf(m)).String("system") != "blade" {
			return []*Msg{m}
		}
		ask := map[string]any{"agentId": agentOf(m)}
		return []*Msg{s.CallThen(ToAdapter, "agent/mcpListTools", ask, func(_ *State, answer *Msg) []*Msg {
			remember(answer.ResultObject().Objects("tools"))
			return []*Msg{m}
		})}
	}
	answer := editResult("agent/mcpListTools", func(_ *State, r, _ Object) {
		now := map[string]bool{}
		for _, t := range r.Objects("tools") {
			now[key(t)] = true
		}
		remember(r.Objects("tools"))
		tools := r.List("tools")
		for _, t := range seen {
			if !now[key(t)] {
				tools = append(tools, map[string]any(t))
			}
		}
		r["tools"] = tools
	})
	return chain(onResponse("agent/create", fill), onResponse("agent/mcpConnect", fill), onResponse("agent/mcpReconnect", fill), answer)
}
