package adapter

import (
	"context"
	"encoding/json"
	"time"
)

// An Adapter is one connection between the runner and an implementation under
// test. The runner opens one per scenario world through a [Target] and closes
// it when the world ends.
type Adapter interface {
	// Info describes the adapter and the implementation behind it.
	Info() Info
	// NewAgent builds an agent from opts, the way the implementation's own
	// constructor (createLiteAgent) would. The implementation calls back into
	// host for model turns, approvals and events for the agent's lifetime.
	// A configuration the implementation rejects is returned as an [*Error].
	NewAgent(ctx context.Context, opts AgentOptions, host Host) (Agent, error)
	// Close releases the adapter and everything it still holds: agents,
	// processes, connections. It is called once, after every agent of the
	// world has been closed or abandoned.
	Close() error
}

// Diagnoser is implemented by adapters that can say more about a failing
// scenario: the tail of an adapter process's stderr, its last protocol
// messages, why it broke. The runner adds it to the scenario's evidence.
type Diagnoser interface {
	Diagnostics() []string
}

// CloseWatcher is implemented by hosts that check what reaches them after
// an agent's close() returned. An adapter whose host implements it calls
// AgentClosed once the agent's close() has returned and before it delivers
// any callback that came after: an adapter process's answer to agent/close
// and the messages behind it arrive in one order, which the goroutine that
// waits for the answer cannot keep.
type CloseWatcher interface {
	AgentClosed()
}

// Console is implemented by adapters that capture what the implementation
// printed on its own console: an adapter process's stderr. The runner
// searches it for planted secrets (LA-SEC-19, LA-OAU-30), as it searches
// every other surface the implementation shows its host.
type Console interface {
	Console() string
}

// A Target opens adapters. The runner calls [Target.Open] once per scenario
// world, so a target may start a fresh process each time or reuse one.
type Target interface {
	// Info describes the target without opening it; the runner uses it to
	// select scenarios (systems, capabilities) and to label the report.
	Info(ctx context.Context) (Info, error)
	// Open returns an adapter for one scenario world. env describes the
	// world's surroundings that an out-of-process adapter must reproduce.
	Open(ctx context.Context, env Env) (Adapter, error)
}

// Env is what a scenario world gives an adapter beyond agent options: the
// process surroundings an implementation would read from its own process.
type Env struct {
	// Dir is a scratch directory owned by the world, removed when it ends.
	Dir string `json:"dir"`
	// Environ is the environment the implementation must treat as its own
	// process environment (process.env), as KEY=VALUE pairs. Secrets planted
	// here by a scenario must never reach an MCP server's child process.
	Environ []string `json:"environ"`
	// Fresh asks for an adapter that has served no other scenario: a
	// target that reuses adapter processes starts a new one.
	Fresh bool `json:"-"`
}

// An Agent is one agent instance of the implementation under test: the
// lite-agent object returned by createLiteAgent, or a Blade session.
//
// Every method may be called concurrently with host callbacks in flight; an
// implementation that cannot serve an operation returns an [*Error] of kind
// [KindUnsupported].
type Agent interface {
	// Send runs one turn of the agent with the user prompt (agent.send()).
	// Cancelling ctx is the host's AbortSignal for that run.
	Send(ctx context.Context, prompt string) (SendResult, error)
	// Register adds a server through the instance API (agent.mcp.register()).
	// entry is passed verbatim as JSON so that malformed entries can be
	// tested; it returns once authorization, connection, discovery and
	// registration are complete, or fails having changed nothing.
	Register(ctx context.Context, name string, entry json.RawMessage) error
	// Unregister removes a server and closes its connection
	// (agent.mcp.unregister()).
	Unregister(ctx context.Context, name string) error
	// List returns the registry as the implementation reports it
	// (agent.mcp.list()), normalized to [ServerStatus] entries.
	List(ctx context.Context) ([]ServerStatus, error)
	// AwaitIdle waits until the agent and its associated work are idle
	// (agent.awaitIdle()).
	AwaitIdle(ctx context.Context) error
	// Close closes the agent (agent.close()): it cancels active work and
	// reclaims clients, subscriptions and child processes.
	Close(ctx context.Context) error
	// AdvanceClock moves the agent's manual clock forward by d, firing
	// the timers that fall due ([OpAdvanceClock], [CapClock]).
	AdvanceClock(ctx context.Context, d time.Duration) error
	// Logs returns every line the implementation logged so far, through
	// every log sink the adapter can capture ([OpLogs], [CapLogSinks]).
	Logs(ctx context.Context) ([]string, error)
	// Run is Send through the run's event stream (agent.run()): the
	// events of the stream reach [Host.Event] with Via "run" ([OpRun]).
	Run(ctx context.Context, prompt string) (SendResult, error)
	// SubAgent creates a sub-agent of this (root) agent ([OpSubagent],
	// [CapSubagent]); it is driven like any agent.
	SubAgent(ctx context.Context, opts SubAgentOptions) (Agent, error)
	// Project projects an MCP tool result (CallToolResult JSON) the way
	// the agent would for its model ([OpProject], [CapProjection]).
	Project(ctx context.Context, result json.RawMessage) (Projection, error)
	// MCPStatus is a Blade session's mcpServerStatus() ([OpMCPStatus]).
	MCPStatus(ctx context.Context) ([]BladeServerStatus, error)
	// MCPConnect, MCPDisconnect and MCPReconnect are a Blade session's
	// mcpConnect(name), mcpDisconnect(name) and mcpReconnect(name).
	MCPConnect(ctx context.Context, name string) error
	MCPDisconnect(ctx context.Context, name string) error
	MCPReconnect(ctx context.Context, name string) error
	// MCPListTools is a Blade session's mcpListTools() ([OpMCPListTools]).
	MCPListTools(ctx context.Context) ([]ToolInfo, error)
}

// BladeServerStatus is one McpServerStatus of a Blade session, as the
// implementation reported it: the adapter translates types (a Date to an
// RFC 3339 string) but never values, so that the runner can check them.
type BladeServerStatus struct {
	Name string `json:"name"`
	// Status is the implementation's word, verbatim; Blade allows
	// connected, disconnected, connecting and error (BL-RT-02).
	Status string `json:"status"`
	// ToolCount is toolCount, verbatim; a non-number is passed as null
	// and fails the shape check.
	ToolCount *float64 `json:"toolCount"`
	// Tools is tools, absent when the implementation left it out.
	Tools []string `json:"tools,omitempty"`
	// ConnectedAt is connectedAt as an RFC 3339 time with at least
	// millisecond precision (Date.toISOString()), "" when absent.
	ConnectedAt string `json:"connectedAt,omitempty"`
	// Error is error, "" when absent.
	Error string `json:"error,omitempty"`
}

// ToolInfo is one McpToolInfo of a Blade session's mcpListTools().
type ToolInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	ServerName  string `json:"serverName"`
}

// SendResult is the outcome of a successful [Agent.Send].
type SendResult struct {
	// Text is the final assistant text of the run.
	Text string `json:"text"`
}

// Host is implemented by the runner: it is everything an implementation
// calls back into its host for. One Host serves one agent.
type Host interface {
	// Model answers one model request (the scripted model). The
	// implementation must send it the system prompt, the conversation and
	// every tool it offers, exactly as it would to a real provider.
	Model(ctx context.Context, req ModelRequest) (ModelResponse, error)
	// Approve answers one approval request (onApproval.request(call,
	// signal)). It is only called when [AgentOptions.Approval] is true; ctx
	// is the signal, cancelled when the run is cancelled or the agent
	// closes.
	Approve(ctx context.Context, req ApprovalRequest) (Decision, error)
	// Event receives one event the implementation emits (tool_progress,
	// errors), in the order it emits them: from subscribe() listeners
	// (Via "subscribe") and from a run's stream (Via "run").
	Event(ctx context.Context, ev Event)
	// Hook is a tool:start or tool:end hook, called synchronously: the
	// implementation waits for it. A hook may call back into the agent.
	Hook(ctx context.Context, h HookEvent) error
	// Validate is the validate() of a "standard" host tool's schema; no
	// issues means valid.
	Validate(ctx context.Context, req ValidateRequest) ([]string, error)
	// Execute runs a host tool. The result is what its execute() returned:
	// a JSON string, or an object {"content": string, "isError"?: bool}.
	Execute(ctx context.Context, req ExecuteRequest) (json.RawMessage, error)
	// Authorize is an OAuth binding's authorize(url, {signal}): ctx is the
	// signal. It returns the full callback URL, or an error when the host
	// cancels the login.
	Authorize(ctx context.Context, req AuthorizeRequest) (string, error)
	// Provider is one call of a method of the host's OAuth provider.
	Provider(ctx context.Context, call ProviderCall) (json.RawMessage, error)
	// Permission is a Blade permission callback (advanced.permission):
	// it is only called when [AgentOptions.PermissionCallback] is true,
	// and answers "allow", "ask" or "deny".
	Permission(ctx context.Context, req PermissionRequest) (string, error)
}

// PermissionRequest is what a Blade permission callback receives.
type PermissionRequest struct {
	// ToolName is the callback's toolName, verbatim.
	ToolName string `json:"toolName"`
	// Raw is the whole argument the implementation passed, verbatim.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// AuthorizeRequest asks the host to log the user in.
type AuthorizeRequest struct {
	// Server is the binding's server name, URL the authorization URL.
	Server string `json:"server"`
	URL    string `json:"url"`
}

// ProviderCall is one call of a provider method: redirectUrl,
// clientMetadata, clientMetadataUrl (a property of the official
// OAuthClientProvider: the URL of the client's ID metadata document, null
// for none), clientInformation, saveClientInformation, tokens, saveTokens,
// codeVerifier, saveCodeVerifier or invalidateCredentials (McpOAuthProvider),
// or state or redirectToAuthorization, which only the official provider
// class has and which an implementation must never call (LA-OAU-07). Value
// is the argument of save* and invalidateCredentials; the result is the
// method's return value (JSON null for none). What an implementation saves
// is the official client's shape: client information and tokens carry the
// issuer they belong to, and the runner's providers store them as given.
type ProviderCall struct {
	Provider string          `json:"provider"`
	Method   string          `json:"method"`
	Value    json.RawMessage `json:"value,omitempty"`
}

// HookEvent is one hook invocation.
type HookEvent struct {
	// Type is "tool:start" or "tool:end".
	Type string `json:"type"`
	// ID is the tool call's id, Name its full tool name, Input its
	// arguments.
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input,omitempty"`
	// Result and IsError describe the end of the call (tool:end); Outcome
	// is "success", "error", "invalid", "denied", "timeout", "cancelled"
	// or "failed", when the implementation tells.
	Result  string `json:"result,omitempty"`
	IsError bool   `json:"isError,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	// Raw is the hook payload, verbatim.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// ValidateRequest asks the host to validate a host tool's input.
type ValidateRequest struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
}

// ExecuteRequest asks the host to run a host tool.
type ExecuteRequest struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
}

// InProcessToolRequest is one run of the handler of a tool of a Blade
// in-process server (createSdkMcpServer, BL-INP): the server's name (as
// createSdkMcpServer got it), the tool's name, the arguments the handler
// received, verbatim, and the process the handler ran in (process.pid).
type InProcessToolRequest struct {
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	PID       int             `json:"pid"`
}

// InProcessHost is implemented by hosts that serve the handlers of Blade
// in-process tools: an adapter makes every handler of an in-process
// server in its [AgentOptions.MCPServers] a call of InProcessTool, and
// returns what it answers (an McpToolCallResponse, {"content": [...],
// "isError"?: bool}) as the handler's response. An error answer is the
// handler throwing.
type InProcessHost interface {
	InProcessTool(ctx context.Context, req InProcessToolRequest) (json.RawMessage, error)
}

// ProcessOwner is implemented by adapters that know the process the
// implementation runs in: an adapter process's own PID, or the runner's
// for an implementation in the runner's process. The runner compares it
// with the PID in-process handlers report (BL-INP-06) and watches the
// processes it starts (BL-INP-05).
type ProcessOwner interface {
	ImplementationPID() int
}

// ServerHealth is one server's health status in a Blade session: healthy,
// degraded, unhealthy, checking or disabled (BL-HC-04), the
// implementation's word verbatim.
type ServerHealth struct {
	Name   string `json:"name"`
	Health string `json:"health"`
}

// HealthReader is implemented by Blade sessions whose adapter can read
// the health status of their servers ([OpMCPHealth], [CapHealth]).
type HealthReader interface {
	MCPHealth(ctx context.Context) ([]ServerHealth, error)
}
