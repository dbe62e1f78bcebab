package reference

import (
	"context"

	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// Registry is the agent's one registry of MCP servers, fed by the global
// file, the project file, the mcpServers option and [Registry.Register]
// (LA-REG-01). Only the agent that owns it changes it, and only while idle;
// a sub-agent's [Agent.MCP] lists its root's servers and changes none.
type Registry struct {
	r *core.Registry
}

// Register adds a server (agent.mcp.register()). When it returns nil the
// connection was approved, made and discovered, and the server and its
// tools are in the registry; on any failure nothing changed and the
// connection is released (LA-REG-07, LA-REG-08). An existing name is an
// error: replacing a server means [Registry.Unregister] first (LA-REG-05,
// LA-REG-06).
func (r *Registry) Register(ctx context.Context, name string, cfg ServerConfig) error {
	return r.r.Register(ctx, name, cfg)
}

// Unregister removes a server and closes its connection
// (agent.mcp.unregister()). Configuration files are not touched
// (LA-REG-12, LA-REG-13); the name is free again at once.
func (r *Registry) Unregister(ctx context.Context, name string) error {
	return r.r.Unregister(ctx, name)
}

// List returns the registry's local state (agent.mcp.list()). It makes no
// network call and no IPC, and works while servers are down (LA-REG-10).
func (r *Registry) List() []ServerInfo { return r.r.List() }

// ServerInfo is one entry of [Registry.List], local state only and never
// credentials (LA-REG-09, LA-REG-11): Name, Source, Status, Transport
// ("stdio" or "http"), Target (the command, or the URL without its
// query), Tools (the full names the model sees, once connected) and Error
// (the last failure of a failed server). It encodes to JSON with those
// names in lower camel case.
type ServerInfo = core.ServerInfo

// Status is a server's local state, as [Registry.List] reports it.
type Status = core.Status

// The statuses of a server.
const (
	// StatusConfigured: declared, not connected yet.
	StatusConfigured = core.StatusConfigured
	// StatusConnected: connected and discovered; its tools are offered.
	StatusConnected = core.StatusConnected
	// StatusStale: its catalog changed or its connection was lost; it is
	// connected again when the agent is next idle.
	StatusStale = core.StatusStale
	// StatusFailed: its last connection attempt failed; it is tried again
	// at the next run.
	StatusFailed = core.StatusFailed
)

// Source says where a server was declared.
type Source = core.Source

// The sources of the registry, in the order they are merged.
const (
	SourceGlobal   = core.SourceGlobal   // <home>/mcps.json
	SourceProject  = core.SourceProject  // <workdir>/.lite-agent/mcps.json
	SourceOption   = core.SourceOption   // the mcpServers option
	SourceInstance = core.SourceInstance // Registry.Register
)
