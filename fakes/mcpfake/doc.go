// Package mcpfake is a scriptable MCP server built on the official go-sdk
// server, for conformance scenarios.
//
// A [Script] chooses what the server offers (tool names, schemas, sizes,
// paging, protocol versions, resources and prompts) and how it misbehaves
// (delays, hangs, crashes, cursors that never end, stderr floods, answers
// of exact sizes, requests to the client, a grandchild process). The same
// script runs over stdio, as a child process the implementation under test
// spawns ([RunStdio], reached through a binary's hidden subcommand), or
// over Streamable HTTP on loopback ([HTTPServer], over TLS and IPv6 when
// asked), where [HTTPBehaviour] adds HTTP-level behaviour: a legacy
// HTTP+SSE server, redirects, scripted statuses, and bodies of exact,
// endless or lying sizes. The HTTP fake also serves a script over the
// legacy HTTP+SSE transport alone ([HTTPServer.MountSSE]), for clients
// configured for an "sse" server.
//
// Tool calls can be scripted beyond their answer ([Call]): a raw result
// sent as it is (Result), progress before and after the answer (Progress,
// LateProgress), a latch the runner releases before the fake answers
// (Latch, [record.Server.Release]), a new tool list announced by
// notifications/tools/list_changed (ThenTools), and the connection lost
// after the answer (ExitAfterAnswer).
//
// Every message the server receives is recorded on the wire, before go-sdk
// handles it, into a [record.Sink]: the scenario's evidence of what the
// implementation actually sent. So is every message it sends (Dir "out"),
// before it is written: over HTTP, the messages of go-sdk's own responses
// and of the streams of [HTTPServer.MountSSE] (scripted bodies are
// recorded by size only). The HTTP fake also records each response once
// it ended, with the bytes it managed to write.
//
// Three hidden subcommands make a binary a fake process: [Subcommand]
// ([RunStdio]), [GrandchildSubcommand] ([RunGrandchild]) and
// [SandboxSubcommand] ([RunSandbox], a sandbox wrapper that records the
// command it wraps and execs it).
package mcpfake
