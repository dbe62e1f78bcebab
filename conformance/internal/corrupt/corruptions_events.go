package corrupt

import (
	"encoding/json"
	"slices"
)

// Corruptions of events and hooks: lost, doubled, late, or reporting an
// outcome other than the one that happened.

func init() {
	register(
		Corruption{
			Name:   "progress-dropped",
			Breaks: "never delivers tool_progress events",
			Rules:  []string{"LA-EVT-01", "LA-EVT-02"},
			New:    hookFn(drop("host/event", func(_ *State, m *Msg) bool { return eventOf(m).String("type") != "tool_progress" })),
		},
		Corruption{
			Name:   "progress-duplicated",
			Breaks: "delivers every tool_progress event twice",
			Rules:  []string{"LA-EVT-01", "LA-EVT-02"},
			New: hookFn(onRequest("host/event", func(_ *State, m *Msg) []*Msg {
				if eventOf(m).String("type") == "tool_progress" {
					return []*Msg{m, m.Copy()}
				}
				return []*Msg{m}
			})),
		},
		Corruption{
			Name:   "events-after-close",
			Breaks: "buffers events and delivers them only once close() has returned",
			Rules:  []string{"LA-EVT-01", "LA-EVT-02", "LA-SEC-19"},
			New:    eventsAfterClose,
		},
		Corruption{
			Name:   "run-stream-without-progress",
			Breaks: "delivers tool_progress to subscribe() listeners but not to the run() stream",
			Rules:  []string{"LA-EVT-02"},
			New:    hookFn(drop("host/event", func(_ *State, m *Msg) bool { return eventOf(m).String("via") != "run" })),
		},
		Corruption{
			Name:   "tool-end-dropped",
			Breaks: "never calls the tool:end hook of an MCP tool",
			Rules:  []string{"LA-EVT-03", "LA-EVT-04", "LA-VAL-04"},
			New: hookFn(answerItself("host/hook", func(_ *State, m *Msg) (any, bool) {
				return map[string]any{}, hookOf(m).String("type") == "tool:end"
			})),
		},
		Corruption{
			Name:   "tool-start-late",
			Breaks: "calls the tool:start hook only once the call has ended, just before tool:end",
			Rules:  []string{"LA-EVT-03", "LA-REG-16"},
			New:    toolStartLate,
		},
		Corruption{
			Name:   "timeout-reported-as-success",
			Breaks: "reports an MCP call that timed out as a success in its tool:end hook",
			Rules:  []string{"LA-EVT-04", "LA-TMO-04", "LA-TMO-06"},
			New:    hookFn(outcomeAsSuccess("timeout")),
		},
		Corruption{
			Name:   "tool-end-always-success",
			Breaks: "reports every MCP call as a success in its tool:end hook, whatever happened",
			Rules:  []string{"LA-VAL-04", "LA-EVT-04"},
			New:    hookFn(outcomeAsSuccess()),
		},
		Corruption{
			Name:   "cancelled-reported-as-success",
			Breaks: "reports a cancelled MCP call as a success in its tool:end hook",
			Rules:  []string{"LA-TMO-05", "LA-TMO-06", "LA-REG-21"},
			New:    hookFn(outcomeAsSuccess("cancelled")),
		},
	)
}

// eventOf returns the event of a host/event notification.
func eventOf(m *Msg) Object { return m.ParamsObject().Object("event") }

// hookOf returns the hook of a host/hook request.
func hookOf(m *Msg) Object { return m.ParamsObject().Object("hook") }

// eventsAfterClose holds every event until an agent/close or shutdown
// answer has gone to the runner, then delivers them after it.
func eventsAfterClose() Hook {
	return func(s *State, m *Msg) []*Msg {
		switch {
		case m.Kind == Notification && m.Is("host/event"):
			s.Hold(m)
			return nil
		case m.IsResponse() && (m.Is("agent/close") || m.Is("shutdown")):
			return append([]*Msg{m}, s.Release()...)
		}
		return []*Msg{m}
	}
}

// toolStartLate answers tool:start hooks at once and calls the host's
// tool:start only when the call has ended, just before its tool:end, which
// waits for the host to answer the late tool:start.
func toolStartLate() Hook {
	starts := map[string]json.RawMessage{}
	return onRequest("host/hook", func(s *State, m *Msg) []*Msg {
		h := hookOf(m)
		switch h.String("type") {
		case "tool:start":
			starts[h.String("id")] = m.Params
			return []*Msg{s.Answer(m, map[string]any{})}
		case "tool:end":
			if params, ok := starts[h.String("id")]; ok {
				delete(starts, h.String("id"))
				start := s.CallThen(ToRunner, "host/hook", nil, func(*State, *Msg) []*Msg { return []*Msg{m} })
				start.Params = params
				return []*Msg{start}
			}
		}
		return []*Msg{m}
	})
}

// outcomeAsSuccess rewrites tool:end hooks whose outcome is one of
// outcomes (any, when none is given) into successes, in the contract's
// fields and in the implementation's raw payload alike.
func outcomeAsSuccess(outcomes ...string) Hook {
	return editParams("host/hook", func(_ *State, p Object) {
		h := p.Object("hook")
		if h.String("type") != "tool:end" {
			return
		}
		if len(outcomes) > 0 && !slices.Contains(outcomes, h.String("outcome")) {
			return
		}
		for _, o := range []Object{h, h.Object("raw")} {
			if o == nil {
				continue
			}
			if _, ok := o["outcome"]; ok || o.Bool("isError") {
				o["outcome"] = "success"
			}
			delete(o, "isError")
		}
	})
}
