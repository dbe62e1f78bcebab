package rpcadapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	segjson "github.com/segmentio/encoding/json"
)

// Serve is the adapter side of the protocol for a Go [adapter.Target]: it
// answers the runner on in and out until in ends, opening one adapter with
// env at the handshake. It declares [adapter.CapReuse] for any target: on
// scenario/end it closes every agent, and on scenario/begin it opens the
// target afresh with the next scenario's [adapter.Env], which is how a Go
// target takes its directory and environment (the process's own are left
// as they are). `mcpconform adapter serve-reference` is Serve over the
// process's stdin and stdout with the reference's target.
func Serve(ctx context.Context, in io.Reader, out io.Writer, target adapter.Target, env adapter.Env) error {
	s := &server{target: target, env: env, agents: map[string]adapter.Agent{}}
	s.conn = NewConn(in, out, s.handle)
	err := s.conn.Run()
	s.closeAll()
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// server serves one runner.
type server struct {
	target adapter.Target
	env    adapter.Env
	conn   *Conn

	mu      sync.Mutex
	adapter adapter.Adapter
	agents  map[string]adapter.Agent
}

// handle answers one request of the runner.
func (s *server) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case MethodInitialize:
		return s.initialize(ctx, params)
	case MethodShutdown:
		s.closeAll()
		return empty{}, nil
	case MethodScenarioEnd:
		s.closeAgents()
		return empty{}, nil
	case MethodScenarioBegin:
		var p BeginParams
		if err := decode(method, params, &p); err != nil {
			return nil, err
		}
		return empty{}, s.begin(ctx, adapter.Env{Dir: p.Dir, Environ: p.Environ})
	}
	s.mu.Lock()
	ready := s.adapter != nil
	s.mu.Unlock()
	if !ready {
		return nil, &jsonrpc.Error{Code: CodeInvalidRequest, Message: fmt.Sprintf("%s before initialize", method)}
	}
	switch method {
	case string(adapter.OpCreate):
		var p CreateParams
		if err := decode(method, params, &p); err != nil {
			return nil, err
		}
		return s.create(ctx, p)
	}
	// The operation's params are decoded once, its agent's id with them
	// (a tool result to project may be MiBs). Params that do not decode
	// are refused as when the agent was looked up first: an agentId that
	// does not decode, then an unknown agent, then the rest.
	op, agentID := operationParams(method)
	if err := decode(method, params, op); err != nil {
		var ref AgentRef
		if rerr := decode(method, params, &ref); rerr != nil {
			return nil, rerr
		}
		if s.agent(ref.AgentID) == nil && isOperation(method) {
			return nil, noAgent(ref.AgentID)
		}
		return nil, err
	}
	g := s.agent(*agentID)
	if g == nil && isOperation(method) {
		return nil, noAgent(*agentID)
	}
	switch adapter.Operation(method) {
	case adapter.OpSend:
		return g.Send(ctx, op.(*SendParams).Prompt)
	case adapter.OpRun:
		return g.Run(ctx, op.(*SendParams).Prompt)
	case adapter.OpSubagent:
		p := op.(*SubagentParams)
		sub, err := g.SubAgent(ctx, p.Options)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.agents[p.SubAgentID] = sub
		s.mu.Unlock()
		return empty{}, nil
	case adapter.OpProject:
		return g.Project(ctx, op.(*ProjectParams).Result)
	case adapter.OpRegister:
		p := op.(*RegisterParams)
		return empty{}, g.Register(ctx, p.Name, p.Entry)
	case adapter.OpUnregister:
		return empty{}, g.Unregister(ctx, op.(*UnregisterParams).Name)
	case adapter.OpList:
		l, err := g.List(ctx)
		return ListResult{Servers: l}, err
	case adapter.OpAwaitIdle:
		return empty{}, g.AwaitIdle(ctx)
	case adapter.OpClose:
		return empty{}, g.Close(ctx)
	case adapter.OpAdvanceClock:
		return empty{}, g.AdvanceClock(ctx, time.Duration(op.(*AdvanceParams).Ms)*time.Millisecond)
	case adapter.OpLogs:
		lines, err := g.Logs(ctx)
		return LogsResult{Lines: orEmpty(lines)}, err
	case adapter.OpMCPStatus:
		st, err := g.MCPStatus(ctx)
		if st == nil {
			st = []adapter.BladeServerStatus{}
		}
		return MCPStatusResult{Servers: st}, err
	case adapter.OpMCPListTools:
		t, err := g.MCPListTools(ctx)
		if t == nil {
			t = []adapter.ToolInfo{}
		}
		return MCPListToolsResult{Tools: t}, err
	case adapter.OpMCPHealth:
		hr, ok := g.(adapter.HealthReader)
		if !ok {
			return nil, &adapter.Error{Kind: adapter.KindUnsupported, Message: "the agent cannot read its servers' health"}
		}
		h, err := hr.MCPHealth(ctx)
		if h == nil {
			h = []adapter.ServerHealth{}
		}
		return MCPHealthResult{Servers: h}, err
	case adapter.OpMCPConnect, adapter.OpMCPDisconnect, adapter.OpMCPReconnect:
		do := map[adapter.Operation]func(context.Context, string) error{
			adapter.OpMCPConnect: g.MCPConnect, adapter.OpMCPDisconnect: g.MCPDisconnect, adapter.OpMCPReconnect: g.MCPReconnect,
		}[adapter.Operation(method)]
		return empty{}, do(ctx, op.(*NameParams).Name)
	}
	return nil, &jsonrpc.Error{Code: CodeMethodNotFound, Message: fmt.Sprintf("unknown method %q", method)}
}

// operationParams returns a new value for the params of method, and
// where their agent's id goes: [AgentRef] for an operation that takes
// its agent alone, and for a method that is no operation.
func operationParams(method string) (any, *string) {
	switch adapter.Operation(method) {
	case adapter.OpSend, adapter.OpRun:
		p := &SendParams{}
		return p, &p.AgentID
	case adapter.OpSubagent:
		p := &SubagentParams{}
		return p, &p.AgentID
	case adapter.OpProject:
		p := &ProjectParams{}
		return p, &p.AgentID
	case adapter.OpRegister:
		p := &RegisterParams{}
		return p, &p.AgentID
	case adapter.OpAdvanceClock:
		p := &AdvanceParams{}
		return p, &p.AgentID
	case adapter.OpUnregister, adapter.OpMCPConnect, adapter.OpMCPDisconnect, adapter.OpMCPReconnect:
		p := &NameParams{}
		return p, &p.AgentID
	}
	p := &AgentRef{}
	return p, &p.AgentID
}

// agent is the agent of an id, or nil.
func (s *server) agent(id string) adapter.Agent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.agents[id]
}

// noAgent is the error of an operation on an agent the adapter does not
// hold.
func noAgent(id string) error {
	return &adapter.Error{Kind: adapter.KindNotFound, Message: fmt.Sprintf("no agent %q", id)}
}

// isOperation reports whether method is an agent operation.
func isOperation(method string) bool {
	for _, op := range adapter.Operations {
		if string(op) == method {
			return true
		}
	}
	return false
}

// initialize opens the target's adapter and describes it.
func (s *server) initialize(ctx context.Context, params json.RawMessage) (any, error) {
	var p InitializeParams
	if err := decode(MethodInitialize, params, &p); err != nil {
		return nil, err
	}
	if p.ProtocolVersion != ProtocolVersion {
		data, _ := json.Marshal(errorData{Kind: adapter.KindUnsupported, Supported: []string{ProtocolVersion}})
		return nil, &jsonrpc.Error{Code: CodeUnsupportedVersion, Message: fmt.Sprintf("protocol version %q is not supported; this adapter speaks %q", p.ProtocolVersion, ProtocolVersion), Data: data}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.adapter == nil {
		a, err := s.target.Open(ctx, s.env)
		if err != nil {
			return nil, err
		}
		s.adapter = a
	}
	info := s.adapter.Info()
	if !info.Supports(adapter.CapReuse) {
		// Serve itself ends one scenario and begins the next.
		info.Capabilities = append(slices.Clone(info.Capabilities), adapter.CapReuse)
	}
	return resultOf(info), nil
}

// create builds an agent whose host is the runner.
func (s *server) create(ctx context.Context, p CreateParams) (any, error) {
	s.mu.Lock()
	a := s.adapter
	s.mu.Unlock()
	if a == nil {
		return nil, &adapter.Error{Kind: adapter.KindInternal, Message: "agent/create before initialize"}
	}
	g, err := a.NewAgent(ctx, p.Options, &remoteHost{conn: s.conn, agentID: p.AgentID})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.agents[p.AgentID] = g
	s.mu.Unlock()
	return CreateResult{AgentID: p.AgentID}, nil
}

// closeAll closes every agent and the adapter.
func (s *server) closeAll() {
	s.closeAgents()
	s.mu.Lock()
	a := s.adapter
	s.adapter = nil
	s.mu.Unlock()
	if a != nil {
		_ = a.Close()
	}
}

// closeAgents closes every agent, and forgets them: the end of a
// scenario.
func (s *server) closeAgents() {
	s.mu.Lock()
	agents := s.agents
	s.agents = map[string]adapter.Agent{}
	s.mu.Unlock()
	for _, g := range agents {
		_ = g.Close(context.Background())
	}
}

// begin begins the next scenario: the target's adapter is opened afresh
// with the scenario's directory and environment, which is how a Go
// [adapter.Target] takes them (the process's own stay as they are).
func (s *server) begin(ctx context.Context, env adapter.Env) error {
	s.closeAgents()
	a, err := s.target.Open(ctx, env)
	if err != nil {
		return err
	}
	s.mu.Lock()
	old := s.adapter
	s.adapter, s.env = a, env
	s.mu.Unlock()
	if old != nil {
		_ = old.Close()
	}
	return nil
}

// decode decodes params, reporting invalid ones with -32602.
func decode(method string, params json.RawMessage, v any) error {
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	if err := segjson.Unmarshal(params, v); err != nil {
		return &jsonrpc.Error{Code: CodeInvalidParams, Message: fmt.Sprintf("the params of %s do not decode: %v", method, err)}
	}
	return nil
}

// remoteHost is an agent's host: the runner, at the other end.
type remoteHost struct {
	conn    *Conn
	agentID string
}

func (h *remoteHost) Model(ctx context.Context, req adapter.ModelRequest) (adapter.ModelResponse, error) {
	var resp adapter.ModelResponse
	err := h.conn.Call(ctx, MethodModel, ModelParams{AgentID: h.agentID, Request: req}, &resp)
	return resp, err
}

func (h *remoteHost) Approve(ctx context.Context, req adapter.ApprovalRequest) (adapter.Decision, error) {
	var res ApproveResult
	if err := h.conn.Call(ctx, MethodApprove, ApproveParams{AgentID: h.agentID, Request: req}, &res); err != nil {
		return adapter.Deny, err
	}
	return res.Decision, nil
}

func (h *remoteHost) Event(ctx context.Context, ev adapter.Event) {
	_ = h.conn.Notify(MethodEvent, EventParams{AgentID: h.agentID, Event: ev})
}

func (h *remoteHost) Hook(ctx context.Context, ev adapter.HookEvent) error {
	return h.conn.Call(ctx, MethodHook, HookParams{AgentID: h.agentID, Hook: ev}, nil)
}

func (h *remoteHost) Validate(ctx context.Context, req adapter.ValidateRequest) ([]string, error) {
	var res ValidateResult
	err := h.conn.Call(ctx, MethodValidate, ValidateParams{AgentID: h.agentID, Request: req}, &res)
	return res.Issues, err
}

func (h *remoteHost) Execute(ctx context.Context, req adapter.ExecuteRequest) (json.RawMessage, error) {
	var res ExecuteResult
	err := h.conn.Call(ctx, MethodExecute, ExecuteParams{AgentID: h.agentID, Request: req}, &res)
	return res.Result, err
}

// authorizeGrace bounds the wait for the runner's answer to a cancelled
// host/authorize.
const authorizeGrace = 15 * time.Second

func (h *remoteHost) Authorize(ctx context.Context, req adapter.AuthorizeRequest) (string, error) {
	// The runner answers host/authorize even after it is cancelled, with
	// the callback when its user ignores the signal: the implementation
	// must get that late callback to show it never redeems it (LA-OAU-05).
	var res AuthorizeResult
	err := h.conn.CallThroughCancel(ctx, MethodAuthorize, AuthorizeParams{AgentID: h.agentID, Request: req}, &res, authorizeGrace)
	return res.CallbackURL, err
}

func (h *remoteHost) Permission(ctx context.Context, req adapter.PermissionRequest) (string, error) {
	var res PermissionResult
	err := h.conn.Call(ctx, MethodPermission, PermissionParams{AgentID: h.agentID, Request: req}, &res)
	return res.Decision, err
}

// InProcessTool implements [adapter.InProcessHost]: the handler's run is
// the runner's to answer.
func (h *remoteHost) InProcessTool(ctx context.Context, req adapter.InProcessToolRequest) (json.RawMessage, error) {
	var res json.RawMessage
	err := h.conn.Call(ctx, MethodInProcessTool, InProcessToolParams{AgentID: h.agentID, Request: req}, &res)
	return res, err
}

func (h *remoteHost) Provider(ctx context.Context, call adapter.ProviderCall) (json.RawMessage, error) {
	var res ProviderResult
	err := h.conn.Call(ctx, MethodProvider, ProviderParams{AgentID: h.agentID, Call: call}, &res)
	return res.Value, err
}
