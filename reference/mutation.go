package reference

import (
	"encoding/json"
	"os"
)

// A Mutation deliberately breaks one documented behaviour of the reference.
//
// Mutations exist for mutation testing of the conformance suite: running
// the suite against a reference with one mutation must turn the scenarios of
// the broken rule red, which proves those scenarios can fail. A real host
// never sets one. Each mutation is named after the rule it breaks; [Mutants]
// lists them all with what they do.
type Mutation string

// The mutations of the reference.
const (
	MutProjectFile              Mutation = "LA-CFG-02/skip-project-file"
	MutGlobalFileLocation       Mutation = "LA-CFG-03/global-file-under-home"
	MutServersKey               Mutation = "LA-CFG-04/accept-servers-key"
	MutReadDotMCPJSON           Mutation = "LA-CFG-05/read-root-mcp-json"
	MutRequireStdioType         Mutation = "LA-CFG-06/require-stdio-type"
	MutInferHTTP                Mutation = "LA-CFG-07/infer-http-from-url"
	MutInterpolate              Mutation = "LA-CFG-08/interpolate-variables"
	MutLateValidation           Mutation = "LA-CFG-10/validate-entries-at-connect"
	MutEagerConnect             Mutation = "LA-CFG-11/connect-at-construction"
	MutModelFirst               Mutation = "LA-CFG-12/ask-model-before-connecting"
	MutReconnectEverySend       Mutation = "LA-CFG-12/reconnect-every-send"
	MutPhantomConnect           Mutation = "LA-CFG-13/ask-connect-without-servers"
	MutHotReload                Mutation = "LA-CFG-14/reload-files-every-send"
	MutIgnoreStrict             Mutation = "LA-CFG-15/ignore-strict"
	MutFlatToolName             Mutation = "LA-NAME-01/single-underscore-names"
	MutAliasLength              Mutation = "LA-NAME-02/alias-25-characters"
	MutAliasCharset             Mutation = "LA-NAME-03/alias-allows-dot"
	MutAliasRangeEnds           Mutation = "LA-NAME-03/alias-refuses-range-ends"
	MutAliasDoubleUnderscore    Mutation = "LA-NAME-04/alias-allows-double-underscore"
	MutToolNameLength           Mutation = "LA-NAME-05/tool-name-65-characters"
	MutCutLongNames             Mutation = "LA-NAME-05/cut-names-to-37-characters"
	MutToolNameCharset          Mutation = "LA-NAME-06/tool-name-allows-dot"
	MutToolNameRangeEnds        Mutation = "LA-NAME-06/tool-name-refuses-range-ends"
	MutToolNameNeighbours       Mutation = "LA-NAME-06/tool-name-allows-range-neighbours"
	MutDropInvalidTools         Mutation = "LA-NAME-07/drop-invalid-tools"
	MutDedupeTools              Mutation = "LA-NAME-08/dedupe-duplicate-tools"
	MutDuplicatesIgnoringCase   Mutation = "LA-NAME-08/duplicates-ignoring-case"
	MutSkipCollisionCheck       Mutation = "LA-NAME-09/skip-collision-check"
	MutServerLimit              Mutation = "LA-LIM-01/33-servers"
	MutToolLimit                Mutation = "LA-LIM-02/129-tools"
	MutPageLimit                Mutation = "LA-LIM-03/17-pages"
	MutCatalogLimit             Mutation = "LA-LIM-04/1-MiB-catalog"
	MutConfigFileLimit          Mutation = "LA-LIM-05/config-file-one-byte-more"
	MutTruncateTools            Mutation = "LA-LIM-09/truncate-to-limit"
	MutOptionUnvalidated        Mutation = "LA-REG-01/option-entries-unvalidated"
	MutOptionReplacesFiles      Mutation = "LA-REG-02/option-replaces-files"
	MutNoNormalization          Mutation = "LA-REG-03/no-normalization"
	MutLaterSourceWins          Mutation = "LA-REG-04/later-source-overrides"
	MutReRegisterReplaces       Mutation = "LA-REG-05/register-replaces"
	MutUnregisterKeepsName      Mutation = "LA-REG-06/unregister-keeps-name"
	MutLazyDiscovery            Mutation = "LA-REG-07/discover-after-register"
	MutKeepFailedEntry          Mutation = "LA-REG-08/keep-failed-entry"
	MutWrongSource              Mutation = "LA-REG-09/report-wrong-source"
	MutListPings                Mutation = "LA-REG-10/list-contacts-servers"
	MutListLeaksConfig          Mutation = "LA-REG-11/list-shows-config"
	MutUnregisterKeepsOpen      Mutation = "LA-REG-12/unregister-keeps-connection"
	MutUnregisterEditsFile      Mutation = "LA-REG-13/unregister-edits-file"
	MutCloseWaits               Mutation = "LA-REG-21/close-waits-for-work"
	MutCloseLeavesChildren      Mutation = "LA-REG-22/close-leaves-children"
	MutOldProtocol              Mutation = "LA-TRN-01/speak-2025-11-25"
	MutDowngrade                Mutation = "LA-TRN-02/fall-back-to-initialize"
	MutOldServerAsTransport     Mutation = "LA-TRN-02/old-server-is-a-transport-error"
	MutRefuseJSON               Mutation = "LA-TRN-03/refuse-json-responses"
	MutAcceptSSE                Mutation = "LA-TRN-04/accept-sse-as-http"
	MutLegacyFallback           Mutation = "LA-TRN-05/fall-back-to-legacy-sse"
	MutHeadersOnce              Mutation = "LA-TRN-06/headers-on-first-request-only"
	MutAcceptInvalidHeaders     Mutation = "LA-TRN-06/accept-headers-http-cannot-send"
	MutStrictHeaderNames        Mutation = "LA-TRN-06/header-names-of-letters-digits-and-hyphens"
	MutListResources            Mutation = "LA-TRN-07/list-resources"
	MutOfferSampling            Mutation = "LA-TRN-08/offer-sampling-and-roots"
	MutNoProbe                  Mutation = "LA-TRN-10/no-probe-process"
	MutNoReap                   Mutation = "LA-TRN-12/close-stdin-only"
	MutAllowPlainHTTP           Mutation = "LA-NET-01/allow-plain-http"
	MutAllowNoHost              Mutation = "LA-NET-01/allow-https-without-host"
	MutRefuseLoopbackHTTP       Mutation = "LA-NET-02/refuse-loopback-http"
	MutLowerCaseLocalhost       Mutation = "LA-NET-02/localhost-in-lower-case-only"
	MutLoopbackLookalikes       Mutation = "LA-NET-03/allow-loopback-lookalikes"
	MutAllowUserinfo            Mutation = "LA-NET-04/allow-user-credentials"
	MutAllowFragment            Mutation = "LA-NET-05/allow-fragments"
	MutAllowReservedHeaders     Mutation = "LA-NET-06/allow-reserved-headers"
	MutFollowRedirects          Mutation = "LA-NET-07/follow-redirects"
	MutNoStdioCap               Mutation = "LA-LIM-06/no-stdio-cap"
	MutNoHTTPCap                Mutation = "LA-LIM-07/no-http-cap"
	MutLateHTTPCap              Mutation = "LA-LIM-10/cap-at-64-MiB"
	MutConnectTimeout20         Mutation = "LA-TMO-01/connect-timeout-20s"
	MutCallTimeout20            Mutation = "LA-TMO-02/call-timeout-20s"
	MutConnectTimeout60         Mutation = "LA-TMO-01/connect-timeout-60s"
	MutCallTimeout60            Mutation = "LA-TMO-02/call-timeout-60s"
	MutAcceptTimeoutZero        Mutation = "LA-TMO-03/accept-timeout-0"
	MutIgnoreTimeoutMs          Mutation = "LA-TMO-04/ignore-timeoutMs"
	MutIgnoreAbort              Mutation = "LA-TMO-05/ignore-abort"
	MutRetryOnce                Mutation = "LA-TMO-06/retry-failed-call"
	MutProbeOutsideSandbox      Mutation = "LA-SEC-14/probe-outside-sandbox"
	MutInheritEnv               Mutation = "LA-SEC-16/inherit-whole-environment"
	MutDropExplicitEnv          Mutation = "LA-SEC-17/drop-explicit-env"
	MutStderrUnread             Mutation = "LA-SEC-18/never-read-stderr"
	MutLogStderr                Mutation = "LA-SEC-19/log-stderr"
	MutIgnoreTransports         Mutation = "LA-SEC-21/ignore-mcpTransports"
	MutLiveCatalog              Mutation = "LA-CAT-01/refresh-catalog-mid-run"
	MutIgnoreListChanged        Mutation = "LA-CAT-02/ignore-list-changed"
	MutNoStaleOnLoss            Mutation = "LA-CAT-03/ignore-lost-connections"
	MutKeepBrokenConnection     Mutation = "LA-CAT-03/keep-connection-a-call-broke"
	MutSwapSchemas              Mutation = "LA-CAT-04/swap-schemas-mid-run"
	MutNeverRefresh             Mutation = "LA-CAT-05/never-refresh"
	MutRefreshWithoutApproval   Mutation = "LA-CAT-06/refresh-without-approval"
	MutSkipInputValidation      Mutation = "LA-VAL-01/skip-input-validation"
	MutAcceptInvalidSchemas     Mutation = "LA-VAL-02/accept-invalid-schemas"
	MutSkipOutputValidation     Mutation = "LA-VAL-03/skip-output-validation"
	MutDropIsError              Mutation = "LA-VAL-04/drop-isError"
	MutPlainText                Mutation = "LA-VAL-05/plain-text-results"
	MutDropLinks                Mutation = "LA-VAL-06/drop-resource-links"
	MutDropStructured           Mutation = "LA-VAL-07/drop-structured-content"
	MutInlineLarge              Mutation = "LA-ARC-01/inline-large-results"
	MutInlineMedia              Mutation = "LA-ARC-02/inline-media"
	MutArchiveMediaEmpty        Mutation = "LA-ARC-02/archive-media-empty"
	MutInlineResources          Mutation = "LA-ARC-03/inline-embedded-resources"
	MutArchiveResourcesEmpty    Mutation = "LA-ARC-03/archive-embedded-resources-empty"
	MutNoContextRef             Mutation = "LA-ARC-04/archive-without-reference"
	MutContextIgnoresOffset     Mutation = "LA-ARC-05/context-ignores-offset"
	MutNoNextBeforeTheEnd       Mutation = "LA-ARC-05/no-next-before-the-end"
	MutNextOnTheLastPage        Mutation = "LA-ARC-05/next-on-the-last-page"
	MutPagesCutMidCharacter     Mutation = "LA-ARC-05/pages-cut-mid-character"
	MutAnyReadServed            Mutation = "LA-ARC-05/serve-any-read"
	MutNoProgressToken          Mutation = "LA-EVT-01/no-progress-token"
	MutProgressTwice            Mutation = "LA-EVT-01/progress-events-twice"
	MutBatchProgress            Mutation = "LA-EVT-02/progress-after-the-call"
	MutNoStartHookForMCP        Mutation = "LA-EVT-03/no-tool-start-for-mcp"
	MutNoEndHookOnFailure       Mutation = "LA-EVT-04/no-tool-end-on-failure"
	MutIgnoreMCPDeny            Mutation = "LA-SEC-01/ignore-deny-for-mcp"
	MutConnectWithoutApproval   Mutation = "LA-SEC-02/connect-without-approval"
	MutApproveByServer          Mutation = "LA-SEC-03/approve-by-server-name"
	MutDefaultAllowsConnect     Mutation = "LA-SEC-04/default-allows-connect"
	MutRememberApproval         Mutation = "LA-SEC-05/remember-approvals"
	MutNoHandlerAllows          Mutation = "LA-SEC-06/no-handler-allows"
	MutHandlerErrorAllows       Mutation = "LA-SEC-07/handler-failure-allows"
	MutHiddenCallable           Mutation = "LA-SEC-08/hidden-tools-callable"
	MutAllowedToolsGrant        Mutation = "LA-SEC-09/allowedTools-grants"
	MutTrustProjectFiles        Mutation = "LA-SEC-10/trust-project-files"
	MutTrustAnnotations         Mutation = "LA-SEC-11/trust-annotations"
	MutInjectInstructions       Mutation = "LA-SEC-12/inject-instructions"
	MutDryRunSkipsConnect       Mutation = "LA-SEC-13/dry-run-skips-connect"
	MutReadFileLinks            Mutation = "LA-SEC-23/read-file-links"
	MutFetchLinks               Mutation = "LA-SEC-24/fetch-links"
	MutSubagentMayRegister      Mutation = "LA-REG-14/subagent-may-register"
	MutRegisterWhileBusy        Mutation = "LA-REG-15/register-while-busy"
	MutAwaitIdleAtOnce          Mutation = "LA-REG-15/await-idle-returns-at-once"
	MutHookMayRegister          Mutation = "LA-REG-16/hook-may-register"
	MutSubagentOwnConnections   Mutation = "LA-REG-17/subagent-own-connections"
	MutSubagentIgnoresAllowlist Mutation = "LA-REG-18/subagent-ignores-allowlist"
	MutSubagentLoosens          Mutation = "LA-REG-19/subagent-loosens"
	MutSubagentCloseClosesRoot  Mutation = "LA-REG-20/subagent-close-closes-root"
	MutParallelMCP              Mutation = "LA-TOOL-01/parallel-mcp-calls"
	MutSkipStandardValidate     Mutation = "LA-TOOL-02/skip-standard-validate"
	MutGenericModelSchema       Mutation = "LA-TOOL-03/generic-model-schema"
	MutSkipNativeValidation     Mutation = "LA-TOOL-04/skip-library-schema-validation"
	MutStringIsError            Mutation = "LA-TOOL-06/string-result-is-error"
	MutIgnoreToolIsError        Mutation = "LA-TOOL-07/ignore-isError"
	MutNoProjectionCap          Mutation = "LA-LIM-08/no-projection-cap"
)

// Mutants describes every [Mutation]: what it breaks.
var Mutants = map[Mutation]string{
	MutProjectFile:              "never reads <workdir>/.lite-agent/mcps.json",
	MutGlobalFileLocation:       "reads the global file from ~/mcps.json instead of ~/.lite-agent/mcps.json",
	MutServersKey:               `also takes servers from a "servers" key`,
	MutReadDotMCPJSON:           "also reads servers from <workdir>/.mcp.json",
	MutRequireStdioType:         `refuses stdio entries without "type"`,
	MutInferHTTP:                `infers "type": "http" from "url"`,
	MutInterpolate:              "expands ${VAR} and $VAR in entries from the host environment",
	MutLateValidation:           "checks entries only when connecting, not at construction",
	MutEagerConnect:             "connects every server at construction",
	MutModelFirst:               "asks the model before connecting the servers",
	MutReconnectEverySend:       "reconnects every server at every send",
	MutPhantomConnect:           "asks for mcp_connect even when no server is configured",
	MutHotReload:                "reads the configuration files again at every send",
	MutIgnoreStrict:             "reads the files even with strictMcpConfig",
	MutFlatToolName:             "names tools mcp_<server>_<tool>",
	MutAliasLength:              "accepts aliases of 25 characters",
	MutAliasCharset:             "accepts '.' in aliases",
	MutAliasRangeEnds:           "refuses A, Z, a, z, 0 and 9 in aliases, as ranges with exclusive ends would",
	MutAliasDoubleUnderscore:    `accepts "__" in aliases`,
	MutToolNameLength:           "accepts full tool names of 65 characters",
	MutCutLongNames:             "offers the model full names cut to 37 characters, and runs the first tool a cut name matches",
	MutToolNameCharset:          "accepts '.' in tool names",
	MutToolNameRangeEnds:        "refuses A, Z, a, z, 0 and 9 in tool names, as ranges with exclusive ends would",
	MutToolNameNeighbours:       "accepts @, [, `, { and ~ in tool names, as ranges that end one character late would",
	MutDropInvalidTools:         "drops invalid tools and registers the rest",
	MutDedupeTools:              "keeps the first of duplicate tools",
	MutDuplicatesIgnoringCase:   "takes tool names that differ only in letter case for duplicates",
	MutSkipCollisionCheck:       "does not check full names against other servers",
	MutServerLimit:              "accepts 33 servers",
	MutToolLimit:                "accepts 129 tools per server",
	MutPageLimit:                "requests a 17th discovery page",
	MutCatalogLimit:             "accepts a catalog of up to 1 MiB",
	MutConfigFileLimit:          "accepts a configuration file one byte over 256 KiB",
	MutTruncateTools:            "keeps the first 128 tools instead of failing",
	MutOptionUnvalidated:        "does not check aliases of the mcpServers option",
	MutOptionReplacesFiles:      "ignores the files when the mcpServers option is set",
	MutNoNormalization:          "compares entries without normalizing them",
	MutLaterSourceWins:          "lets a later source override an entry of the same name",
	MutReRegisterReplaces:       "lets register() replace an existing server",
	MutUnregisterKeepsName:      "keeps the name of an unregistered server taken",
	MutLazyDiscovery:            "returns from register() before connecting, and connects at the next run",
	MutKeepFailedEntry:          "keeps a failed registration in the registry",
	MutWrongSource:              `reports every server's source as "instance"`,
	MutListPings:                "lists tools from every server when list() is called",
	MutListLeaksConfig:          "shows headers, env and args in list()",
	MutUnregisterKeepsOpen:      "leaves the connection open on unregister()",
	MutUnregisterEditsFile:      "removes the server from its configuration file on unregister()",
	MutCloseWaits:               "close() waits for active work instead of cancelling it",
	MutCloseLeavesChildren:      "close() leaves child processes running",
	MutOldProtocol:              "asks servers for MCP 2025-11-25",
	MutDowngrade:                "falls back to the initialize handshake of an older protocol",
	MutOldServerAsTransport:     "reports a server that offers only older versions, or refuses server/discover with an HTTP status, as a transport failure",
	MutRefuseJSON:               "refuses Streamable HTTP answers in application/json",
	MutAcceptSSE:                `takes "type": "sse" for http`,
	MutLegacyFallback:           "tries the legacy HTTP+SSE GET when a Streamable HTTP server refuses",
	MutHeadersOnce:              "sends configured headers with the first HTTP request only",
	MutAcceptInvalidHeaders:     "accepts header names and values HTTP cannot send, and fails only when a request would carry them",
	MutStrictHeaderNames:        "refuses header names with token characters other than letters, digits and '-'",
	MutListResources:            "lists resources and prompts after connecting",
	MutOfferSampling:            "offers sampling and roots to servers",
	MutNoProbe:                  "starts stdio servers without the probe process",
	MutNoReap:                   "closes a stdio server's stdin and leaves the process alone",
	MutAllowPlainHTTP:           "allows plain http to any host",
	MutAllowNoHost:              "allows https URLs without a host, such as https:///mcp",
	MutRefuseLoopbackHTTP:       "refuses plain http even to loopback hosts",
	MutLowerCaseLocalhost:       "takes only a lower-case localhost for loopback",
	MutLoopbackLookalikes:       "treats hosts starting with localhost or 127. as loopback",
	MutAllowUserinfo:            "allows user credentials in URLs",
	MutAllowFragment:            "allows fragments in URLs",
	MutAllowReservedHeaders:     "allows configuring the MCP transport's own headers",
	MutFollowRedirects:          "follows HTTP redirects",
	MutNoStdioCap:               "reads stdio messages of any size",
	MutNoHTTPCap:                "reads HTTP responses of any size",
	MutLateHTTPCap:              "caps HTTP responses at 64 MiB instead of 4 MiB",
	MutConnectTimeout20:         "gives up connecting after 20 s by default",
	MutCallTimeout20:            "gives up a call after 20 s by default",
	MutConnectTimeout60:         "gives up connecting after 60 s by default",
	MutCallTimeout60:            "gives up a call after 60 s by default",
	MutAcceptTimeoutZero:        "takes timeoutMs 0 as the default",
	MutIgnoreTimeoutMs:          "ignores timeoutMs",
	MutIgnoreAbort:              "does not cancel calls and approvals when the run is aborted",
	MutRetryOnce:                "sends a failed call again",
	MutProbeOutsideSandbox:      "starts the probe process outside the sandbox",
	MutInheritEnv:               "passes the whole host environment to stdio servers",
	MutDropExplicitEnv:          "drops the entry's env",
	MutStderrUnread:             "gives stdio servers a stderr pipe nobody reads",
	MutLogStderr:                "logs what stdio servers write to stderr",
	MutIgnoreTransports:         "ignores mcpTransports",
	MutLiveCatalog:              "lists every server's tools again before each model request of a run",
	MutIgnoreListChanged:        "ignores notifications/tools/list_changed",
	MutNoStaleOnLoss:            "keeps a server whose connection was lost as connected",
	MutKeepBrokenConnection:     "leaves a connection a fatal error of a call broke to be found lost later, when go-sdk notices",
	MutSwapSchemas:              "validates each call against the schema the server describes now, not the run's",
	MutNeverRefresh:             "never reconnects a stale server",
	MutRefreshWithoutApproval:   "reconnects a stale server without asking for mcp_connect",
	MutSkipInputValidation:      "sends arguments without checking the input schema",
	MutAcceptInvalidSchemas:     "accepts tools with invalid schemas",
	MutSkipOutputValidation:     "never checks results against the output schema",
	MutDropIsError:              "gives the model error results as successes",
	MutPlainText:                "gives the model the result's text, not its JSON projection",
	MutDropLinks:                "leaves resource links out of the projection",
	MutDropStructured:           "leaves structuredContent out of the projection",
	MutInlineLarge:              "gives the model results over 16 KiB inline",
	MutInlineMedia:              "gives the model images and audio inline",
	MutArchiveMediaEmpty:        "archives images and audio empty",
	MutInlineResources:          "gives the model embedded resources inline",
	MutArchiveResourcesEmpty:    "archives embedded resources empty",
	MutNoContextRef:             "archives results without telling the model the reference",
	MutContextIgnoresOffset:     "reads archived results from the start whatever the offset",
	MutNoNextBeforeTheEnd:       "gives no next offset on any page of the archive, the last but one included",
	MutNextOnTheLastPage:        "gives a next offset on the last page of the archive too",
	MutPagesCutMidCharacter:     "cuts pages of the archive inside multi-byte characters, which the page's text then spoils",
	MutAnyReadServed:            "answers reads of unknown references or past the end with an empty page, not a tool error",
	MutNoProgressToken:          "asks servers for no progress",
	MutProgressTwice:            "emits every tool_progress event twice",
	MutBatchProgress:            "delivers progress events only once the call has ended",
	MutNoStartHookForMCP:        "runs no tool:start hook for MCP tools",
	MutNoEndHookOnFailure:       "runs tool:end only for successful calls",
	MutIgnoreMCPDeny:            "asks instead of denying MCP tools the policy denies",
	MutConnectWithoutApproval:   "connects without asking for mcp_connect",
	MutApproveByServer:          "asks approval for a call under the server's name",
	MutDefaultAllowsConnect:     "lets the default policy connect without asking",
	MutRememberApproval:         "asks once per tool, then remembers",
	MutNoHandlerAllows:          "allows what the policy asks about when there is no approval handler",
	MutHandlerErrorAllows:       "takes a failing approval handler as allow",
	MutHiddenCallable:           "runs calls of tools allowedTools hides",
	MutAllowedToolsGrant:        "allows allowedTools without asking",
	MutTrustProjectFiles:        "connects project-file servers without asking",
	MutTrustAnnotations:         "allows read-only or idempotent tools without asking",
	MutInjectInstructions:       "adds server instructions to the system prompt",
	MutDryRunSkipsConnect:       "connects without mcp_connect in dry-run mode",
	MutReadFileLinks:            "reads the files of file:// resource links into the result",
	MutFetchLinks:               "fetches the URLs of resource links",
	MutSubagentMayRegister:      "lets sub-agents change the registry",
	MutRegisterWhileBusy:        "changes the registry during runs",
	MutAwaitIdleAtOnce:          "awaitIdle() returns at once, whatever is running",
	MutHookMayRegister:          "lets hooks change the registry during their run",
	MutSubagentOwnConnections:   "gives sub-agents connections of their own",
	MutSubagentIgnoresAllowlist: "gives sub-agents their root's allowlist",
	MutSubagentLoosens:          "lets a sub-agent's policy override its root's",
	MutSubagentCloseClosesRoot:  "closes the root's connections when a sub-agent closes",
	MutParallelMCP:              "runs the MCP calls of a turn in parallel, unlike other tools",
	MutSkipStandardValidate:     "runs host tools without calling their schema's validate",
	MutGenericModelSchema:       "offers the model {\"type\":\"object\"} instead of a host tool's schema",
	MutSkipNativeValidation:     "runs host tools with library schemas without validating",
	MutStringIsError:            "takes a host tool's plain string result as an error",
	MutIgnoreToolIsError:        "takes {content, isError: true} as a success",
	MutNoProjectionCap:          "archives projections over 4 MiB",
}

// mutations is the set of mutations an agent was built with.
type mutations map[Mutation]bool

func newMutations(list []Mutation) mutations {
	if len(list) == 0 {
		return nil
	}
	m := mutations{}
	for _, x := range list {
		m[x] = true
	}
	return m
}

// has reports whether mutation x is active.
func (m mutations) has(x Mutation) bool { return m[x] }

// removeFromFile deletes server name from the mcpServers of a configuration
// file. It exists only for [MutUnregisterEditsFile]: the reference never
// writes configuration files (LA-REG-13).
func removeFromFile(path, name string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var doc map[string]map[string]json.RawMessage
	if json.Unmarshal(data, &doc) != nil {
		return
	}
	delete(doc["mcpServers"], name)
	if out, err := json.MarshalIndent(doc, "", "  "); err == nil {
		_ = os.WriteFile(path, out, 0o644)
	}
}
