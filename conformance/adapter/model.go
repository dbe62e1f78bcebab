package adapter

import "encoding/json"

// ModelRequest is one request an implementation sends to its model: what a
// real provider would receive.
type ModelRequest struct {
	// System is the system prompt.
	System string `json:"system"`
	// Messages is the conversation so far, oldest first.
	Messages []Message `json:"messages"`
	// Tools lists every tool offered to the model, in the order offered.
	Tools []ToolDef `json:"tools"`
}

// A Message is one entry of the conversation sent to the model.
type Message struct {
	// Role is "user", "assistant" or "tool".
	Role string `json:"role"`
	// Text is the message text; for a tool message, the tool result exactly
	// as the model sees it.
	Text string `json:"text,omitempty"`
	// ToolCalls are the calls an assistant message made.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// ToolCallID links a tool message to the call it answers.
	ToolCallID string `json:"toolCallId,omitempty"`
	// IsError marks a tool message as a tool error.
	IsError bool `json:"isError,omitempty"`
}

// ToolDef is a tool as offered to the model.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
}

// ToolCall is a call the model asks for.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ModelResponse is the scripted model's answer: either tool calls or final
// text.
type ModelResponse struct {
	Text      string     `json:"text,omitempty"`
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
}
