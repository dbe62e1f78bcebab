package adapter

import "encoding/json"

// AgentOptions are the constructor options of an agent, as plain data.
//
// The runner builds them from a scenario; the adapter translates them into
// the implementation's own constructor call (createLiteAgent for lite-agent).
// Values a scenario wants to be invalid stay verbatim JSON, so that the
// implementation, not the adapter, is the one that rejects them.
type AgentOptions struct {
	// System selects the product profile the agent follows.
	System System `json:"system"`
	// Workdir is the agent's working directory; the project configuration
	// file is <Workdir>/.lite-agent/mcps.json.
	Workdir string `json:"workdir"`
	// Home overrides the lite-agent <home> directory (default
	// ~/.lite-agent, where ~ is HOME of [Env.Environ]). Empty means the
	// default. Setting it needs [CapHome].
	Home string `json:"home,omitempty"`
	// MCPServers is the mcpServers constructor option, verbatim. Empty means
	// the option is absent.
	MCPServers json.RawMessage `json:"mcpServers,omitempty"`
	// StrictMCPConfig is the strictMcpConfig option: when true only the
	// explicit configuration is used and the files are ignored.
	StrictMCPConfig bool `json:"strictMcpConfig,omitempty"`
	// Permission is the permission policy; nil means the implementation's
	// default policy.
	Permission *Policy `json:"permission,omitempty"`
	// Approval says whether the host supplies an approval handler
	// (onApproval). When false the implementation has none, and
	// [Host.Approve] is never called.
	Approval bool `json:"approval"`
	// AllowedTools is the allowedTools option; nil means absent.
	AllowedTools []string `json:"allowedTools,omitempty"`
	// MCPTransports is the mcpTransports option; nil means absent.
	MCPTransports []string `json:"mcpTransports,omitempty"`
	// Sandbox is a sandbox command line the implementation must start
	// every stdio server through, the server's command and arguments
	// appended (lite-agent's sandbox, undocumented option). Needs
	// [CapSandbox].
	Sandbox []string `json:"sandbox,omitempty"`
	// ManualClock asks for an agent whose timers stand still until
	// [Agent.AdvanceClock] moves them. Needs [CapClock].
	ManualClock bool `json:"manualClock,omitempty"`
	// Tools are tools the host defines (lite-agent's core Tool
	// interface), offered beside the MCP tools. The implementation
	// validates their input through [Host.Validate] (a "standard" schema)
	// or its own schema library (a "native" one), and runs them through
	// [Host.Execute].
	Tools []CustomTool `json:"tools,omitempty"`
	// DryRun switches tool permissions to dry-run mode. Needs
	// [CapDryRun].
	DryRun bool `json:"dryRun,omitempty"`
	// PermissionCallback gives a Blade session or agent a permission
	// callback (advanced.permission), answered by [Host.Permission]; it
	// replaces Permission.
	PermissionCallback bool `json:"permissionCallback,omitempty"`
	// MCPOAuth is the mcpOAuth option: OAuth bound to servers by name.
	MCPOAuth map[string]OAuthBinding `json:"mcpOAuth,omitempty"`
	// OAuthProviders maps the provider names of Blade oauth blocks to
	// the issuer URLs of their authorization servers (interpretation
	// B-06). Needs [CapOAuthEndpoints].
	OAuthProviders map[string]string `json:"oauthProviders,omitempty"`
	// OAuthRedirectURI overrides the redirect URI of Blade's
	// authorization code flow; empty means the implementation's default.
	// Needs [CapOAuthRedirect].
	OAuthRedirectURI string `json:"oauthRedirectUri,omitempty"`
}

// OAuthBinding is one entry of the mcpOAuth option.
type OAuthBinding struct {
	// ServerURL is the binding's serverUrl.
	ServerURL string `json:"serverUrl"`
	// AllowedOrigins is the binding's allowedOrigins.
	AllowedOrigins []string `json:"allowedOrigins,omitempty"`
	// Provider names the host's provider (McpOAuthProvider) that the
	// binding uses: its calls reach [Host.Provider] with this name. Two
	// bindings naming the same provider pass the same provider object.
	// Empty with ClientCredentials.
	Provider string `json:"provider,omitempty"`
	// ClientCredentials, when set, makes the binding's provider the
	// official client-credentials provider with these credentials.
	ClientCredentials *ClientCredentials `json:"clientCredentials,omitempty"`
	// Authorize says whether the binding has authorize(url, {signal}),
	// answered by [Host.Authorize].
	Authorize bool `json:"authorize"`
	// TimeoutMs is the binding's timeoutMs, verbatim: a number, or the
	// string "NaN" for a value JSON cannot carry. Absent means none.
	TimeoutMs json.RawMessage `json:"timeoutMs,omitempty"`
}

// ClientCredentials configure the official client-credentials provider
// (ClientCredentialsProvider).
type ClientCredentials struct {
	ClientID       string `json:"clientId"`
	ClientSecret   string `json:"clientSecret"`
	ExpectedIssuer string `json:"expectedIssuer"`
}

// CustomTool is a tool the host defines.
type CustomTool struct {
	Name        string     `json:"name"`
	Description string     `json:"description,omitempty"`
	Schema      ToolSchema `json:"schema"`
}

// ToolSchema describes a host tool's input schema.
type ToolSchema struct {
	// Kind is "standard": a Standard Schema object whose validate() is
	// answered by [Host.Validate] and whose JSON Schema input export is
	// JSONSchema; or "native": the implementation's own schema library
	// (Zod in TypeScript, jsonschema-go in Go) built from JSONSchema.
	Kind string `json:"kind"`
	// JSONSchema is the input's JSON Schema.
	JSONSchema json.RawMessage `json:"jsonSchema"`
}

// SubAgentOptions configure a sub-agent ([Agent.SubAgent]).
type SubAgentOptions struct {
	// AllowedTools is the sub-agent's own allowlist; nil keeps its
	// root's.
	AllowedTools []string `json:"allowedTools,omitempty"`
	// Permission is the sub-agent's own policy.
	Permission *Policy `json:"permission,omitempty"`
}

// Projection is a tool result as the model would receive it
// ([Agent.Project], [CapProjection]).
type Projection struct {
	// Text is what the model is given.
	Text string `json:"text"`
	// Bytes is the size of the projection before any archiving.
	Bytes int `json:"bytes"`
	// Archived says it went to the session archive.
	Archived bool `json:"archived"`
	// IsError marks a tool error.
	IsError bool `json:"isError"`
}

// Policy is a permission policy in the shape of lite-agent's
// policy({ask, allow, deny}): lists of capability names and patterns such as
// "mcp_connect", "mcp__*" or "mcp__docs__search".
type Policy struct {
	Ask   []string `json:"ask,omitempty"`
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}
