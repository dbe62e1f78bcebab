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
//
// The log also holds the world's latches: named gates at which fakes wait
// before they answer a call. A fake process waits on a connection of its
// own whose acknowledgement the server withholds ([Latch]); a fake in the
// runner's process waits on the log ([Log.WaitLatch]). Either way the wait
// is recorded at once ([KindLatch]), so the runner can wait for "the fake
// is at the latch", and [Server.Release] (or [Log.Release]) lets every
// waiter of that name go on.
package record
