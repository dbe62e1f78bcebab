// Package rpcadapter carries the adapter contract over a process boundary:
// JSON-RPC 2.0, newline-delimited, on an adapter process's stdin and stdout
// (spec/adapter-protocol.md).
//
// [Target] is the runner's side: it starts an adapter command once per
// scenario world, performs the handshake, and turns the contract's calls
// into requests and the adapter's host/* requests into [adapter.Host]
// calls. Whatever the adapter process does wrong — dying, hanging, writing
// garbage, answering requests never sent, flooding the runner past
// [DefaultLimits] — becomes an [adapter.Failure] for that scenario, with
// the reason, the byte offset of bad input and the tail of its stderr.
// What the runner keeps of what an adapter sends is bounded, host
// callbacks are recorded in the order they arrive ([adapter.ArrivalRecorder]),
// and what an adapter process leaves running when it exits is killed and
// named ([adapter.LeftoverReporter]).
//
// [Serve] is the adapter's side for a Go [adapter.Target]: `mcpconform
// adapter serve-reference` serves the reference implementation with it.
//
// Messages are go-sdk's jsonrpc types, encoded and decoded by go-sdk; this
// package adds the newline framing with byte offsets, request routing in
// both directions, and cancellation.
package rpcadapter
