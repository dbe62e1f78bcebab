package core

import "time"

// The documented limits of lite-agent's MCP host layer. Each one fails
// explicitly when exceeded; nothing is ever truncated.
const (
	// MaxServers is the most servers the registry holds, from all sources
	// together (LA-LIM-01).
	MaxServers = 32
	// MaxToolsPerServer is the most tools one server may offer (LA-LIM-02).
	MaxToolsPerServer = 128
	// MaxDiscoveryPages is the most tools/list pages requested from one
	// server; a server that still has a next page after it fails
	// (LA-LIM-03).
	MaxDiscoveryPages = 16
	// MaxCatalogBytes bounds the whole tool catalog offered to the model,
	// measured as the JSON of every tool definition (LA-LIM-04).
	MaxCatalogBytes = 512 << 10
	// MaxConfigFileBytes bounds each mcps.json file (LA-LIM-05).
	MaxConfigFileBytes = 256 << 10
	// MaxMessageBytes bounds one stdio message, one HTTP response and one
	// tool projection (LA-LIM-06..08).
	MaxMessageBytes = 4 << 20

	// MinAliasLength and MaxAliasLength bound a server alias (LA-NAME-02).
	MinAliasLength = 1
	MaxAliasLength = 24
	// MaxToolNameLength bounds a full tool name mcp__<server>__<tool>
	// (LA-NAME-05).
	MaxToolNameLength = 64

	// DefaultTimeout is the connection and call timeout when an entry sets
	// no timeoutMs (LA-TMO-01, LA-TMO-02).
	DefaultTimeout = 30 * time.Second
	// MaxTimeout is the largest timeoutMs an entry may set (LA-TMO-03).
	MaxTimeout = 300 * time.Second
)

// Version is the version of the reference implementation.
const Version = "0.1.0"
