package adapter

import "encoding/json"

// ApprovalRequest is one call of the implementation's approval handler.
type ApprovalRequest struct {
	// Name is the capability being authorized: "mcp_connect" for a
	// connection, or the full tool name (mcp__<server>__<tool>) for a call.
	Name string `json:"name"`
	// Server is the server alias the request concerns, when the adapter can
	// tell.
	Server string `json:"server,omitempty"`
	// Input is the tool input for a call approval.
	Input json.RawMessage `json:"input,omitempty"`
	// Raw is the payload the implementation handed its approval handler,
	// verbatim, so that scenarios can check it for leaked secrets.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// Decision is an approval handler's answer.
type Decision string

// The decisions an approval handler can return.
const (
	Allow Decision = "allow"
	Deny  Decision = "deny"
)
