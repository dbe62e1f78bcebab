package reference

import (
	"github.com/mcpconform/mcpconform/internal/fault"
	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// ServerConfig is one MCP server entry, the same in mcps.json, in the
// mcpServers option and in [Registry.Register].
//
// A stdio entry runs Command with Args and the extra environment Env; Type
// ("stdio") may be left empty (LA-CFG-06). An http entry must say Type
// "http" explicitly (LA-CFG-07) and names URL and optional Headers. Timeout
// bounds connecting and each call: zero means [DefaultTimeout], otherwise a
// whole number of milliseconds from 1 ms to [MaxTimeout] (timeoutMs in
// JSON). Values are used literally: there is no variable interpolation
// (LA-CFG-08).
type ServerConfig = core.ServerConfig

// NamedServer is a server entry (Config) with its alias (Name), in
// declaration order: the mcpServers option is a list of them.
type NamedServer = core.NamedServer

// The transports a [ServerConfig] can use.
const (
	TransportStdio = core.TransportStdio
	TransportHTTP  = core.TransportHTTP
)

// DecodeServers decodes an mcpServers object (alias → entry) with the same
// strict rules as the configuration files: JSON types are checked, unknown
// fields and duplicate aliases are refused. It does not judge the values:
// [New] and [Registry.Register] validate every entry (aliases, URLs,
// headers, combinations of fields) wherever it came from. source names where
// the JSON came from, for error messages.
func DecodeServers(data []byte, source string) ([]NamedServer, error) {
	return core.DecodeServers(data, source, fault.Set{})
}

// DecodeServerConfig decodes one server entry, as [Registry.Register]
// receives it in JSON form; see [DecodeServers] for what it checks.
func DecodeServerConfig(data []byte) (ServerConfig, error) {
	return core.DecodeServerConfig(data, fault.Set{})
}

// The decoders' twins take faults, for the conformance suite's mutation
// tests (fault.Twin): the rules decoding enforces, such as refusing
// timeoutMs 0 (LA-TMO-03), have no host to break.
func init() {
	fault.RegisterTwin("reference.DecodeServers", core.DecodeServers)
	fault.RegisterTwin("reference.DecodeServerConfig", core.DecodeServerConfig)
}

// ProjectConfigPath returns the project configuration file of workdir:
// <workdir>/.lite-agent/mcps.json (LA-CFG-02).
func ProjectConfigPath(workdir string) string { return core.ProjectConfigPath(workdir) }

// GlobalConfigPath returns the global configuration file of home, the
// lite-agent <home> directory: <home>/mcps.json (LA-CFG-03).
func GlobalConfigPath(home string) string { return core.GlobalConfigPath(home) }
