package corrupt

import (
	"encoding/json"
	"os/exec"
	"sync"
)

// Corruptions of Blade's in-process servers: the servers the runner
// declares as data, and the runs of their handlers (host/inProcessTool).

func init() {
	register(
		Corruption{
			Name:   "inprocess-tools-truncated",
			Breaks: "gives an in-process server only the first of its tool() values",
			Rules:  []string{"BL-INP-01"},
			New: hookFn(eachInProcess(func(e Object) {
				if ts := e.List("tools"); len(ts) > 1 {
					e["tools"] = ts[:1]
				}
			})),
		},
		Corruption{
			Name:   "inprocess-servers-dropped",
			Breaks: "leaves the in-process servers out of a session's mcpServers",
			Rules:  []string{"BL-INP-02", "BL-INP-04"},
			New: hookFn(editParams("agent/create", func(_ *State, p Object) {
				servers := p.Object("options").Object("mcpServers")
				for alias := range servers {
					if servers.Object(alias).String("type") == "in-process" {
						delete(servers, alias)
					}
				}
			})),
		},
		Corruption{
			Name:   "inprocess-type-dropped",
			Breaks: "drops the 'in-process' discriminant, so the handle is read as an external configuration",
			Rules:  []string{"BL-INP-03"},
			New:    hookFn(eachInProcess(func(e Object) { delete(e, "type") })),
		},
		Corruption{
			Name:   "inprocess-server-spawned",
			Breaks: "starts a child process for a session with in-process servers",
			Rules:  []string{"BL-INP-05"},
			New: func() Hook {
				var once sync.Once
				return eachInProcess(func(Object) {
					once.Do(func() {
						// It reads until the proxy, which holds its stdin, exits.
						cmd := exec.Command("sh", "-c", "read -r _")
						if _, err := cmd.StdinPipe(); err == nil && cmd.Start() == nil {
							go func() { _ = cmd.Wait() }()
						}
					})
				})
			},
		},
		Corruption{
			Name:   "inprocess-pid-shifted",
			Breaks: "reports in-process handler runs in another process than the implementation's",
			Rules:  []string{"BL-INP-06"},
			New: hookFn(editParams("host/inProcessTool", func(_ *State, p Object) {
				if r := p.Object("request"); r != nil {
					if n, ok := r["pid"].(json.Number); ok {
						if pid, err := n.Int64(); err == nil {
							r["pid"] = pid + 1
						}
					}
				}
			})),
		},
		Corruption{
			Name:   "inprocess-arguments-emptied",
			Breaks: "calls in-process handlers with {} instead of the model's arguments",
			Rules:  []string{"BL-INP-07"},
			New: hookFn(editParams("host/inProcessTool", func(_ *State, p Object) {
				if r := p.Object("request"); r != nil {
					r["arguments"] = map[string]any{}
				}
			})),
		},
		Corruption{
			Name:   "inprocess-content-dropped",
			Breaks: "drops the content items of an in-process handler's response",
			Rules:  []string{"BL-INP-06", "BL-INP-08", "BL-INP-10"},
			New:    hookFn(editResult("host/inProcessTool", func(_ *State, r, _ Object) { r["content"] = []any{} })),
		},
		Corruption{
			Name:   "inprocess-iserror-flipped",
			Breaks: "inverts isError in an in-process handler's response",
			Rules:  []string{"BL-INP-08", "BL-INP-09", "BL-INP-10"},
			New:    hookFn(editResult("host/inProcessTool", func(_ *State, r, _ Object) { r["isError"] = !r.Bool("isError") })),
		},
		Corruption{
			Name:   "inprocess-descriptions-dropped",
			Breaks: "drops the descriptions of an in-process tool and of its schema's properties",
			Rules:  []string{"BL-INP-11"},
			New: hookFn(eachInProcess(func(e Object) {
				for _, t := range e.Objects("tools") {
					delete(t, "description")
					for _, prop := range t.Object("schema").Object("properties") {
						delete(asObject(prop), "description")
					}
				}
			})),
		},
	)
}

// eachInProcess changes every in-process server of the mcpServers option
// of agent/create.
func eachInProcess(f func(e Object)) Hook {
	return editParams("agent/create", func(_ *State, p Object) {
		servers := p.Object("options").Object("mcpServers")
		for alias := range servers {
			if e := servers.Object(alias); e.String("type") == "in-process" {
				f(e)
			}
		}
	})
}
