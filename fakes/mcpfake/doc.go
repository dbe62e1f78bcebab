// Package mcpfake is a scriptable MCP server built on the official go-sdk
// server, for conformance scenarios.
//
// A [Script] chooses what the server offers (tool names, schemas, sizes,
// paging, protocol versions) and how it misbehaves (delays, hangs, crashes,
// cursors that never end). The same script runs over stdio, as a child
// process the implementation under test spawns ([RunStdio], reached through
// the mcpconform binary's hidden subcommand), or over Streamable HTTP on
// loopback ([HTTPServer]).
//
// Every message the server receives is recorded on the wire, before go-sdk
// handles it, into a [record.Sink]: the scenario's evidence of what the
// implementation actually sent.
package mcpfake
