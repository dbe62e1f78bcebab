package corrupt

// Building blocks of hooks. The protocol's requests travel one way by
// method: agent/* (and shutdown) from the runner to the adapter, host/*
// from the adapter to the runner; their answers come back the other way.

// hookFn adapts a stateless function to a corruption's New.
func hookFn(h Hook) func() Hook { return func() Hook { return h } }

// onRequest applies f to the requests and notifications of method;
// everything else passes.
func onRequest(method string, f func(s *State, m *Msg) []*Msg) Hook {
	return func(s *State, m *Msg) []*Msg {
		if !m.IsResponse() && m.Is(method) {
			return f(s, m)
		}
		return []*Msg{m}
	}
}

// onResponse applies f to the answers (results and errors) to requests of
// method; everything else passes.
func onResponse(method string, f func(s *State, m *Msg) []*Msg) Hook {
	return func(s *State, m *Msg) []*Msg {
		if m.IsResponse() && m.Is(method) {
			return f(s, m)
		}
		return []*Msg{m}
	}
}

// editParams changes the params of every request or notification of
// method.
func editParams(method string, f func(s *State, p Object)) Hook {
	return onRequest(method, func(s *State, m *Msg) []*Msg {
		m.EditParams(func(p Object) { f(s, p) })
		return []*Msg{m}
	})
}

// editResult changes the result of every successful answer to a request
// of method; f sees the request's params too.
func editResult(method string, f func(s *State, r Object, req Object)) Hook {
	return onResponse(method, func(s *State, m *Msg) []*Msg {
		if m.Kind == Result {
			var req Object
			if m.Request != nil {
				req = m.Request.ParamsObject()
			}
			m.EditResult(func(r Object) { f(s, r, req) })
		}
		return []*Msg{m}
	})
}

// answerItself answers requests of method without forwarding them, with
// what answer returns; when it returns false the request goes on.
func answerItself(method string, answer func(s *State, m *Msg) (any, bool)) Hook {
	return onRequest(method, func(s *State, m *Msg) []*Msg {
		if m.Kind != Request {
			return []*Msg{m}
		}
		if res, ok := answer(s, m); ok {
			return []*Msg{s.Answer(m, res)}
		}
		return []*Msg{m}
	})
}

// always answers every request of method with result.
func always(method string, result any) Hook {
	return answerItself(method, func(*State, *Msg) (any, bool) { return result, true })
}

// drop drops every request or notification of method that keep selects.
func drop(method string, keep func(s *State, m *Msg) bool) Hook {
	return onRequest(method, func(s *State, m *Msg) []*Msg {
		if keep != nil && keep(s, m) {
			return []*Msg{m}
		}
		return nil
	})
}

// stripOption removes fields of the agent options of agent/create.
func stripOption(fields ...string) Hook {
	return editParams("agent/create", func(_ *State, p Object) {
		if o := p.Object("options"); o != nil {
			for _, f := range fields {
				delete(o, f)
			}
		}
	})
}

// eachEntry changes every server entry the runner declares, through the
// mcpServers option of agent/create and through agent/register.
func eachEntry(f func(alias string, e Object)) Hook {
	create := editParams("agent/create", func(_ *State, p Object) {
		servers := p.Object("options").Object("mcpServers")
		for alias := range servers {
			if e := servers.Object(alias); e != nil {
				f(alias, e)
			}
		}
	})
	reg := editParams("agent/register", func(_ *State, p Object) {
		if e := p.Object("entry"); e != nil {
			f(p.String("name"), e)
		}
	})
	return chain(create, reg)
}

// chain applies hooks in turn: every message the first returns goes
// through the second, and so on.
func chain(hooks ...Hook) Hook {
	return func(s *State, m *Msg) []*Msg {
		msgs := []*Msg{m}
		for _, h := range hooks {
			var next []*Msg
			for _, x := range msgs {
				next = append(next, h(s, x)...)
			}
			msgs = next
		}
		return msgs
	}
}

// retypeError turns the adapter's error answers of kind from to agent/*
// operations into errors of kind to: the implementation throws the wrong
// error.
func retypeError(from, to string) Hook {
	return func(s *State, m *Msg) []*Msg {
		if m.Kind == Error && m.Dir == ToRunner && m.ErrorKind() == from {
			m.Error = editObject(m.Error, func(e Object) {
				if d := e.Object("data"); d != nil {
					d["kind"] = to
				}
			})
		}
		return []*Msg{m}
	}
}

// agentOf returns the agentId of a message's params (or of the request a
// response answers).
func agentOf(m *Msg) string {
	if m.IsResponse() && m.Request != nil {
		return m.Request.ParamsObject().String("agentId")
	}
	return m.ParamsObject().String("agentId")
}
