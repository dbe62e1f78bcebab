package reference

import (
	"log/slog"

	"github.com/mcpconform/mcpconform/internal/fault"
	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// Options configure [New], the counterpart of lite-agent's createLiteAgent.
type Options struct {
	// Workdir is the agent's working directory; the project configuration
	// is <Workdir>/.lite-agent/mcps.json. Empty means the current
	// directory.
	Workdir string
	// Home is the lite-agent <home> directory, holding the global
	// configuration <Home>/mcps.json. Empty means ~/.lite-agent, where ~
	// is HOME of [Options.Environ]; with no HOME there is no global file.
	Home string
	// MCPServers declares servers in code (the mcpServers option). They
	// are validated exactly like the files'.
	MCPServers []NamedServer
	// StrictMCPConfig ignores both configuration files: they are not even
	// read (LA-CFG-15, interpretation A-09).
	StrictMCPConfig bool
	// Model answers the agent's model requests. Required for [Agent.Send].
	Model Model
	// Approval decides what the permission policy asks about. Nil means no
	// handler, and every question is answered deny (LA-SEC-06).
	Approval ApprovalHandler
	// Permission is the permission policy. Nil is the default policy,
	// which asks before connecting and before every MCP call (LA-SEC-04,
	// LA-SEC-05).
	Permission *Policy
	// AllowedTools, when non-nil, is the only tools the model sees; it
	// grants nothing (LA-SEC-08, LA-SEC-09).
	AllowedTools []string
	// Tools are the host's own tools, offered beside the MCP tools under
	// the same policy, hooks and events.
	Tools []Tool
	// Hooks are called around every tool call.
	Hooks Hooks
	// DryRun simulates tool calls instead of running them: the model gets
	// a description of the call. Connecting still needs mcp_connect
	// (LA-SEC-13).
	DryRun bool
	// Environ is the host's own environment (process.env) as KEY=VALUE
	// pairs. Nil means os.Environ(). It supplies HOME and PATH and the
	// safe default set a stdio server inherits; nothing else of it reaches
	// a child process (LA-SEC-16).
	Environ []string
	// MCPTransports, when non-nil, is the only transports servers may use
	// ("stdio", "http"); an entry of another transport is refused wherever
	// it is declared (LA-SEC-21, interpretation A-18).
	MCPTransports []string
	// Sandbox, when set, is the command line every stdio server is started
	// through: the server's command and arguments are appended to it
	// (LA-SEC-14). The probe process and the actual process both use it.
	Sandbox []string
	// MCPOAuth binds OAuth to servers by name (the mcpOAuth option),
	// whichever source declares them (LA-OAU-01).
	MCPOAuth map[string]OAuthConfig
	// Clock times every timeout. Nil is the real clock.
	Clock Clock
	// Logger receives the reference's own diagnostics. Nil discards them.
	// It never receives server stderr or credentials.
	Logger *slog.Logger

	// faults break rules on purpose, for the conformance suite's mutation
	// tests only; nothing outside this module can set them.
	faults fault.Set
}

func init() {
	fault.Register(func(o *Options, s fault.Set) { o.faults = s })
}

// core returns the options of the core host.
func (o Options) core() core.Options {
	return core.Options{
		Workdir:         o.Workdir,
		Home:            o.Home,
		MCPServers:      o.MCPServers,
		StrictMCPConfig: o.StrictMCPConfig,
		Model:           o.Model,
		Approval:        o.Approval,
		Permission:      o.Permission,
		AllowedTools:    o.AllowedTools,
		Tools:           o.Tools,
		Hooks:           o.Hooks,
		DryRun:          o.DryRun,
		Environ:         o.Environ,
		MCPTransports:   o.MCPTransports,
		Sandbox:         o.Sandbox,
		MCPOAuth:        o.MCPOAuth,
		Clock:           o.Clock,
		Logger:          o.Logger,
		Faults:          o.faults,
	}
}
