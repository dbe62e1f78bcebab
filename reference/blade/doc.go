// Package blade is the reference host under the Blade Agent SDK's profile:
// a session (createServerSession) over the same core as package
// [github.com/mcpconform/mcpconform/reference], lite-agent's host.
//
// A [Session] ([NewSession]) connects the servers of its mcpServers option
// ([DecodeServers]) when it is created, except disabled ones, over stdio,
// the legacy HTTP+SSE transport or Streamable HTTP, and offers Blade's
// runtime API ([Session.MCPServerStatus], [Session.MCPConnect],
// [Session.MCPDisconnect], [Session.MCPReconnect], [Session.MCPListTools]).
// Where the profile differs from lite-agent's:
//
//   - connections are made at creation and by the runtime API, never by a
//     run (BL-CFG-04..06), and ask no mcp_connect approval;
//   - stdio servers start once, without a probe process, and the protocol
//     version is go-sdk's to negotiate (interpretation X-18);
//   - names that collide after normalization, server keys or the tools of
//     one server, are refused (BL-NAME-03): the server reports status error;
//   - the model is offered the built-in and application tools first, then
//     the MCP tools, each group in name order (BL-ORD-01..03), and an MCP
//     tool never takes an application tool's name (BL-NAME-02);
//   - a permission callback ([PermissionFunc]) may decide every MCP call
//     (BL-PERM-03..05); alwaysAllow authorizes nothing (BL-PERM-01, -02);
//   - servers whose healthCheck is enabled are pinged every intervalMs,
//     and one that stops answering leaves status connected (BL-HC-01..03);
//     [Session.MCPHealth] reports each server's health status with the
//     thresholds of interpretation B-04 (BL-HC-04).
//
// Errors carry the Blade rule that decided them ([reference.Error]): a
// collision BL-NAME-03, a denied call BL-PERM-03 or BL-PERM-04, a server
// that cannot be started or reached BL-TRN-01, -03 or -05. Where the Blade
// document states no rule and the reference applies lite-agent's — alias
// syntax, the network policy, limits and timeouts — the error cites that
// LA- rule; a server key has no length limit of its own, but every
// exposed tool name is kept within 64 characters, the model providers'
// limit (LA-NAME-05, interpretation B-22). The session reads no
// configuration file (interpretation X-10) and has no OAuth flow yet.
//
// In-process servers ([Tool], [CreateSDKMCPServer]) are served in the host
// process over go-sdk's in-memory transport, beside external servers,
// without a child process (BL-INP-01..11).
//
// The shared vocabulary (models, tools, policies, approval handlers,
// errors, clocks) is package reference's; Blade's own configuration and
// status types are aliases of the core's, each documented below.
package blade
