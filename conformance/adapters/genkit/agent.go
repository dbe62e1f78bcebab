package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/firebase/genkit/go/plugins/mcp"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// agents numbers the scripted models, which Genkit keeps by name.
var agents atomic.Int64

// agent is one Genkit instance with an MCPHost, driven as a lite-agent
// agent: its model is the runner's scripted model.
type agent struct {
	g     *genkit.Genkit
	model ai.Model
	host  *mcp.MCPHost

	mu      sync.Mutex
	servers []string // what the host was given, to disconnect on close
	closed  bool
	running map[*context.CancelFunc]bool
}

// newAgent builds the agent the way an application builds Genkit with MCP:
// genkit.Init, a model, and mcp.NewMCPHost with the servers, which the
// plugin connects at once.
func newAgent(ctx context.Context, opts adapter.AgentOptions, host adapter.Host) (adapter.Agent, error) {
	if opts.System != "" && opts.System != adapter.LiteAgent {
		return nil, &adapter.Error{Kind: adapter.KindUnsupported, Message: fmt.Sprintf("the adapter maps lite-agent agents, not %s", opts.System)}
	}
	var servers []mcp.MCPServerConfig
	if len(opts.MCPServers) > 0 && string(opts.MCPServers) != "null" {
		var entries map[string]json.RawMessage
		if err := json.Unmarshal(opts.MCPServers, &entries); err != nil {
			return nil, &adapter.Error{Kind: adapter.KindUnsupported, Message: "the adapter can only hand Genkit an mcpServers object of entries: " + err.Error()}
		}
		names := make([]string, 0, len(entries))
		for name := range entries {
			names = append(names, name)
		}
		sort.Strings(names) // Go maps have no order; the option's own is lost in decoding
		for _, name := range names {
			o, err := clientOptions(name, entries[name])
			if err != nil {
				return nil, err
			}
			servers = append(servers, mcp.MCPServerConfig{Name: name, Config: o})
		}
	}
	g := genkit.Init(ctx)
	a := &agent{g: g, running: map[*context.CancelFunc]bool{}}
	a.model = genkit.DefineModel(g, fmt.Sprintf("mcpconform/scripted-%d", agents.Add(1)),
		&ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true}},
		func(ctx context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			res, err := host.Model(ctx, hostRequest(req))
			if err != nil {
				return nil, err
			}
			return modelResponse(res), nil
		})
	h, err := mcp.NewMCPHost(g, mcp.MCPHostOptions{Name: "mcpconform", MCPServers: servers})
	if err != nil {
		return nil, sdkError(err)
	}
	a.host = h
	for _, s := range servers {
		a.servers = append(a.servers, s.Name)
	}
	return a, nil
}

// clientOptions maps one entry of the contract's mcpServers (or of
// register) onto the plugin's MCPClientOptions, field by field; nothing is
// checked beyond what the mapping needs.
func clientOptions(name string, raw json.RawMessage) (mcp.MCPClientOptions, error) {
	var e struct {
		Type      string            `json:"type"`
		Command   string            `json:"command"`
		Args      []string          `json:"args"`
		Env       map[string]string `json:"env"`
		URL       string            `json:"url"`
		Headers   map[string]string `json:"headers"`
		TimeoutMs *float64          `json:"timeoutMs"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return mcp.MCPClientOptions{}, &adapter.Error{Kind: adapter.KindUnsupported, Message: fmt.Sprintf("mcpServers.%s: the adapter cannot map this entry onto Genkit's options: %v", name, err)}
	}
	o := mcp.MCPClientOptions{Name: name}
	switch e.Type {
	case "http":
		o.StreamableHTTP = &mcp.StreamableHTTPConfig{BaseURL: e.URL, Headers: e.Headers}
		if e.TimeoutMs != nil {
			o.StreamableHTTP.Timeout = time.Duration(*e.TimeoutMs * float64(time.Millisecond))
		}
	case "", "stdio":
		env := make([]string, 0, len(e.Env))
		for k, v := range e.Env {
			env = append(env, k+"="+v)
		}
		sort.Strings(env)
		o.Stdio = &mcp.StdioConfig{Command: e.Command, Args: e.Args, Env: env}
	default:
		return o, &adapter.Error{Kind: adapter.KindUnsupported, Message: fmt.Sprintf("mcpServers.%s: Genkit has no transport of type %q", name, e.Type)}
	}
	return o, nil
}

// hostRequest is the contract's view of a Genkit model request.
func hostRequest(req *ai.ModelRequest) adapter.ModelRequest {
	out := adapter.ModelRequest{Messages: []adapter.Message{}, Tools: []adapter.ToolDef{}}
	var system []string
	for _, m := range req.Messages {
		switch m.Role {
		case ai.RoleSystem:
			system = append(system, m.Text())
		case ai.RoleModel:
			msg := adapter.Message{Role: "assistant", Text: m.Text()}
			for _, p := range m.Content {
				if p.IsToolRequest() {
					args, _ := json.Marshal(p.ToolRequest.Input)
					msg.ToolCalls = append(msg.ToolCalls, adapter.ToolCall{ID: p.ToolRequest.Ref, Name: p.ToolRequest.Name, Arguments: args})
				}
			}
			out.Messages = append(out.Messages, msg)
		case ai.RoleTool:
			for _, p := range m.Content {
				if p.IsToolResponse() {
					out.Messages = append(out.Messages, adapter.Message{Role: "tool", ToolCallID: p.ToolResponse.Ref, Text: outputText(p.ToolResponse.Output)})
				}
			}
		default:
			out.Messages = append(out.Messages, adapter.Message{Role: "user", Text: m.Text()})
		}
	}
	out.System = strings.Join(system, "\n")
	for _, t := range req.Tools {
		schema, _ := json.Marshal(t.InputSchema)
		if t.InputSchema == nil {
			schema = nil
		}
		out.Tools = append(out.Tools, adapter.ToolDef{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	return out
}

// outputText is a tool output as a provider receives it: a string as it
// is, anything else as JSON.
func outputText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// modelResponse is the scripted model's answer as a Genkit response.
func modelResponse(res adapter.ModelResponse) *ai.ModelResponse {
	msg := &ai.Message{Role: ai.RoleModel}
	if res.Text != "" {
		msg.Content = append(msg.Content, ai.NewTextPart(res.Text))
	}
	for _, c := range res.ToolCalls {
		var input any
		_ = json.Unmarshal(c.Arguments, &input)
		msg.Content = append(msg.Content, ai.NewToolRequestPart(&ai.ToolRequest{Name: c.Name, Ref: c.ID, Input: input}))
	}
	return &ai.ModelResponse{Message: msg, FinishReason: ai.FinishReasonStop}
}

// sdkError carries a Genkit error across the contract: the plugin has no
// error types, so only cancellation and deadlines have kinds of their own.
func sdkError(err error) error {
	var ae *adapter.Error
	switch {
	case errors.As(err, &ae):
		return err
	case errors.Is(err, context.Canceled):
		return &adapter.Error{Kind: adapter.KindCancelled, Message: err.Error()}
	case errors.Is(err, context.DeadlineExceeded):
		return &adapter.Error{Kind: adapter.KindTimeout, Message: err.Error()}
	}
	return &adapter.Error{Kind: adapter.KindInternal, Message: err.Error()}
}

func (a *agent) Send(ctx context.Context, prompt string) (adapter.SendResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return adapter.SendResult{}, &adapter.Error{Kind: adapter.KindClosed, Message: "the agent is closed"}
	}
	a.running[&cancel] = true
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.running, &cancel)
		a.mu.Unlock()
	}()
	tools, err := a.host.GetActiveTools(ctx, a.g)
	if err != nil {
		return adapter.SendResult{}, sdkError(err)
	}
	refs := make([]ai.ToolRef, 0, len(tools))
	for _, t := range tools {
		refs = append(refs, t)
	}
	res, err := genkit.Generate(ctx, a.g, ai.WithModel(a.model), ai.WithPrompt(prompt), ai.WithTools(refs...))
	if err != nil {
		return adapter.SendResult{}, sdkError(err)
	}
	return adapter.SendResult{Text: res.Text()}, nil
}

func (a *agent) Register(ctx context.Context, name string, entry json.RawMessage) error {
	o, err := clientOptions(name, entry)
	if err != nil {
		return err
	}
	if err := a.host.Connect(ctx, a.g, name, o); err != nil {
		return sdkError(err)
	}
	a.mu.Lock()
	if !slices.Contains(a.servers, name) {
		a.servers = append(a.servers, name)
	}
	a.mu.Unlock()
	return nil
}

func (a *agent) Unregister(ctx context.Context, name string) error {
	a.mu.Lock()
	a.servers = slices.DeleteFunc(a.servers, func(s string) bool { return s == name })
	a.mu.Unlock()
	if err := a.host.Disconnect(ctx, name); err != nil {
		// The plugin's only error for a name it does not know.
		if strings.HasPrefix(err.Error(), "no client found with name") {
			return &adapter.Error{Kind: adapter.KindNotFound, Message: err.Error()}
		}
		return sdkError(err)
	}
	return nil
}

// Close disconnects every server the host was given: Genkit has no close
// of its own, and an application ends its MCP connections this way.
func (a *agent) Close(ctx context.Context) error {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil
	}
	a.closed = true
	for c := range a.running {
		(*c)()
	}
	servers := slices.Clone(a.servers)
	a.mu.Unlock()
	for _, s := range servers {
		_ = a.host.Disconnect(ctx, s)
	}
	return nil
}

// unsupported answers an operation the adapter does not declare.
func unsupported(op adapter.Operation) error {
	return &adapter.Error{Kind: adapter.KindUnsupported, Message: fmt.Sprintf("Genkit's MCP plugin offers nothing for %s", op)}
}

func (a *agent) List(context.Context) ([]adapter.ServerStatus, error) {
	return nil, unsupported(adapter.OpList)
}
func (a *agent) AwaitIdle(context.Context) error { return unsupported(adapter.OpAwaitIdle) }
func (a *agent) AdvanceClock(context.Context, time.Duration) error {
	return unsupported(adapter.OpAdvanceClock)
}
func (a *agent) Logs(context.Context) ([]string, error) { return nil, unsupported(adapter.OpLogs) }
func (a *agent) Run(context.Context, string) (adapter.SendResult, error) {
	return adapter.SendResult{}, unsupported(adapter.OpRun)
}
func (a *agent) SubAgent(context.Context, adapter.SubAgentOptions) (adapter.Agent, error) {
	return nil, unsupported(adapter.OpSubagent)
}
func (a *agent) Project(context.Context, json.RawMessage) (adapter.Projection, error) {
	return adapter.Projection{}, unsupported(adapter.OpProject)
}
func (a *agent) MCPStatus(context.Context) ([]adapter.BladeServerStatus, error) {
	return nil, unsupported(adapter.OpMCPStatus)
}
func (a *agent) MCPConnect(context.Context, string) error { return unsupported(adapter.OpMCPConnect) }
func (a *agent) MCPDisconnect(context.Context, string) error {
	return unsupported(adapter.OpMCPDisconnect)
}
func (a *agent) MCPReconnect(context.Context, string) error {
	return unsupported(adapter.OpMCPReconnect)
}
func (a *agent) MCPListTools(context.Context) ([]adapter.ToolInfo, error) {
	return nil, unsupported(adapter.OpMCPListTools)
}
