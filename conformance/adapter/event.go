package adapter

import "encoding/json"

// Event is one event an implementation emits to its host: run events such as
// tool_progress, hook invocations such as tool:start, and errors.
type Event struct {
	// Type is the event name: "tool_progress", or "error" for a server
	// failure outside any call.
	Type string `json:"type"`
	// Via is "run" for an event of a run's stream, "subscribe" for one
	// delivered to subscribe() listeners.
	Via string `json:"via,omitempty"`
	// ID is the tool call's id (tool_progress).
	ID string `json:"id,omitempty"`
	// Name is the tool name the event concerns, if any.
	Name string `json:"name,omitempty"`
	// Server is the server alias the event concerns, if any.
	Server string `json:"server,omitempty"`
	// Progress, Total and Message are tool_progress fields; Total and
	// Message are absent (nil) when the implementation left them out.
	Progress *float64 `json:"progress,omitempty"`
	Total    *float64 `json:"total,omitempty"`
	Message  *string  `json:"message,omitempty"`
	// Data is the event payload, verbatim.
	Data json.RawMessage `json:"data,omitempty"`
}
