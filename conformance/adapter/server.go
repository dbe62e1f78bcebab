package adapter

import "encoding/json"

// ServerStatus is one entry of the registry as list() reports it, in the
// contract's vocabulary.
type ServerStatus struct {
	// Name is the server alias.
	Name string `json:"name"`
	// Source says where the server was declared. Needs [CapListNormalize].
	Source Source `json:"source,omitempty"`
	// Status is the server's local state. Needs [CapListNormalize].
	Status Status `json:"status,omitempty"`
	// Tools are the full tool names (mcp__<server>__<tool>) the server
	// contributes, in the implementation's order.
	Tools []string `json:"tools"`
	// Raw is the implementation's own list() entry, verbatim, so that
	// scenarios can check it for leaked credentials.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// Source is where a server was declared.
type Source string

// The sources of the registry (rule catalog A-22).
const (
	SourceGlobal   Source = "global"
	SourceProject  Source = "project"
	SourceOption   Source = "option"
	SourceInstance Source = "instance"
)

// Status is a server's local state.
type Status string

// The statuses of the registry (rule catalog A-22).
const (
	StatusConfigured Status = "configured"
	StatusConnected  Status = "connected"
	StatusStale      Status = "stale"
	StatusFailed     Status = "failed"
)
