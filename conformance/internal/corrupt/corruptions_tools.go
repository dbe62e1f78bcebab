package corrupt

// Corruptions of the host's own tools (lite-agent's core Tool), of
// projections, and of the text a run answers with.

func init() {
	register(
		Corruption{
			Name:   "validation-skipped",
			Breaks: "never calls a Standard Schema's validate(): every input is taken as valid",
			Rules:  []string{"LA-TOOL-02"},
			New:    hookFn(always("host/validate", map[string]any{"issues": []any{}})),
		},
		Corruption{
			Name:   "execute-twice",
			Breaks: "runs a host tool's execute() twice for one call",
			Rules:  []string{"LA-TOOL-02", "LA-TOOL-04", "BL-NAME-02"},
			New: hookFn(onRequest("host/execute", func(s *State, m *Msg) []*Msg {
				return []*Msg{m, s.Again(m)}
			})),
		},
		Corruption{
			Name:   "string-result-as-error",
			Breaks: "treats a string returned by execute() as a tool error",
			Rules:  []string{"LA-TOOL-06"},
			New: hookFn(editResult("host/execute", func(_ *State, r, _ Object) {
				if text, ok := r["result"].(string); ok {
					r["result"] = map[string]any{"content": text, "isError": true}
				}
			})),
		},
		Corruption{
			Name:   "execute-error-ignored",
			Breaks: "ignores isError in what execute() returned: a tool error becomes a result",
			Rules:  []string{"LA-TOOL-07"},
			New: hookFn(editResult("host/execute", func(_ *State, r, _ Object) {
				if res := r.Object("result"); res != nil {
					delete(res, "isError")
				}
			})),
		},
		Corruption{
			Name:   "projection-never-archived",
			Breaks: "never archives a projection, however large",
			Rules:  []string{"LA-ARC-01", "LA-LIM-08"},
			New:    hookFn(editResult("agent/project", func(_ *State, r, _ Object) { r["archived"] = false })),
		},
		Corruption{
			Name:   "projection-bytes-of-text",
			Breaks: "measures a projection by its text alone, not the JSON it is, so archives too late",
			Rules:  []string{"LA-ARC-01", "LA-LIM-08"},
			New: hookFn(editResult("agent/project", func(_ *State, r, req Object) {
				n := 0
				for _, it := range req.Object("result").Objects("content") {
					n += len(it.String("text"))
				}
				r["bytes"] = n
			})),
		},
		Corruption{
			Name:   "send-reply-lost",
			Breaks: "resolves send() and run() with an empty text instead of the model's final reply",
			Rules:  []string{"LA-CFG-02", "LA-CFG-13", "BL-CFG-08", "LA-TOOL-06"},
			New: hookFn(chain(
				editResult("agent/send", func(_ *State, r, _ Object) { r["text"] = "" }),
				editResult("agent/run", func(_ *State, r, _ Object) { r["text"] = "" }),
			)),
		},
	)
}
