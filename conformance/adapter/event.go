package adapter

import "encoding/json"

// Event is one event an implementation emits to its host: run events such as
// tool_progress, hook invocations such as tool:start, and errors.
type Event struct {
	// Type is the event name, e.g. "tool_progress", "tool:start",
	// "tool:end", "error".
	Type string `json:"type"`
	// Name is the tool name the event concerns, if any.
	Name string `json:"name,omitempty"`
	// Server is the server alias the event concerns, if any.
	Server string `json:"server,omitempty"`
	// Data is the event payload, verbatim.
	Data json.RawMessage `json:"data,omitempty"`
}
