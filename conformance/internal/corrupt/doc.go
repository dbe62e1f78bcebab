// Package corrupt is a corrupting adapter: a JSON-RPC line proxy that sits
// between the runner and an adapter command (usually `adapter
// serve-reference`) on the adapter protocol (spec/adapter-protocol.md) and
// breaks one behaviour of the implementation behind it, named by a
// [Corruption].
//
// It is the harness's self-test, a second family of known-bad
// implementations next to the reference's own mutants
// (internal/fault): a corruption does not come from the reference's
// code, so a scenario that only a mutant of the reference turns red, and
// no corruption does, is a hint that the scenario checks the reference's
// way of failing rather than the rule.
//
// A [Proxy] starts the adapter command in a process group of its own,
// relays every message both ways, and shows each one to the corruption's
// [Hook], which may rewrite it, drop it, duplicate it, hold it and release
// it later, or answer a request itself without forwarding it. The proxy
// tracks request ids in both directions, so a hook sees which method a
// response answers, and what crossed earlier ([State]: agent options,
// server entries, the stdio fakes' script files).
//
// Every corruption is a bug a real SDK could have; none is something only
// a test would do. conformance/corrupt_test.go runs each one against the
// scenarios of the rules it can affect and requires at least one of them to
// fail.
package corrupt
