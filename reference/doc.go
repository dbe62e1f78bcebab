// Package reference is a Go implementation of the MCP host layer of the
// lite-agent SDK, as its product document describes it, built on the
// official MCP go-sdk. It is the implementation the conformance suite is
// proven against, and a library in its own right. Package
// [github.com/mcpconform/mcpconform/reference/blade] is the same core
// under the Blade Agent SDK's profile.
//
// An [Agent] ([New], the counterpart of createLiteAgent) owns one
// [Registry] of MCP servers fed by four sources: <home>/mcps.json
// (~/.lite-agent/mcps.json by default), <workdir>/.lite-agent/mcps.json, the
// [Options.MCPServers] option, and [Registry.Register]. Construction reads
// and validates the configuration and starts nothing; the first
// [Agent.Send] authorizes (mcp_connect), connects, discovers and validates
// every server before the [Model] is asked anything.
//
// What it enforces, each with the catalog rule ID in its errors ([Error]):
//
//   - naming: tools are offered as mcp__<server>__<tool> ([ToolName]);
//     aliases have 1–24 letters, digits, '_' or '-' without "__"
//     ([ValidateAlias]); full names have at most 64 such characters;
//   - limits: 32 servers, 128 tools per server, 16 discovery pages, a
//     512 KiB catalog, 256 KiB configuration files — exceeding any fails
//     the whole candidate, nothing is truncated;
//   - registry: distinct names merge, entries equal after normalization
//     are kept once, the same name with another entry is an error,
//     registration is atomic, list() is local and holds no credentials;
//   - protocol: MCP 2026-07-28 only, with no fallback to older versions;
//   - network: https, or http to localhost, 127.0.0.1 and [::1] only; no
//     credentials or fragments in URLs, no transport headers in
//     configuration, no redirects (package netpolicy);
//   - processes: stdio servers get a safe default environment plus their
//     explicit env, run in their own process group with stderr discarded,
//     and are reaped on unregister and close;
//   - permissions: a [Policy] of ask/allow/deny patterns, answered by an
//     [ApprovalHandler]; without one, everything asked is denied;
//   - OAuth ([OAuthConfig]): what the official client's auth()
//     (@modelcontextprotocol/client 2.1.0) does after a 401 — protected
//     resource and authorization server metadata discovery in its order,
//     its registration body, client authentication, scope and resource
//     indicator, client ID metadata documents, credentials bound to the
//     issuer that issued them — behind lite-agent's own rules: allowed
//     origins, no redirects, its own state and callback checks, no DPoP, and
//     logins only when the host registers a server.
//
// # Types shared with Blade
//
// The two products share one core (an internal package) and one
// vocabulary: configuration entries, policies, models, tools, events,
// errors, OAuth storage. Those types are defined once, in the core, and
// named here by type aliases, each documented where it is declared below;
// package blade uses them as they are, so that a value passes between the
// two products unchanged and no conversion can drift. The types with
// behaviour a host calls, [Agent] and [Registry], are this package's own,
// and so are its [Options].
package reference
