package corrupt

import (
	"encoding/json"
	"slices"
	"strings"
)

// Corruptions of what the model is offered and given: the tools of a
// model request, their names, order and schemas, the tool results, and the
// calls the implementation makes of the model's answers.

func init() {
	register(
		Corruption{
			Name:   "mcp-schema-generic",
			Breaks: `offers MCP tools to the model with a generic {"type":"object"} input schema instead of the server's`,
			Rules:  []string{"LA-CAT-04", "LA-VAL-01", "LA-NAME-01", "BL-NAME-01"},
			New: hookFn(editModelTools(func(_ *State, _ Object, tools []any) []any {
				for _, t := range tools {
					if o := asObject(t); isMCPTool(o.String("name")) {
						o["inputSchema"] = map[string]any{"type": "object"}
					}
				}
				return tools
			})),
		},
		Corruption{
			Name:   "descriptions-dropped",
			Breaks: "offers the model its tools without their descriptions",
			Rules:  []string{"LA-NAME-01", "LA-TOOL-03", "BL-NAME-01", "BL-RT-09"},
			New: hookFn(editModelTools(func(_ *State, _ Object, tools []any) []any {
				for _, t := range tools {
					delete(asObject(t), "description")
				}
				return tools
			})),
		},
		Corruption{
			Name:   "withdrawn-tools-offered",
			Breaks: "keeps offering the model the tools of servers that were unregistered, disconnected or hidden since",
			Rules:  []string{"LA-REG-06", "LA-REG-12", "LA-REG-18", "LA-CAT-06", "BL-RT-07"},
			New:    withdrawnToolsOffered,
		},
		Corruption{
			Name:   "tool-names-truncated",
			Breaks: "offers the model tool names cut to 40 characters, mapping its calls back",
			Rules:  []string{"LA-NAME-05", "LA-NAME-01"},
			New:    toolNamesTruncated,
		},
		Corruption{
			Name:   "phantom-resource-tools",
			Breaks: "offers the model a read_resource tool for every MCP server, though resources are not supported",
			Rules:  []string{"LA-TRN-07", "LA-CFG-02", "LA-REG-01"},
			New: hookFn(editModelTools(func(_ *State, _ Object, tools []any) []any {
				var servers []string
				for _, t := range tools {
					if server, _, ok := splitToolName(asObject(t).String("name")); ok && !slices.Contains(servers, server) {
						servers = append(servers, server)
					}
				}
				for _, server := range servers {
					tools = append(tools, map[string]any{"name": "mcp__" + server + "__read_resource", "description": "Read a resource of " + server,
						"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"uri": map[string]any{"type": "string"}}, "required": []any{"uri"}}})
				}
				return tools
			})),
		},
		Corruption{
			Name:   "tool-list-capped",
			Breaks: "offers the model at most 64 tools, dropping the rest",
			Rules:  []string{"LA-LIM-02"},
			New: hookFn(editModelTools(func(_ *State, _ Object, tools []any) []any {
				return tools[:min(len(tools), 64)]
			})),
		},
		Corruption{
			Name:   "mcp-tools-first",
			Breaks: "offers a Blade session's MCP tools before its built-in and application tools",
			Rules:  []string{"BL-ORD"},
			New: hookFn(editBladeTools(func(_ *State, tools []Object) {
				slices.SortStableFunc(tools, func(a, b Object) int { return boolOrder(!isMCPTool(a.String("name")), !isMCPTool(b.String("name"))) })
			})),
		},
		Corruption{
			Name:   "mcp-tools-in-config-order",
			Breaks: "offers a Blade session's MCP tools server by server in configuration order, not sorted by name",
			Rules:  []string{"BL-ORD-03"},
			New: hookFn(editBladeTools(func(s *State, tools []Object) {
				order := s.Aliases()
				rank := func(t Object) int {
					server, _, ok := splitToolName(t.String("name"))
					if i := slices.Index(order, server); ok && i >= 0 {
						return i
					}
					return len(order)
				}
				slices.SortStableFunc(tools, func(a, b Object) int {
					if ma, mb := isMCPTool(a.String("name")), isMCPTool(b.String("name")); ma != mb || !ma {
						return 0
					}
					return rank(a) - rank(b)
				})
			})),
		},
		Corruption{
			Name:   "case-insensitive-order",
			Breaks: "sorts a Blade session's tools case-insensitively instead of by UTF-16 code units",
			Rules:  []string{"BL-ORD"},
			New: hookFn(editBladeTools(func(_ *State, tools []Object) {
				slices.SortStableFunc(tools, func(a, b Object) int {
					an, bn := a.String("name"), b.String("name")
					if c := boolOrder(isMCPTool(an), isMCPTool(bn)); c != 0 {
						return c
					}
					return strings.Compare(strings.ToLower(an), strings.ToLower(bn))
				})
			})),
		},
		Corruption{
			Name:   "app-tool-shadowed",
			Breaks: "lets an MCP tool named like an application tool (Read) replace it for the model and for its calls",
			Rules:  []string{"BL-NAME-02"},
			New:    appToolShadowed,
		},
		Corruption{
			Name:   "tool-error-flag-inverted",
			Breaks: "gives the model tool errors as successes and successes as errors",
			Rules:  []string{"LA-VAL-01", "LA-VAL-04", "LA-SEC-07", "LA-TOOL-07", "LA-TMO-04", "BL-INP-07"},
			New: hookFn(editToolMessages(func(_ *State, msg Object, _ []Object) {
				msg["isError"] = !msg.Bool("isError")
				if p := msg.Object("projection"); p != nil {
					p["isError"] = !p.Bool("isError")
				}
			})),
		},
		Corruption{
			Name:   "structured-content-stringified",
			Breaks: "gives the model a scalar structuredContent as a string (42 becomes \"42\")",
			Rules:  []string{"LA-VAL-07"},
			New:    hookFn(editToolMessages(stringifyStructured)),
		},
		Corruption{
			Name:   "context-offset-ignored",
			Breaks: "reads the session archive from its start whatever offset the model's context call asks for",
			Rules:  []string{"LA-ARC-05"},
			New: hookFn(eachResultItem("host/model", "toolCalls", func(_ *State, c Object) {
				if args := c.Object("arguments"); c.String("name") == "context" && args != nil {
					args["offset"] = 0
				}
			})),
		},
		Corruption{
			Name:   "archive-inlined",
			Breaks: "gives the model large results, media and embedded resources inline instead of a context reference",
			Rules:  []string{"LA-ARC-01", "LA-ARC-02", "LA-ARC-03", "LA-ARC-04"},
			New:    hookFn(editToolMessages(inlineArchived)),
		},
		Corruption{
			Name:   "failed-call-replayed",
			Breaks: "calls a tool again, once, when its call failed (an unknown outcome replayed)",
			Rules:  []string{"LA-TMO-06", "LA-OAU-38"},
			New:    failedCallReplayed,
		},
	)
}

// isMCPTool reports whether a tool offered to the model is an MCP tool.
func isMCPTool(name string) bool { return strings.HasPrefix(name, "mcp__") }

// boolOrder orders false before true.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// editModelTools changes the tools of every host/model request; f gets
// the request and its tools and returns the tools to offer.
func editModelTools(f func(s *State, req Object, tools []any) []any) Hook {
	return editParams("host/model", func(s *State, p Object) {
		if req := p.Object("request"); req != nil {
			req["tools"] = f(s, req, req.List("tools"))
		}
	})
}

// editBladeTools reorders, in place, the tools of the model requests of
// Blade sessions.
func editBladeTools(f func(s *State, tools []Object)) Hook {
	return editParams("host/model", func(s *State, p Object) {
		if s.Options(p.String("agentId")).String("system") != "blade" {
			return
		}
		req := p.Object("request")
		tools := req.Objects("tools")
		f(s, tools)
		list := make([]any, len(tools))
		for i, t := range tools {
			list[i] = map[string]any(t)
		}
		req["tools"] = list
	})
}

// editToolMessages changes every tool message of every host/model
// request; f sees the whole conversation too.
func editToolMessages(f func(s *State, msg Object, conversation []Object)) Hook {
	return editParams("host/model", func(s *State, p Object) {
		msgs := p.Object("request").Objects("messages")
		for _, msg := range msgs {
			if msg.String("role") == "tool" {
				f(s, msg, msgs)
			}
		}
	})
}

// withdrawnToolsOffered remembers every MCP tool ever offered and offers
// all of them in every later request.
func withdrawnToolsOffered() Hook {
	var seen []Object
	return editModelTools(func(_ *State, _ Object, tools []any) []any {
		var names []string
		for _, t := range tools {
			o := asObject(t)
			names = append(names, o.String("name"))
			if isMCPTool(o.String("name")) && !slices.ContainsFunc(seen, func(x Object) bool { return x.String("name") == o.String("name") }) {
				seen = append(seen, o)
			}
		}
		for _, t := range seen {
			if !slices.Contains(names, t.String("name")) {
				tools = append(tools, map[string]any(t))
			}
		}
		return tools
	})
}

// toolNamesTruncated offers the model tool names of at most 40
// characters and maps its calls of them back to the full names.
func toolNamesTruncated() Hook {
	full := map[string]string{}
	offer := editModelTools(func(_ *State, _ Object, tools []any) []any {
		for _, t := range tools {
			if o := asObject(t); len(o.String("name")) > 40 {
				short := o.String("name")[:40]
				full[short] = o.String("name")
				o["name"] = short
			}
		}
		return tools
	})
	return chain(offer, renameCalls(full))
}

// renameCalls renames the model's tool calls of the names in names, so
// that what the model was offered under another name reaches the tool it
// stands for.
func renameCalls(names map[string]string) Hook {
	return eachResultItem("host/model", "toolCalls", func(_ *State, c Object) {
		if name, ok := names[c.String("name")]; ok {
			c["name"] = name
		}
	})
}

// appToolShadowed replaces an application tool with the MCP tool of the
// same name, for the model and for the calls it makes.
func appToolShadowed() Hook {
	shadow := map[string]string{} // application tool name → MCP tool name
	offer := editModelTools(func(_ *State, _ Object, tools []any) []any {
		byName := map[string]Object{}
		for _, t := range tools {
			byName[asObject(t).String("name")] = asObject(t)
		}
		var out []any
		for _, t := range tools {
			o := asObject(t)
			name := o.String("name")
			if _, tool, ok := splitToolName(name); ok && byName[tool] != nil {
				shadow[tool] = name
				continue // the MCP tool takes the application tool's place
			}
			out = append(out, t)
		}
		for i, t := range out {
			o := asObject(t)
			if mcp, ok := shadow[o.String("name")]; ok {
				m := byName[mcp]
				out[i] = map[string]any{"name": o.String("name"), "description": m["description"], "inputSchema": m["inputSchema"]}
			}
		}
		return out
	})
	return chain(offer, renameCalls(shadow))
}

// stringifyStructured turns a scalar structuredContent of a tool message
// into a string, in its text and in the adapter's parse of it.
func stringifyStructured(_ *State, msg Object, _ []Object) {
	str := func(o Object) {
		switch v := o["structuredContent"].(type) {
		case json.Number, bool:
			o["structuredContent"] = string(rawOf(v))
		}
	}
	if p := msg.Object("projection"); p != nil {
		str(p)
	}
	if t := asObject(decodeAny(json.RawMessage(msg.String("text")))); t != nil {
		str(t)
		msg["text"] = string(rawOf(t))
	}
}

// inlineArchived replaces a tool message that refers to the session
// archive with what the server answered, as its stdio script says.
func inlineArchived(s *State, msg Object, conversation []Object) {
	archived := msg.Object("context") != nil
	for _, it := range msg.Object("projection").Objects("content") {
		archived = archived || it.Object("context") != nil
	}
	if !archived {
		return
	}
	server, tool, ok := splitToolName(callOf(conversation, msg.String("toolCallId")).String("name"))
	if !ok {
		return
	}
	sc := s.Script(server)
	if sc == nil {
		return
	}
	call, ok := sc.Calls[tool]
	if !ok {
		return
	}
	text := call.Text
	if len(call.Result) > 0 {
		text = string(call.Result)
	}
	msg["text"] = text
	delete(msg, "context")
	delete(msg, "projection")
}

// failedCallReplayed answers a model request whose last message is a
// failed tool call with that call again, once: the implementation runs it
// a second time before the model sees the failure.
func failedCallReplayed() Hook {
	replayed := map[string]bool{}
	return answerItself("host/model", func(s *State, m *Msg) (any, bool) {
		msgs := m.ParamsObject().Object("request").Objects("messages")
		if len(msgs) == 0 {
			return nil, false
		}
		last := msgs[len(msgs)-1]
		id := last.String("toolCallId")
		if last.String("role") != "tool" || !last.Bool("isError") || replayed[id] || strings.HasSuffix(id, "-again") {
			return nil, false
		}
		call := callOf(msgs, id)
		if call == nil {
			return nil, false
		}
		replayed[id] = true
		again := map[string]any{"id": id + "-again", "name": call.String("name"), "arguments": call["arguments"]}
		return map[string]any{"toolCalls": []any{again}}, true
	})
}

// callOf finds the assistant's tool call of that id in a conversation.
func callOf(msgs []Object, id string) Object {
	for _, msg := range msgs {
		for _, c := range msg.Objects("toolCalls") {
			if c.String("id") == id {
				return c
			}
		}
	}
	return nil
}
