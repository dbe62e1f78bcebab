package blade

import (
	"time"

	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// ServerConfig is one Blade McpServerConfig (BL-CFG-02): the fields of a
// [reference.ServerConfig] (type "stdio", "sse" or "http", command, args,
// env, url and headers), and Disabled, which keeps the server unconnected
// until [Session.MCPConnect] (BL-CFG-04, BL-CFG-05); AlwaysAllow, reserved
// metadata that authorizes nothing (BL-CFG-07, BL-PERM-01); OAuth, the
// oauth block, accepted, though a server with OAuth enabled fails to
// connect with an unsupported error, since the reference's Blade profile
// has no OAuth flow (BL-OAU-01); and HealthCheck, the healthCheck block.
type ServerConfig = core.BladeServerConfig

// The transports of a [ServerConfig].
const (
	TransportStdio = core.TransportStdio
	// TransportSSE is the legacy HTTP+SSE transport, which Blade accepts
	// (BL-TRN-03) and lite-agent refuses (LA-TRN-04).
	TransportSSE  = core.TransportSSE
	TransportHTTP = core.TransportHTTP
)

// OAuth is a Blade server's oauth block: Provider, ClientID, and Enabled,
// nil when the block does not say (which turns OAuth on, interpretation
// B-05).
type OAuth = core.BladeOAuth

// HealthCheck is a Blade server's healthCheck block: Enabled (nil or false
// means no checks, BL-HC-03) and IntervalMs (nil means
// [DefaultHealthInterval]).
type HealthCheck = core.BladeHealthCheck

// DefaultHealthInterval is the interval of a healthCheck that names none
// (the document's example, interpretation B-04).
const DefaultHealthInterval time.Duration = core.DefaultHealthInterval

// NamedServer is one entry of a Blade mcpServers option: its Name (the
// server key) and Config, in the order the option declares them.
type NamedServer = core.NamedBladeServer

// DecodeServers decodes a Blade mcpServers object (name → McpServerConfig)
// strictly: JSON types are checked, and unknown fields and duplicate names
// are refused with the field that is wrong (BL-CFG-02). The values are
// judged by [NewSession].
func DecodeServers(data []byte) ([]NamedServer, error) { return core.DecodeBladeServers(data) }
