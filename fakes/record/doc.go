// Package record is the evidence the fakes leave behind: every process
// start, every JSON-RPC message and every HTTP request a fake receives, in
// one ordered [Log] per scenario world.
//
// Fakes that run in the runner's process append to the [Log] directly.
// Fakes that run as child processes (the stdio MCP server, spawned by the
// implementation under test) report over a loopback TCP connection to a
// [Server], and wait for each record to be acknowledged before they act on
// the message, so the log's order is the order things happened. When such a
// process dies its connection closes, and the server appends an exit record:
// waiting for a process to end is waiting for an event, not polling.
package record
