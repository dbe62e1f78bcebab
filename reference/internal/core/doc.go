// Package core is the MCP host both products of the reference are made
// of: package reference (lite-agent's createLiteAgent, [LiteAgent]) and
// package reference/blade (the Blade Agent SDK's createServerSession,
// [Blade]). A [Host] is one agent or session; its [Profile] says which
// product it is: whether it asks mcp_connect, starts a probe process, pins
// the protocol version, connects at runs or at creation, refuses
// normalized name collisions, how it orders the tools it offers, and
// which rules its errors cite.
//
// # Why a core, and how the product packages use it
//
// The two products share almost everything: configuration entries,
// transports, the network policy, processes, discovery, the run loop,
// permissions, projection, OAuth. That code exists once, here. The
// product packages are documented facades: their behaviour types (Agent,
// Registry, Session) wrap a [*Host] and say what each method does in the
// product's words; their Options are their own structs, copied into
// [Options]; the plain data and interface types they share (ServerConfig,
// Policy, Model, Tool, Error, ...) are defined here and named there by
// type aliases, so that one value passes between the products and this
// package unchanged.
//
// # Faults
//
// A host may be built with a [fault.Set] ([Options.Faults]): each fault
// breaks one documented rule, for the conformance suite's mutation tests.
// Faults reach a host only through the product packages' unexported
// options field, set by fault.Inject, which only packages of this module
// can call (the conformance adapters and the CLI); nothing of them is in a
// public API. Where a rule is enforced, a comment naming it stands next to
// the check of the fault that breaks it, so that searching the source for
// a rule ID finds the code that enforces it.
package core
