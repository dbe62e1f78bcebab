package fault

// The faults of the Blade profile's rules (BL-*).
const (
	BladeIgnoreServers           Fault = "BL-CFG-01/ignore-mcpServers"
	BladeRejectHealthCheck       Fault = "BL-CFG-02/refuse-healthCheck"
	BladeConnectDisabled         Fault = "BL-CFG-04/connect-disabled-servers"
	BladeDisabledStays           Fault = "BL-CFG-05/mcpConnect-refuses-disabled"
	BladeLazyConnect             Fault = "BL-CFG-06/connect-lazily"
	BladeAlwaysAllowGrants       Fault = "BL-CFG-07/alwaysAllow-authorizes"
	BladeNoMCPTools              Fault = "BL-CFG-08/no-mcp-tools-for-the-model"
	BladeStatusOnlyConnected     Fault = "BL-RT-01/status-lists-connected-only"
	BladeLiteAgentStatuses       Fault = "BL-RT-02/lite-agent-status-words"
	BladeToolCountOff            Fault = "BL-RT-03/tool-count-off-by-one"
	BladeErrorAsDisconnected     Fault = "BL-RT-04/failure-reported-disconnected"
	BladeNoConnecting            Fault = "BL-RT-05/no-connecting-status"
	BladeConnectNoop             Fault = "BL-RT-06/mcpConnect-does-nothing"
	BladeDisconnectKeepsProcess  Fault = "BL-RT-07/disconnect-keeps-the-process"
	BladeReconnectNoop           Fault = "BL-RT-08/reconnect-keeps-the-connection"
	BladeListToolsServerName     Fault = "BL-RT-09/serverName-is-the-tool"
	BladeListDisconnected        Fault = "BL-RT-10/list-tools-of-disconnected-servers"
	BladeDropArgs                Fault = "BL-TRN-01/stdio-without-args"
	BladeDropEnv                 Fault = "BL-TRN-02/stdio-without-env"
	BladeSSEAsHTTP               Fault = "BL-TRN-03/sse-as-streamable-http"
	BladeSSENoHeaders            Fault = "BL-TRN-04/sse-without-headers"
	BladeHTTPAsSSE               Fault = "BL-TRN-05/http-as-sse"
	BladeHTTPNoHeaders           Fault = "BL-TRN-06/http-without-headers"
	BladeRawNames                Fault = "BL-NAME-01/raw-tool-names"
	BladeAlwaysAllowSkipsSession Fault = "BL-PERM-01/alwaysAllow-skips-the-session-pipeline"
	BladeAlwaysAllowSkipsAgent   Fault = "BL-PERM-02/alwaysAllow-skips-the-permission-check"
	BladeAllowAsks               Fault = "BL-PERM-03/allow-still-asks"
	BladeAskAllows               Fault = "BL-PERM-04/ask-runs-without-confirmation"
	BladePermissionRawName       Fault = "BL-PERM-05/permission-gets-the-raw-name"
	BladeNoHealthChecks          Fault = "BL-HC-01/no-health-checks"
	BladeIgnoreFailedPings       Fault = "BL-HC-02/failed-pings-ignored"
	BladeCheckWhenDisabled       Fault = "BL-HC-03/checks-when-not-enabled"
	BladeHealthNeverChecking     Fault = "BL-HC-04/never-checking"
	BladeHealthSlowHealthy       Fault = "BL-HC-04/slow-answer-healthy"
	BladeHealthDisabledHealthy   Fault = "BL-HC-04/healthy-when-disabled"
	BladeHealthNoRecovery        Fault = "BL-HC-04/no-healthy-after-a-timely-answer"
	BladeHealthFailureUnhealthy  Fault = "BL-HC-04/one-failure-unhealthy"
	BladeHealthNoUnhealthy       Fault = "BL-HC-04/consecutive-failures-only-degraded"
	BladeMCPFirst                Fault = "BL-ORD-01/mcp-tools-first"
	BladeUnsortedOwnTools        Fault = "BL-ORD-02/built-ins-unsorted"
	BladeCodePointOrder          Fault = "BL-ORD-02/code-point-order"
	BladeUnsortedMCPTools        Fault = "BL-ORD-03/mcp-tools-unsorted"
	BladeCaseInsensitiveOrder    Fault = "BL-ORD-03/case-insensitive-order"
	BladeOrderByServer           Fault = "BL-ORD-03/by-server-then-tool"
	BladeShadowOwnTools          Fault = "BL-NAME-02/mcp-tool-shadows-application-tool"
	BladeNoKeyCollision          Fault = "BL-NAME-03/no-normalized-collision-check"
	BladeDropSameName            Fault = "BL-NAME-04/drop-same-named-tools"
	BladeListRewrittenNames      Fault = "BL-NAME-06/list-tools-under-rewritten-names"
	BladeInProcessFirstToolOnly  Fault = "BL-INP-01/only-the-first-tool"
	BladeInProcessRefused        Fault = "BL-INP-02/in-process-servers-refused"
	BladeInProcessUntyped        Fault = "BL-INP-03/in-process-read-as-stdio"
	BladeInProcessAlone          Fault = "BL-INP-04/in-process-servers-alone"
	BladeInProcessSpawns         Fault = "BL-INP-05/in-process-server-spawns-a-process"
	BladeInProcessDetached       Fault = "BL-INP-06/handler-detached-from-the-call"
	BladeInProcessNoArguments    Fault = "BL-INP-07/handler-without-arguments"
	BladeInProcessUnvalidated    Fault = "BL-INP-07/arguments-not-validated"
	BladeInProcessDropText       Fault = "BL-INP-08/text-content-dropped"
	BladeInProcessIgnoreIsError  Fault = "BL-INP-09/isError-ignored"
	BladeInProcessTextOnly       Fault = "BL-INP-10/image-and-resource-refused"
	BladeInProcessBareSchema     Fault = "BL-INP-11/schema-without-descriptions"
)

// bladeFaults describes the faults of the Blade profile's rules (BL-*).
var bladeFaults = map[Fault]string{
	BladeIgnoreServers:           "ignores the mcpServers option of a session",
	BladeRejectHealthCheck:       "refuses the healthCheck field",
	BladeConnectDisabled:         "connects disabled servers at creation",
	BladeDisabledStays:           "refuses to mcpConnect a disabled server",
	BladeLazyConnect:             "connects nothing at creation",
	BladeAlwaysAllowGrants:       "lets alwaysAllow authorize calls",
	BladeNoMCPTools:              "offers the model no MCP tool",
	BladeStatusOnlyConnected:     "leaves servers that are not connected out of mcpServerStatus()",
	BladeLiteAgentStatuses:       "reports lite-agent's status words (configured, failed)",
	BladeToolCountOff:            "reports one tool too many in toolCount",
	BladeErrorAsDisconnected:     "reports a failed server as disconnected",
	BladeNoConnecting:            "reports disconnected while connecting",
	BladeConnectNoop:             "does nothing on mcpConnect",
	BladeDisconnectKeepsProcess:  "leaves the stdio process running on mcpDisconnect",
	BladeReconnectNoop:           "keeps a connected server's connection on mcpReconnect",
	BladeListToolsServerName:     "puts the tool's name in McpToolInfo.serverName",
	BladeListDisconnected:        "lists the tools of disconnected servers",
	BladeDropArgs:                "starts stdio servers without their args",
	BladeDropEnv:                 "starts stdio servers without their env",
	BladeSSEAsHTTP:               "speaks Streamable HTTP to sse servers",
	BladeSSENoHeaders:            "sends no configured headers to sse servers",
	BladeHTTPAsSSE:               "speaks the legacy SSE transport to http servers",
	BladeHTTPNoHeaders:           "sends no configured headers to http servers",
	BladeRawNames:                "exposes tools under their raw names",
	BladeAlwaysAllowSkipsSession: "lets alwaysAllow skip the session's permission pipeline",
	BladeAlwaysAllowSkipsAgent:   "lets alwaysAllow skip the agent's permission check",
	BladeAllowAsks:               "asks for confirmation when the permission callback allows",
	BladeAskAllows:               "runs the tool without confirmation when the permission callback asks",
	BladePermissionRawName:       "gives the permission callback the tool's raw name",
	BladeNoHealthChecks:          "never runs health checks",
	BladeIgnoreFailedPings:       "keeps a server connected whatever its health checks say",
	BladeCheckWhenDisabled:       "runs health checks on servers that did not enable them, the first at connection",
	BladeHealthNeverChecking:     "never reports checking while a health check is in progress",
	BladeHealthSlowHealthy:       "reports healthy after a health check answered later than half its timeout",
	BladeHealthDisabledHealthy:   "reports healthy for a server whose health check is not enabled",
	BladeHealthNoRecovery:        "reports degraded after a health check answered in time",
	BladeHealthFailureUnhealthy:  "reports unhealthy after a single failed health check",
	BladeHealthNoUnhealthy:       "reports degraded, not unhealthy, after consecutive failed health checks",
	BladeMCPFirst:                "offers the MCP tools before the built-in and application tools",
	BladeUnsortedOwnTools:        "offers the built-in and application tools in declaration order",
	BladeUnsortedMCPTools:        "offers the MCP tools in connection order",
	BladeCodePointOrder:          "sorts the built-in and application tools by code point (Go's string order), not by UTF-16 code unit",
	BladeCaseInsensitiveOrder:    "sorts the MCP tools without regard to letter case",
	BladeOrderByServer:           "sorts the MCP tools by server name, then by tool name",
	BladeShadowOwnTools:          "lets an MCP tool take an application tool's name",
	BladeNoKeyCollision:          "does not check names for collisions after normalization",
	BladeDropSameName:            "drops a tool whose name another server already offers",
	BladeListRewrittenNames:      "names mcpListTools() entries serverName__toolName, unlike the model and the permission callback",
	BladeInProcessFirstToolOnly:  "keeps only the first tool() value of an in-process server",
	BladeInProcessRefused:        "fails to connect in-process servers",
	BladeInProcessUntyped:        "reads an in-process handle as a stdio configuration",
	BladeInProcessAlone:          "connects only the in-process servers when there are any",
	BladeInProcessSpawns:         "starts a child process for every in-process server connection",
	BladeInProcessDetached:       "answers an in-process call at once and runs its handler afterwards",
	BladeInProcessNoArguments:    "calls in-process handlers with {} instead of the model's arguments",
	BladeInProcessUnvalidated:    "calls in-process handlers with arguments that do not match their schema",
	BladeInProcessDropText:       "drops the text items of an in-process tool's response",
	BladeInProcessIgnoreIsError:  "ignores isError in an in-process tool's response",
	BladeInProcessTextOnly:       "fails in-process calls whose response has image or resource items",
	BladeInProcessBareSchema:     "offers in-process tools without their properties' descriptions",
}
