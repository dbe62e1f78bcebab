package reference

import "github.com/mcpconform/mcpconform/reference/internal/core"

// Policy is a permission policy of capability names and patterns (Ask,
// Allow, Deny), where '*' matches any run of characters ("mcp__*",
// "mcp__docs__*"). A name that matches Deny is denied; else one that
// matches Ask is asked; else one that matches Allow is allowed; anything
// else is asked. So connecting ([ConnectCapability]) and every MCP call
// are asked unless a policy allows them, and nothing a server or a
// configuration file says can allow them (LA-SEC-04, LA-SEC-05, LA-SEC-10,
// LA-SEC-11).
type Policy = core.Policy

// ConnectCapability is the capability asked for before connecting a server
// (LA-SEC-02). Calls are authorized by their full tool name instead.
const ConnectCapability = core.ConnectCapability

// ApprovalHandler decides the requests a [Policy] asks about
// (onApproval.request): Request(ctx, [ApprovalRequest]) returns a
// [Decision]. ctx is cancelled when the run is cancelled or the agent
// closes; an error or any answer other than [Allow] denies.
type ApprovalHandler = core.ApprovalHandler

// ApprovalFunc adapts a function to the [ApprovalHandler] interface.
type ApprovalFunc = core.ApprovalFunc

// ApprovalRequest is what an [ApprovalHandler] is asked: the Capability
// ([ConnectCapability] or a full tool name) and the Server alias; for a
// connection, the Transport with the Command and Args or the URL it would
// start or contact; for a call, the server's own Tool name and the Input.
// It never holds credentials: no headers and no environment values.
type ApprovalRequest = core.ApprovalRequest

// Decision is an approval handler's answer.
type Decision = core.Decision

// The answers of an [ApprovalHandler].
const (
	Allow = core.Allow
	Deny  = core.Deny
)
