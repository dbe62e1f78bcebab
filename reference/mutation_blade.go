package reference

import "maps"

// The mutations of the Blade profile's rules (BL-*); [Mutants] holds them
// all. Each breaks one documented behaviour of [Session].
const (
	MutBladeIgnoreServers           Mutation = "BL-CFG-01/ignore-mcpServers"
	MutBladeRejectHealthCheck       Mutation = "BL-CFG-02/refuse-healthCheck"
	MutBladeConnectDisabled         Mutation = "BL-CFG-04/connect-disabled-servers"
	MutBladeDisabledStays           Mutation = "BL-CFG-05/mcpConnect-refuses-disabled"
	MutBladeLazyConnect             Mutation = "BL-CFG-06/connect-lazily"
	MutBladeAlwaysAllowGrants       Mutation = "BL-CFG-07/alwaysAllow-authorizes"
	MutBladeNoMCPTools              Mutation = "BL-CFG-08/no-mcp-tools-for-the-model"
	MutBladeStatusOnlyConnected     Mutation = "BL-RT-01/status-lists-connected-only"
	MutBladeLiteAgentStatuses       Mutation = "BL-RT-02/lite-agent-status-words"
	MutBladeToolCountOff            Mutation = "BL-RT-03/tool-count-off-by-one"
	MutBladeErrorAsDisconnected     Mutation = "BL-RT-04/failure-reported-disconnected"
	MutBladeNoConnecting            Mutation = "BL-RT-05/no-connecting-status"
	MutBladeConnectNoop             Mutation = "BL-RT-06/mcpConnect-does-nothing"
	MutBladeDisconnectKeepsProcess  Mutation = "BL-RT-07/disconnect-keeps-the-process"
	MutBladeReconnectNoop           Mutation = "BL-RT-08/reconnect-keeps-the-connection"
	MutBladeListToolsServerName     Mutation = "BL-RT-09/serverName-is-the-tool"
	MutBladeListDisconnected        Mutation = "BL-RT-10/list-tools-of-disconnected-servers"
	MutBladeDropArgs                Mutation = "BL-TRN-01/stdio-without-args"
	MutBladeDropEnv                 Mutation = "BL-TRN-02/stdio-without-env"
	MutBladeSSEAsHTTP               Mutation = "BL-TRN-03/sse-as-streamable-http"
	MutBladeSSENoHeaders            Mutation = "BL-TRN-04/sse-without-headers"
	MutBladeHTTPAsSSE               Mutation = "BL-TRN-05/http-as-sse"
	MutBladeHTTPNoHeaders           Mutation = "BL-TRN-06/http-without-headers"
	MutBladeRawNames                Mutation = "BL-NAME-01/raw-tool-names"
	MutBladeAlwaysAllowSkipsSession Mutation = "BL-PERM-01/alwaysAllow-skips-the-session-pipeline"
	MutBladeAlwaysAllowSkipsAgent   Mutation = "BL-PERM-02/alwaysAllow-skips-the-permission-check"
	MutBladeAllowAsks               Mutation = "BL-PERM-03/allow-still-asks"
	MutBladeAskAllows               Mutation = "BL-PERM-04/ask-runs-without-confirmation"
	MutBladePermissionRawName       Mutation = "BL-PERM-05/permission-gets-the-raw-name"
	MutBladeNoHealthChecks          Mutation = "BL-HC-01/no-health-checks"
	MutBladeIgnoreFailedPings       Mutation = "BL-HC-02/failed-pings-ignored"
	MutBladeCheckWhenDisabled       Mutation = "BL-HC-03/checks-when-not-enabled"
	MutBladeMCPFirst                Mutation = "BL-ORD-01/mcp-tools-first"
	MutBladeUnsortedOwnTools        Mutation = "BL-ORD-02/built-ins-unsorted"
	MutBladeCodePointOrder          Mutation = "BL-ORD-02/code-point-order"
	MutBladeUnsortedMCPTools        Mutation = "BL-ORD-03/mcp-tools-unsorted"
	MutBladeCaseInsensitiveOrder    Mutation = "BL-ORD-03/case-insensitive-order"
	MutBladeOrderByServer           Mutation = "BL-ORD-03/by-server-then-tool"
	MutBladeShadowOwnTools          Mutation = "BL-NAME-02/mcp-tool-shadows-application-tool"
	MutBladeNoKeyCollision          Mutation = "BL-NAME-03/no-normalized-collision-check"
	MutBladeDropSameName            Mutation = "BL-NAME-04/drop-same-named-tools"
)

func init() {
	maps.Copy(Mutants, map[Mutation]string{
		MutBladeIgnoreServers:           "ignores the mcpServers option of a session",
		MutBladeRejectHealthCheck:       "refuses the healthCheck field",
		MutBladeConnectDisabled:         "connects disabled servers at creation",
		MutBladeDisabledStays:           "refuses to mcpConnect a disabled server",
		MutBladeLazyConnect:             "connects nothing at creation",
		MutBladeAlwaysAllowGrants:       "lets alwaysAllow authorize calls",
		MutBladeNoMCPTools:              "offers the model no MCP tool",
		MutBladeStatusOnlyConnected:     "leaves servers that are not connected out of mcpServerStatus()",
		MutBladeLiteAgentStatuses:       "reports lite-agent's status words (configured, failed)",
		MutBladeToolCountOff:            "reports one tool too many in toolCount",
		MutBladeErrorAsDisconnected:     "reports a failed server as disconnected",
		MutBladeNoConnecting:            "reports disconnected while connecting",
		MutBladeConnectNoop:             "does nothing on mcpConnect",
		MutBladeDisconnectKeepsProcess:  "leaves the stdio process running on mcpDisconnect",
		MutBladeReconnectNoop:           "keeps a connected server's connection on mcpReconnect",
		MutBladeListToolsServerName:     "puts the tool's name in McpToolInfo.serverName",
		MutBladeListDisconnected:        "lists the tools of disconnected servers",
		MutBladeDropArgs:                "starts stdio servers without their args",
		MutBladeDropEnv:                 "starts stdio servers without their env",
		MutBladeSSEAsHTTP:               "speaks Streamable HTTP to sse servers",
		MutBladeSSENoHeaders:            "sends no configured headers to sse servers",
		MutBladeHTTPAsSSE:               "speaks the legacy SSE transport to http servers",
		MutBladeHTTPNoHeaders:           "sends no configured headers to http servers",
		MutBladeRawNames:                "exposes tools under their raw names",
		MutBladeAlwaysAllowSkipsSession: "lets alwaysAllow skip the session's permission pipeline",
		MutBladeAlwaysAllowSkipsAgent:   "lets alwaysAllow skip the agent's permission check",
		MutBladeAllowAsks:               "asks for confirmation when the permission callback allows",
		MutBladeAskAllows:               "runs the tool without confirmation when the permission callback asks",
		MutBladePermissionRawName:       "gives the permission callback the tool's raw name",
		MutBladeNoHealthChecks:          "never runs health checks",
		MutBladeIgnoreFailedPings:       "keeps a server connected whatever its health checks say",
		MutBladeCheckWhenDisabled:       "runs health checks on servers that did not enable them, the first at connection",
		MutBladeMCPFirst:                "offers the MCP tools before the built-in and application tools",
		MutBladeUnsortedOwnTools:        "offers the built-in and application tools in declaration order",
		MutBladeUnsortedMCPTools:        "offers the MCP tools in connection order",
		MutBladeCodePointOrder:          "sorts the built-in and application tools by code point (Go's string order), not by UTF-16 code unit",
		MutBladeCaseInsensitiveOrder:    "sorts the MCP tools without regard to letter case",
		MutBladeOrderByServer:           "sorts the MCP tools by server name, then by tool name",
		MutBladeShadowOwnTools:          "lets an MCP tool take an application tool's name",
		MutBladeNoKeyCollision:          "does not check names for collisions after normalization",
		MutBladeDropSameName:            "drops a tool whose name another server already offers",
	})
}
