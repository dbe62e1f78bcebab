package fault

// The faults of the lite-agent rules other than OAuth (LA-*).
const (
	ProjectFile              Fault = "LA-CFG-02/skip-project-file"
	GlobalFileLocation       Fault = "LA-CFG-03/global-file-under-home"
	ServersKey               Fault = "LA-CFG-04/accept-servers-key"
	ReadDotMCPJSON           Fault = "LA-CFG-05/read-root-mcp-json"
	RequireStdioType         Fault = "LA-CFG-06/require-stdio-type"
	InferHTTP                Fault = "LA-CFG-07/infer-http-from-url"
	Interpolate              Fault = "LA-CFG-08/interpolate-variables"
	LateValidation           Fault = "LA-CFG-10/validate-entries-at-connect"
	EagerConnect             Fault = "LA-CFG-11/connect-at-construction"
	ModelFirst               Fault = "LA-CFG-12/ask-model-before-connecting"
	ReconnectEverySend       Fault = "LA-CFG-12/reconnect-every-send"
	PhantomConnect           Fault = "LA-CFG-13/ask-connect-without-servers"
	HotReload                Fault = "LA-CFG-14/reload-files-every-send"
	IgnoreStrict             Fault = "LA-CFG-15/ignore-strict"
	FlatToolName             Fault = "LA-NAME-01/single-underscore-names"
	AliasLength              Fault = "LA-NAME-02/alias-25-characters"
	AliasCharset             Fault = "LA-NAME-03/alias-allows-dot"
	AliasRangeEnds           Fault = "LA-NAME-03/alias-refuses-range-ends"
	AliasDoubleUnderscore    Fault = "LA-NAME-04/alias-allows-double-underscore"
	ToolNameLength           Fault = "LA-NAME-05/tool-name-65-characters"
	CutLongNames             Fault = "LA-NAME-05/cut-names-to-37-characters"
	ToolNameCharset          Fault = "LA-NAME-06/tool-name-allows-dot"
	ToolNameRangeEnds        Fault = "LA-NAME-06/tool-name-refuses-range-ends"
	ToolNameNeighbours       Fault = "LA-NAME-06/tool-name-allows-range-neighbours"
	DropInvalidTools         Fault = "LA-NAME-07/drop-invalid-tools"
	DedupeTools              Fault = "LA-NAME-08/dedupe-duplicate-tools"
	DuplicatesIgnoringCase   Fault = "LA-NAME-08/duplicates-ignoring-case"
	SkipCollisionCheck       Fault = "LA-NAME-09/skip-collision-check"
	ServerLimit              Fault = "LA-LIM-01/33-servers"
	ToolLimit                Fault = "LA-LIM-02/129-tools"
	PageLimit                Fault = "LA-LIM-03/17-pages"
	CatalogLimit             Fault = "LA-LIM-04/1-MiB-catalog"
	ConfigFileLimit          Fault = "LA-LIM-05/config-file-one-byte-more"
	TruncateTools            Fault = "LA-LIM-09/truncate-to-limit"
	OptionUnvalidated        Fault = "LA-REG-01/option-entries-unvalidated"
	OptionReplacesFiles      Fault = "LA-REG-02/option-replaces-files"
	NoNormalization          Fault = "LA-REG-03/no-normalization"
	LaterSourceWins          Fault = "LA-REG-04/later-source-overrides"
	ReRegisterReplaces       Fault = "LA-REG-05/register-replaces"
	UnregisterKeepsName      Fault = "LA-REG-06/unregister-keeps-name"
	LazyDiscovery            Fault = "LA-REG-07/discover-after-register"
	KeepFailedEntry          Fault = "LA-REG-08/keep-failed-entry"
	WrongSource              Fault = "LA-REG-09/report-wrong-source"
	ListPings                Fault = "LA-REG-10/list-contacts-servers"
	ListLeaksConfig          Fault = "LA-REG-11/list-shows-config"
	UnregisterKeepsOpen      Fault = "LA-REG-12/unregister-keeps-connection"
	UnregisterEditsFile      Fault = "LA-REG-13/unregister-edits-file"
	CloseWaits               Fault = "LA-REG-21/close-waits-for-work"
	CloseLeavesChildren      Fault = "LA-REG-22/close-leaves-children"
	OldProtocol              Fault = "LA-TRN-01/speak-2025-11-25"
	Downgrade                Fault = "LA-TRN-02/fall-back-to-initialize"
	OldServerAsTransport     Fault = "LA-TRN-02/old-server-is-a-transport-error"
	RefuseJSON               Fault = "LA-TRN-03/refuse-json-responses"
	AcceptSSE                Fault = "LA-TRN-04/accept-sse-as-http"
	LegacyFallback           Fault = "LA-TRN-05/fall-back-to-legacy-sse"
	HeadersOnce              Fault = "LA-TRN-06/headers-on-first-request-only"
	AcceptInvalidHeaders     Fault = "LA-TRN-06/accept-headers-http-cannot-send"
	StrictHeaderNames        Fault = "LA-TRN-06/header-names-of-letters-digits-and-hyphens"
	ListResources            Fault = "LA-TRN-07/list-resources"
	OfferSampling            Fault = "LA-TRN-08/offer-sampling-and-roots"
	NoProbe                  Fault = "LA-TRN-10/no-probe-process"
	NoReap                   Fault = "LA-TRN-12/close-stdin-only"
	AllowPlainHTTP           Fault = "LA-NET-01/allow-plain-http"
	AllowNoHost              Fault = "LA-NET-01/allow-https-without-host"
	RefuseLoopbackHTTP       Fault = "LA-NET-02/refuse-loopback-http"
	LowerCaseLocalhost       Fault = "LA-NET-02/localhost-in-lower-case-only"
	LoopbackLookalikes       Fault = "LA-NET-03/allow-loopback-lookalikes"
	AllowUserinfo            Fault = "LA-NET-04/allow-user-credentials"
	AllowFragment            Fault = "LA-NET-05/allow-fragments"
	AllowReservedHeaders     Fault = "LA-NET-06/allow-reserved-headers"
	FollowRedirects          Fault = "LA-NET-07/follow-redirects"
	NoStdioCap               Fault = "LA-LIM-06/no-stdio-cap"
	NoHTTPCap                Fault = "LA-LIM-07/no-http-cap"
	LateHTTPCap              Fault = "LA-LIM-10/cap-at-64-MiB"
	ConnectTimeout20         Fault = "LA-TMO-01/connect-timeout-20s"
	CallTimeout20            Fault = "LA-TMO-02/call-timeout-20s"
	ConnectTimeout60         Fault = "LA-TMO-01/connect-timeout-60s"
	CallTimeout60            Fault = "LA-TMO-02/call-timeout-60s"
	AcceptTimeoutZero        Fault = "LA-TMO-03/accept-timeout-0"
	IgnoreTimeoutMs          Fault = "LA-TMO-04/ignore-timeoutMs"
	IgnoreAbort              Fault = "LA-TMO-05/ignore-abort"
	RetryOnce                Fault = "LA-TMO-06/retry-failed-call"
	ProbeOutsideSandbox      Fault = "LA-SEC-14/probe-outside-sandbox"
	InheritEnv               Fault = "LA-SEC-16/inherit-whole-environment"
	DropExplicitEnv          Fault = "LA-SEC-17/drop-explicit-env"
	StderrUnread             Fault = "LA-SEC-18/never-read-stderr"
	LogStderr                Fault = "LA-SEC-19/log-stderr"
	IgnoreTransports         Fault = "LA-SEC-21/ignore-mcpTransports"
	LiveCatalog              Fault = "LA-CAT-01/refresh-catalog-mid-run"
	IgnoreListChanged        Fault = "LA-CAT-02/ignore-list-changed"
	NoStaleOnLoss            Fault = "LA-CAT-03/ignore-lost-connections"
	KeepBrokenConnection     Fault = "LA-CAT-03/keep-connection-a-call-broke"
	SwapSchemas              Fault = "LA-CAT-04/swap-schemas-mid-run"
	NeverRefresh             Fault = "LA-CAT-05/never-refresh"
	RefreshWithoutApproval   Fault = "LA-CAT-06/refresh-without-approval"
	SkipInputValidation      Fault = "LA-VAL-01/skip-input-validation"
	AcceptInvalidSchemas     Fault = "LA-VAL-02/accept-invalid-schemas"
	SkipOutputValidation     Fault = "LA-VAL-03/skip-output-validation"
	DropIsError              Fault = "LA-VAL-04/drop-isError"
	PlainText                Fault = "LA-VAL-05/plain-text-results"
	DropLinks                Fault = "LA-VAL-06/drop-resource-links"
	DropStructured           Fault = "LA-VAL-07/drop-structured-content"
	InlineLarge              Fault = "LA-ARC-01/inline-large-results"
	InlineMedia              Fault = "LA-ARC-02/inline-media"
	ArchiveMediaEmpty        Fault = "LA-ARC-02/archive-media-empty"
	InlineResources          Fault = "LA-ARC-03/inline-embedded-resources"
	ArchiveResourcesEmpty    Fault = "LA-ARC-03/archive-embedded-resources-empty"
	NoContextRef             Fault = "LA-ARC-04/archive-without-reference"
	ContextIgnoresOffset     Fault = "LA-ARC-05/context-ignores-offset"
	NoNextBeforeTheEnd       Fault = "LA-ARC-05/no-next-before-the-end"
	NextOnTheLastPage        Fault = "LA-ARC-05/next-on-the-last-page"
	PagesCutMidCharacter     Fault = "LA-ARC-05/pages-cut-mid-character"
	AnyReadServed            Fault = "LA-ARC-05/serve-any-read"
	NoProgressToken          Fault = "LA-EVT-01/no-progress-token"
	ProgressTwice            Fault = "LA-EVT-01/progress-events-twice"
	BatchProgress            Fault = "LA-EVT-02/progress-after-the-call"
	NoStartHookForMCP        Fault = "LA-EVT-03/no-tool-start-for-mcp"
	NoEndHookOnFailure       Fault = "LA-EVT-04/no-tool-end-on-failure"
	IgnoreMCPDeny            Fault = "LA-SEC-01/ignore-deny-for-mcp"
	ConnectWithoutApproval   Fault = "LA-SEC-02/connect-without-approval"
	ApproveByServer          Fault = "LA-SEC-03/approve-by-server-name"
	DefaultAllowsConnect     Fault = "LA-SEC-04/default-allows-connect"
	RememberApproval         Fault = "LA-SEC-05/remember-approvals"
	NoHandlerAllows          Fault = "LA-SEC-06/no-handler-allows"
	HandlerErrorAllows       Fault = "LA-SEC-07/handler-failure-allows"
	HiddenCallable           Fault = "LA-SEC-08/hidden-tools-callable"
	AllowedToolsGrant        Fault = "LA-SEC-09/allowedTools-grants"
	TrustProjectFiles        Fault = "LA-SEC-10/trust-project-files"
	TrustAnnotations         Fault = "LA-SEC-11/trust-annotations"
	InjectInstructions       Fault = "LA-SEC-12/inject-instructions"
	DryRunSkipsConnect       Fault = "LA-SEC-13/dry-run-skips-connect"
	ReadFileLinks            Fault = "LA-SEC-23/read-file-links"
	FetchLinks               Fault = "LA-SEC-24/fetch-links"
	SubagentMayRegister      Fault = "LA-REG-14/subagent-may-register"
	RegisterWhileBusy        Fault = "LA-REG-15/register-while-busy"
	AwaitIdleAtOnce          Fault = "LA-REG-15/await-idle-returns-at-once"
	HookMayRegister          Fault = "LA-REG-16/hook-may-register"
	SubagentOwnConnections   Fault = "LA-REG-17/subagent-own-connections"
	SubagentIgnoresAllowlist Fault = "LA-REG-18/subagent-ignores-allowlist"
	SubagentLoosens          Fault = "LA-REG-19/subagent-loosens"
	SubagentCloseClosesRoot  Fault = "LA-REG-20/subagent-close-closes-root"
	ParallelMCP              Fault = "LA-TOOL-01/parallel-mcp-calls"
	SkipStandardValidate     Fault = "LA-TOOL-02/skip-standard-validate"
	GenericModelSchema       Fault = "LA-TOOL-03/generic-model-schema"
	SkipNativeValidation     Fault = "LA-TOOL-04/skip-library-schema-validation"
	StringIsError            Fault = "LA-TOOL-06/string-result-is-error"
	IgnoreToolIsError        Fault = "LA-TOOL-07/ignore-isError"
	NoProjectionCap          Fault = "LA-LIM-08/no-projection-cap"
)

// liteAgentFaults describes the faults of the lite-agent rules other than OAuth (LA-*).
var liteAgentFaults = map[Fault]string{
	ProjectFile:              "never reads <workdir>/.lite-agent/mcps.json",
	GlobalFileLocation:       "reads the global file from ~/mcps.json instead of ~/.lite-agent/mcps.json",
	ServersKey:               `also takes servers from a "servers" key`,
	ReadDotMCPJSON:           "also reads servers from <workdir>/.mcp.json",
	RequireStdioType:         `refuses stdio entries without "type"`,
	InferHTTP:                `infers "type": "http" from "url"`,
	Interpolate:              "expands ${VAR} and $VAR in entries from the host environment",
	LateValidation:           "checks entries only when connecting, not at construction",
	EagerConnect:             "connects every server at construction",
	ModelFirst:               "asks the model before connecting the servers",
	ReconnectEverySend:       "reconnects every server at every send",
	PhantomConnect:           "asks for mcp_connect even when no server is configured",
	HotReload:                "reads the configuration files again at every send",
	IgnoreStrict:             "reads the files even with strictMcpConfig",
	FlatToolName:             "names tools mcp_<server>_<tool>",
	AliasLength:              "accepts aliases of 25 characters",
	AliasCharset:             "accepts '.' in aliases",
	AliasRangeEnds:           "refuses A, Z, a, z, 0 and 9 in aliases, as ranges with exclusive ends would",
	AliasDoubleUnderscore:    `accepts "__" in aliases`,
	ToolNameLength:           "accepts full tool names of 65 characters",
	CutLongNames:             "offers the model full names cut to 37 characters, and runs the first tool a cut name matches",
	ToolNameCharset:          "accepts '.' in tool names",
	ToolNameRangeEnds:        "refuses A, Z, a, z, 0 and 9 in tool names, as ranges with exclusive ends would",
	ToolNameNeighbours:       "accepts @, [, `, { and ~ in tool names, as ranges that end one character late would",
	DropInvalidTools:         "drops invalid tools and registers the rest",
	DedupeTools:              "keeps the first of duplicate tools",
	DuplicatesIgnoringCase:   "takes tool names that differ only in letter case for duplicates",
	SkipCollisionCheck:       "does not check full names against other servers",
	ServerLimit:              "accepts 33 servers",
	ToolLimit:                "accepts 129 tools per server",
	PageLimit:                "requests a 17th discovery page",
	CatalogLimit:             "accepts a catalog of up to 1 MiB",
	ConfigFileLimit:          "accepts a configuration file one byte over 256 KiB",
	TruncateTools:            "keeps the first 128 tools instead of failing",
	OptionUnvalidated:        "does not check aliases of the mcpServers option",
	OptionReplacesFiles:      "ignores the files when the mcpServers option is set",
	NoNormalization:          "compares entries without normalizing them",
	LaterSourceWins:          "lets a later source override an entry of the same name",
	ReRegisterReplaces:       "lets register() replace an existing server",
	UnregisterKeepsName:      "keeps the name of an unregistered server taken",
	LazyDiscovery:            "returns from register() before connecting, and connects at the next run",
	KeepFailedEntry:          "keeps a failed registration in the registry",
	WrongSource:              `reports every server's source as "instance"`,
	ListPings:                "lists tools from every server when list() is called",
	ListLeaksConfig:          "shows headers, env and args in list()",
	UnregisterKeepsOpen:      "leaves the connection open on unregister()",
	UnregisterEditsFile:      "removes the server from its configuration file on unregister()",
	CloseWaits:               "close() waits for active work instead of cancelling it",
	CloseLeavesChildren:      "close() leaves child processes running",
	OldProtocol:              "asks servers for MCP 2025-11-25",
	Downgrade:                "falls back to the initialize handshake of an older protocol",
	OldServerAsTransport:     "reports a server that offers only older versions, or refuses server/discover with an HTTP status, as a transport failure",
	RefuseJSON:               "refuses Streamable HTTP answers in application/json",
	AcceptSSE:                `takes "type": "sse" for http`,
	LegacyFallback:           "tries the legacy HTTP+SSE GET when a Streamable HTTP server refuses",
	HeadersOnce:              "sends configured headers with the first HTTP request only",
	AcceptInvalidHeaders:     "accepts header names and values HTTP cannot send, and fails only when a request would carry them",
	StrictHeaderNames:        "refuses header names with token characters other than letters, digits and '-'",
	ListResources:            "lists resources and prompts after connecting",
	OfferSampling:            "offers sampling and roots to servers",
	NoProbe:                  "starts stdio servers without the probe process",
	NoReap:                   "closes a stdio server's stdin and leaves the process alone",
	AllowPlainHTTP:           "allows plain http to any host",
	AllowNoHost:              "allows https URLs without a host, such as https:///mcp",
	RefuseLoopbackHTTP:       "refuses plain http even to loopback hosts",
	LowerCaseLocalhost:       "takes only a lower-case localhost for loopback",
	LoopbackLookalikes:       "treats hosts starting with localhost or 127. as loopback",
	AllowUserinfo:            "allows user credentials in URLs",
	AllowFragment:            "allows fragments in URLs",
	AllowReservedHeaders:     "allows configuring the MCP transport's own headers",
	FollowRedirects:          "follows HTTP redirects",
	NoStdioCap:               "reads stdio messages of any size",
	NoHTTPCap:                "reads HTTP responses of any size",
	LateHTTPCap:              "caps HTTP responses at 64 MiB instead of 4 MiB",
	ConnectTimeout20:         "gives up connecting after 20 s by default",
	CallTimeout20:            "gives up a call after 20 s by default",
	ConnectTimeout60:         "gives up connecting after 60 s by default",
	CallTimeout60:            "gives up a call after 60 s by default",
	AcceptTimeoutZero:        "takes timeoutMs 0 as the default",
	IgnoreTimeoutMs:          "ignores timeoutMs",
	IgnoreAbort:              "does not cancel calls and approvals when the run is aborted",
	RetryOnce:                "sends a failed call again",
	ProbeOutsideSandbox:      "starts the probe process outside the sandbox",
	InheritEnv:               "passes the whole host environment to stdio servers",
	DropExplicitEnv:          "drops the entry's env",
	StderrUnread:             "gives stdio servers a stderr pipe nobody reads",
	LogStderr:                "logs what stdio servers write to stderr",
	IgnoreTransports:         "ignores mcpTransports",
	LiveCatalog:              "lists every server's tools again before each model request of a run",
	IgnoreListChanged:        "ignores notifications/tools/list_changed",
	NoStaleOnLoss:            "keeps a server whose connection was lost as connected",
	KeepBrokenConnection:     "leaves a connection a fatal error of a call broke to be found lost later, when go-sdk notices",
	SwapSchemas:              "validates each call against the schema the server describes now, not the run's",
	NeverRefresh:             "never reconnects a stale server",
	RefreshWithoutApproval:   "reconnects a stale server without asking for mcp_connect",
	SkipInputValidation:      "sends arguments without checking the input schema",
	AcceptInvalidSchemas:     "accepts tools with invalid schemas",
	SkipOutputValidation:     "never checks results against the output schema",
	DropIsError:              "gives the model error results as successes",
	PlainText:                "gives the model the result's text, not its JSON projection",
	DropLinks:                "leaves resource links out of the projection",
	DropStructured:           "leaves structuredContent out of the projection",
	InlineLarge:              "gives the model results over 16 KiB inline",
	InlineMedia:              "gives the model images and audio inline",
	ArchiveMediaEmpty:        "archives images and audio empty",
	InlineResources:          "gives the model embedded resources inline",
	ArchiveResourcesEmpty:    "archives embedded resources empty",
	NoContextRef:             "archives results without telling the model the reference",
	ContextIgnoresOffset:     "reads archived results from the start whatever the offset",
	NoNextBeforeTheEnd:       "gives no next offset on any page of the archive, the last but one included",
	NextOnTheLastPage:        "gives a next offset on the last page of the archive too",
	PagesCutMidCharacter:     "cuts pages of the archive inside multi-byte characters, which the page's text then spoils",
	AnyReadServed:            "answers reads of unknown references or past the end with an empty page, not a tool error",
	NoProgressToken:          "asks servers for no progress",
	ProgressTwice:            "emits every tool_progress event twice",
	BatchProgress:            "delivers progress events only once the call has ended",
	NoStartHookForMCP:        "runs no tool:start hook for MCP tools",
	NoEndHookOnFailure:       "runs tool:end only for successful calls",
	IgnoreMCPDeny:            "asks instead of denying MCP tools the policy denies",
	ConnectWithoutApproval:   "connects without asking for mcp_connect",
	ApproveByServer:          "asks approval for a call under the server's name",
	DefaultAllowsConnect:     "lets the default policy connect without asking",
	RememberApproval:         "asks once per tool, then remembers",
	NoHandlerAllows:          "allows what the policy asks about when there is no approval handler",
	HandlerErrorAllows:       "takes a failing approval handler as allow",
	HiddenCallable:           "runs calls of tools allowedTools hides",
	AllowedToolsGrant:        "allows allowedTools without asking",
	TrustProjectFiles:        "connects project-file servers without asking",
	TrustAnnotations:         "allows read-only or idempotent tools without asking",
	InjectInstructions:       "adds server instructions to the system prompt",
	DryRunSkipsConnect:       "connects without mcp_connect in dry-run mode",
	ReadFileLinks:            "reads the files of file:// resource links into the result",
	FetchLinks:               "fetches the URLs of resource links",
	SubagentMayRegister:      "lets sub-agents change the registry",
	RegisterWhileBusy:        "changes the registry during runs",
	AwaitIdleAtOnce:          "awaitIdle() returns at once, whatever is running",
	HookMayRegister:          "lets hooks change the registry during their run",
	SubagentOwnConnections:   "gives sub-agents connections of their own",
	SubagentIgnoresAllowlist: "gives sub-agents their root's allowlist",
	SubagentLoosens:          "lets a sub-agent's policy override its root's",
	SubagentCloseClosesRoot:  "closes the root's connections when a sub-agent closes",
	ParallelMCP:              "runs the MCP calls of a turn in parallel, unlike other tools",
	SkipStandardValidate:     "runs host tools without calling their schema's validate",
	GenericModelSchema:       "offers the model {\"type\":\"object\"} instead of a host tool's schema",
	SkipNativeValidation:     "runs host tools with library schemas without validating",
	StringIsError:            "takes a host tool's plain string result as an error",
	IgnoreToolIsError:        "takes {content, isError: true} as a success",
	NoProjectionCap:          "archives projections over 4 MiB",
}
