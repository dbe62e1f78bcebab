package corrupt

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
)

// State is what a hook knows besides the message in front of it — what
// crossed the proxy earlier (agent options, server entries, the scripts of
// the stdio fakes they start) — and the means to make messages of its
// own. Hooks run one at a time, so State needs no locking of its own.
type State struct {
	// options are the agent options of agent/create, by agent id, as the
	// runner sent them.
	options map[string]Object
	// roots maps a sub-agent's id to its root's.
	roots map[string]string
	// entries are the server entries of the mcpServers option and of
	// agent/register, by alias, as the runner sent them.
	entries map[string]Object
	// registered are the aliases declared through agent/register.
	registered map[string]bool
	// order is the aliases of the mcpServers options in the order written.
	order []string
	// held are messages a hook keeps back, in order.
	held []*Msg
	// next numbers the proxy's own requests.
	next int
	// pending are the proxy's requests in flight, by the way they went
	// (the session's, under its lock).
	pending *[2]map[string]*Msg
}

// newState returns an empty State.
func newState() *State {
	return &State{options: map[string]Object{}, roots: map[string]string{}, entries: map[string]Object{}, registered: map[string]bool{}}
}

// observe learns from a message as it arrived, before any hook changed
// it.
func (s *State) observe(m *Msg) {
	if m.Dir != ToAdapter || m.Kind != Request {
		return
	}
	switch m.Method {
	case "agent/create", "agent/subagent", "agent/register":
	default:
		return
	}
	p := m.ParamsObject()
	switch m.Method {
	case "agent/create":
		opts := p.Object("options")
		if opts == nil {
			return
		}
		s.options[p.String("agentId")] = opts
		var written struct {
			Options struct {
				MCPServers json.RawMessage `json:"mcpServers"`
			} `json:"options"`
		}
		_ = json.Unmarshal(m.Params, &written)
		for _, alias := range keysInOrder(written.Options.MCPServers) {
			if e := opts.Object("mcpServers").Object(alias); e != nil {
				s.entries[alias] = e
				s.order = append(s.order, alias)
			}
		}
	case "agent/subagent":
		s.roots[p.String("subAgentId")] = p.String("agentId")
	case "agent/register":
		if e := p.Object("entry"); e != nil {
			s.entries[p.String("name")] = e
			s.registered[p.String("name")] = true
		}
	}
}

// Options returns the agent options agent/create gave the agent id (its
// root's, for a sub-agent), or nil.
func (s *State) Options(agentID string) Object {
	if root, ok := s.roots[agentID]; ok {
		agentID = root
	}
	return s.options[agentID]
}

// Entry returns the server entry declared under alias through the
// mcpServers option or agent/register, or nil.
func (s *State) Entry(alias string) Object { return s.entries[alias] }

// Registered reports whether alias was declared through agent/register.
func (s *State) Registered(alias string) bool { return s.registered[alias] }

// Binding returns the mcpOAuth binding of a server in any agent's
// options, or nil.
func (s *State) Binding(server string) Object {
	for _, o := range s.options {
		if b := o.Object("mcpOAuth").Object(server); b != nil {
			return b
		}
	}
	return nil
}

// Aliases returns the aliases of every entry seen, those of the
// mcpServers options first, in the order written, then the registered
// ones.
func (s *State) Aliases() []string {
	out := slices.Clone(s.order)
	var rest []string
	for a := range s.entries {
		if !slices.Contains(out, a) {
			rest = append(rest, a)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// Script returns the script of the stdio fake an entry starts (the file
// after "--script" in its args), or nil when the entry starts none.
func (s *State) Script(alias string) *mcpfake.Script {
	e := s.entries[alias]
	if e == nil {
		return nil
	}
	args := e.Strings("args")
	i := slices.Index(args, "--script")
	if i < 0 || i+1 >= len(args) {
		return nil
	}
	sc, err := mcpfake.ReadScript(args[i+1])
	if err != nil {
		return nil
	}
	return sc
}

// StderrLines returns, by alias, a line of what each stdio server of the
// entries writes to its stderr, as its script says.
func (s *State) StderrLines() map[string]string {
	out := map[string]string{}
	for _, alias := range s.Aliases() {
		if sc := s.Script(alias); sc != nil && sc.StderrText != "" {
			out[alias] = sc.StderrText
		}
	}
	return out
}

// Sent returns the request with that id which went on travelling d and
// awaits its answer, or nil.
func (s *State) Sent(d Dir, id json.RawMessage) *Msg {
	if s.pending == nil {
		return nil
	}
	return s.pending[d][idKey(id)]
}

// Answer returns a result answering the request req, sent back to its
// sender instead of forwarding req.
func (s *State) Answer(req *Msg, result any) *Msg {
	return &Msg{Dir: req.Dir.reverse(), Kind: Result, ID: req.ID, Method: req.Method, Result: rawOf(result), Request: req}
}

// Fail returns an error answer of the contract's kind to the request req,
// sent back to its sender instead of forwarding req.
func (s *State) Fail(req *Msg, kind, message string) *Msg {
	e := map[string]any{"code": -32000, "message": message, "data": map[string]any{"kind": kind}}
	return &Msg{Dir: req.Dir.reverse(), Kind: Error, ID: req.ID, Method: req.Method, Error: rawOf(e), Request: req}
}

// Call returns a request of the proxy's own travelling d; its answer is
// swallowed.
func (s *State) Call(d Dir, method string, params any) *Msg {
	s.next++
	id := rawOf(fmt.Sprintf("corrupt-%d", s.next))
	return &Msg{Dir: d, Kind: Request, ID: id, Method: method, Params: rawOf(params), own: true}
}

// CallThen is [State.Call] for a request whose answer the hook wants: it
// goes to then, and what then returns goes on.
func (s *State) CallThen(d Dir, method string, params any, then func(s *State, answer *Msg) []*Msg) *Msg {
	c := s.Call(d, method, params)
	c.then = then
	return c
}

// Again returns a copy of the request req as a request of the proxy's own:
// the same call made a second time, whose answer is swallowed.
func (s *State) Again(req *Msg) *Msg {
	c := s.Call(req.Dir, req.Method, nil)
	c.Params = req.Params
	return c
}

// Notify returns a notification of the proxy's own travelling d.
func (s *State) Notify(d Dir, method string, params any) *Msg {
	return &Msg{Dir: d, Kind: Notification, Method: method, Params: rawOf(params)}
}

// Hold keeps m back until [State.Release].
func (s *State) Hold(m *Msg) { s.held = append(s.held, m) }

// Release returns the messages held so far, in order, and forgets them.
func (s *State) Release() []*Msg {
	out := s.held
	s.held = nil
	return out
}

// interpolate replaces ${NAME} and $NAME in text with the value of the
// variable NAME of the proxy's environment, which is the scenario's (the
// runner starts the adapter with it).
func interpolate(text string) string {
	return os.Expand(text, func(name string) string {
		if v, ok := os.LookupEnv(name); ok {
			return v
		}
		return "${" + name + "}"
	})
}
