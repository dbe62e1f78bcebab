package reference

import "github.com/mcpconform/mcpconform/reference/internal/core"

// Error is the error type of the reference. It carries the Kind of the
// failure and the ID of the catalog Rule that decided it, and names where
// the bad input came from (Source: a file path, "mcpServers option",
// "register", or a server alias; Field: the JSON path of the offending
// value), with Msg saying what is wrong and Err the cause, if any:
//
//	LA-NAME-02: mcpServers option: mcpServers.aaaaaaaaaaaaaaaaaaaaaaaaa: server alias "aaaaaaaaaaaaaaaaaaaaaaaaa" has 25 characters; at most 24
type Error = core.Error

// Kind classifies an [Error], so that hosts can react to a class of
// failure without parsing messages.
type Kind = core.Kind

// The kinds of [Error].
const (
	KindConfig      = core.KindConfig      // the configuration is malformed or invalid
	KindName        = core.KindName        // an alias or tool name breaks the naming rules
	KindLimit       = core.KindLimit       // a documented limit was exceeded
	KindConflict    = core.KindConflict    // a name is taken or declared twice differently
	KindNotFound    = core.KindNotFound    // no server has that name
	KindBusy        = core.KindBusy        // the agent is not idle
	KindValidation  = core.KindValidation  // a schema or value failed validation
	KindTransport   = core.KindTransport   // a connection failed or was lost
	KindProtocol    = core.KindProtocol    // the server does not speak MCP 2026-07-28
	KindSecurity    = core.KindSecurity    // a URL, header or redirect was refused
	KindPermission  = core.KindPermission  // the permission policy or approval denied
	KindAuth        = core.KindAuth        // the server or its authorization server refused the client (OAuth)
	KindTimeout     = core.KindTimeout     // a deadline passed
	KindCancelled   = core.KindCancelled   // the caller cancelled
	KindClosed      = core.KindClosed      // the agent is closed
	KindUnsupported = core.KindUnsupported // the feature is not supported
	KindInternal    = core.KindInternal    // anything else
)

// KindOf returns the [Kind] of err if it is or wraps an [*Error], and
// [KindInternal] otherwise. It returns "" for a nil error.
func KindOf(err error) Kind { return core.KindOf(err) }

// RuleOf returns the rule ID of err if it is or wraps an [*Error].
func RuleOf(err error) string { return core.RuleOf(err) }
