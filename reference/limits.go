package reference

import (
	"slices"

	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// The documented limits of lite-agent's MCP host layer. Each one fails
// explicitly when exceeded; nothing is ever truncated.
const (
	// MaxServers is the most servers the registry holds, from all sources
	// together (LA-LIM-01).
	MaxServers = core.MaxServers
	// MaxToolsPerServer is the most tools one server may offer (LA-LIM-02).
	MaxToolsPerServer = core.MaxToolsPerServer
	// MaxDiscoveryPages is the most tools/list pages requested from one
	// server; a server that still has a next page after it fails
	// (LA-LIM-03).
	MaxDiscoveryPages = core.MaxDiscoveryPages
	// MaxCatalogBytes bounds the whole tool catalog offered to the model,
	// measured as the JSON of every tool definition (LA-LIM-04).
	MaxCatalogBytes = core.MaxCatalogBytes
	// MaxConfigFileBytes bounds each mcps.json file (LA-LIM-05).
	MaxConfigFileBytes = core.MaxConfigFileBytes
	// MaxMessageBytes bounds one stdio message, one HTTP response and one
	// tool projection (LA-LIM-06..08).
	MaxMessageBytes = core.MaxMessageBytes

	// MinAliasLength and MaxAliasLength bound a server alias (LA-NAME-02).
	MinAliasLength = core.MinAliasLength
	MaxAliasLength = core.MaxAliasLength
	// MaxToolNameLength bounds a full tool name mcp__<server>__<tool>
	// (LA-NAME-05).
	MaxToolNameLength = core.MaxToolNameLength

	// DefaultTimeout is the connection and call timeout when an entry sets
	// no timeoutMs (LA-TMO-01, LA-TMO-02).
	DefaultTimeout = core.DefaultTimeout
	// MaxTimeout is the largest timeoutMs an entry may set (LA-TMO-03).
	MaxTimeout = core.MaxTimeout
)

// ProtocolVersion is the only MCP protocol version the reference speaks
// (LA-TRN-01). A server that cannot speak it is refused; there is no
// fallback to an older version (LA-TRN-02).
const ProtocolVersion = core.ProtocolVersion

// Version is the version of the reference implementation.
const Version = core.Version

// DefaultEnvironment lists the variables a stdio server inherits from the
// host's environment, as the official MCP SDKs do on POSIX systems. Nothing
// else of the host's environment reaches a child: its entry's env is added
// explicitly (LA-SEC-16, LA-SEC-17). It is a copy, for reading: changing
// it changes nothing.
var DefaultEnvironment = slices.Clone(core.DefaultEnvironment)
