package rpcadapter

import (
	"encoding/json"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// ProtocolVersion is the version of the adapter protocol this package
// speaks (spec/adapter-protocol.md).
const ProtocolVersion = "1"

// The methods of the protocol.
const (
	MethodInitialize = "initialize"
	MethodShutdown   = "shutdown"
	// MethodScenarioEnd and MethodScenarioBegin are the runner's, to an
	// adapter that declares [adapter.CapReuse]: end the scenario (close
	// every agent, forget them) and begin the next in the process.
	MethodScenarioEnd   = "scenario/end"
	MethodScenarioBegin = "scenario/begin"
	MethodModel         = "host/model"
	MethodApprove       = "host/approve"
	MethodEvent         = "host/event"
	MethodHook          = "host/hook"
	MethodValidate      = "host/validate"
	MethodExecute       = "host/execute"
	MethodAuthorize     = "host/authorize"
	MethodProvider      = "host/provider"
	MethodPermission    = "host/permission"
	// MethodInProcessTool is one run of a Blade in-process tool's handler.
	MethodInProcessTool = "host/inProcessTool"
)

// Peer names one side of the connection in the handshake.
type Peer struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// InitializeParams opens the protocol.
// BeginParams are the params of scenario/begin: the scenario's directory
// (the adapter's working directory) and its whole environment.
type BeginParams struct {
	Dir     string   `json:"dir"`
	Environ []string `json:"environ"`
}

type InitializeParams struct {
	ProtocolVersion string `json:"protocolVersion"`
	Runner          Peer   `json:"runner"`
}

// InitializeResult describes the adapter and its implementation.
type InitializeResult struct {
	ProtocolVersion string               `json:"protocolVersion"`
	Adapter         Peer                 `json:"adapter"`
	Implementation  Peer                 `json:"implementation"`
	Systems         []adapter.System     `json:"systems"`
	Capabilities    []adapter.Capability `json:"capabilities"`
	Operations      []adapter.Operation  `json:"operations"`
	Concurrency     string               `json:"concurrency,omitempty"`
	Unimplemented   []string             `json:"unimplemented,omitempty"`
	ToolNames       string               `json:"toolNames,omitempty"`
}

// resultOf converts the contract's [adapter.Info] to a handshake result.
func resultOf(i adapter.Info) InitializeResult {
	return InitializeResult{
		ProtocolVersion: ProtocolVersion,
		Adapter:         Peer{i.Name, i.Version},
		Implementation:  Peer{i.Implementation.Name, i.Implementation.Version},
		Systems:         orEmpty(i.Systems), Capabilities: orEmpty(i.Capabilities), Operations: orEmpty(i.Operations),
		Concurrency: i.Concurrency, Unimplemented: i.Unimplemented, ToolNames: i.ToolNames,
	}
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// AgentRef names an agent.
type AgentRef struct {
	AgentID string `json:"agentId"`
}

// CreateParams are the params of agent/create.
type CreateParams struct {
	AgentID string               `json:"agentId"`
	Options adapter.AgentOptions `json:"options"`
}

// CreateResult is the result of agent/create; AgentID may echo the
// runner's.
type CreateResult struct {
	AgentID string `json:"agentId,omitempty"`
}

// SendParams are the params of agent/send.
type SendParams struct {
	AgentID string `json:"agentId"`
	Prompt  string `json:"prompt"`
}

// RegisterParams are the params of agent/register.
type RegisterParams struct {
	AgentID string          `json:"agentId"`
	Name    string          `json:"name"`
	Entry   json.RawMessage `json:"entry"`
}

// UnregisterParams are the params of agent/unregister.
type UnregisterParams = NameParams

// ListResult is the result of agent/list.
type ListResult struct {
	Servers []adapter.ServerStatus `json:"servers"`
}

// ModelParams are the params of host/model.
type ModelParams struct {
	AgentID string               `json:"agentId"`
	Request adapter.ModelRequest `json:"request"`
}

// ApproveParams are the params of host/approve.
type ApproveParams struct {
	AgentID string                  `json:"agentId"`
	Request adapter.ApprovalRequest `json:"request"`
}

// ApproveResult is the result of host/approve.
type ApproveResult struct {
	Decision adapter.Decision `json:"decision"`
}

// EventParams are the params of host/event.
type EventParams struct {
	AgentID string        `json:"agentId"`
	Event   adapter.Event `json:"event"`
}

// empty is the result of operations that return nothing.
type empty struct{}

// AdvanceParams are the params of agent/advanceClock.
type AdvanceParams struct {
	AgentID string `json:"agentId"`
	Ms      int64  `json:"ms"`
}

// LogsResult is the result of agent/logs.
type LogsResult struct {
	Lines []string `json:"lines"`
}

// SubagentParams are the params of agent/subagent: AgentID is the root,
// SubAgentID the runner's id for the new sub-agent.
type SubagentParams struct {
	AgentID    string                  `json:"agentId"`
	SubAgentID string                  `json:"subAgentId"`
	Options    adapter.SubAgentOptions `json:"options"`
}

// ProjectParams are the params of agent/project.
type ProjectParams struct {
	AgentID string          `json:"agentId"`
	Result  json.RawMessage `json:"result"`
}

// HookParams are the params of host/hook.
type HookParams struct {
	AgentID string            `json:"agentId"`
	Hook    adapter.HookEvent `json:"hook"`
}

// ValidateParams are the params of host/validate.
type ValidateParams struct {
	AgentID string                  `json:"agentId"`
	Request adapter.ValidateRequest `json:"request"`
}

// ValidateResult is the result of host/validate: no issues means valid.
type ValidateResult struct {
	Issues []string `json:"issues"`
}

// ExecuteParams are the params of host/execute.
type ExecuteParams struct {
	AgentID string                 `json:"agentId"`
	Request adapter.ExecuteRequest `json:"request"`
}

// ExecuteResult is the result of host/execute: what the host tool's
// execute() returned, a JSON string or {"content", "isError"?}.
type ExecuteResult struct {
	Result json.RawMessage `json:"result"`
}

// AuthorizeParams are the params of host/authorize.
type AuthorizeParams struct {
	AgentID string                   `json:"agentId"`
	Request adapter.AuthorizeRequest `json:"request"`
}

// AuthorizeResult is the result of host/authorize: the full callback URL.
type AuthorizeResult struct {
	CallbackURL string `json:"callbackUrl"`
}

// ProviderParams are the params of host/provider.
type ProviderParams struct {
	AgentID string               `json:"agentId"`
	Call    adapter.ProviderCall `json:"call"`
}

// ProviderResult is the result of host/provider: the method's return
// value, null for none.
type ProviderResult struct {
	Value json.RawMessage `json:"value"`
}

// NameParams are the params of agent/mcpConnect, agent/mcpDisconnect and
// agent/mcpReconnect: the server's name.
type NameParams struct {
	AgentID string `json:"agentId"`
	Name    string `json:"name"`
}

// MCPStatusResult is the result of agent/mcpStatus.
type MCPStatusResult struct {
	Servers []adapter.BladeServerStatus `json:"servers"`
}

// MCPListToolsResult is the result of agent/mcpListTools.
type MCPListToolsResult struct {
	Tools []adapter.ToolInfo `json:"tools"`
}

// PermissionParams are the params of host/permission.
type PermissionParams struct {
	AgentID string                    `json:"agentId"`
	Request adapter.PermissionRequest `json:"request"`
}

// PermissionResult is the result of host/permission.
type PermissionResult struct {
	Decision string `json:"decision"`
}

// InProcessToolParams are the params of host/inProcessTool.
type InProcessToolParams struct {
	AgentID string                       `json:"agentId"`
	Request adapter.InProcessToolRequest `json:"request"`
}

// MCPHealthResult is the result of agent/mcpHealth.
type MCPHealthResult struct {
	Servers []adapter.ServerHealth `json:"servers"`
}
