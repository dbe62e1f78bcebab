// Package adapter is the contract between the conformance runner and an
// implementation under test.
//
// The runner never touches an implementation directly. It opens an [Adapter]
// for every scenario world, asks it for an [Agent] built from plain
// [AgentOptions], calls the agent's operations ([Agent.Send],
// [Agent.Register], [Agent.Unregister], [Agent.List], [Agent.AwaitIdle],
// [Agent.Close]) and answers the implementation's calls back into its host
// through the [Host] it handed over (model turns, approvals, events).
//
// Every value that crosses the contract is JSON-encodable data, so the same
// contract can be carried over a process boundary for implementations that
// are not written in Go. Failures cross it as [*Error] values that carry a
// [Kind]: the runner compares failures by kind, never by message text.
//
// An adapter declares what it supports in [Info]: the systems it claims
// (lite-agent, blade) and its [Capability] set. A scenario that needs an
// undeclared capability is skipped with the capability named, never failed
// and never passed.
package adapter
