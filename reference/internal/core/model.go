package core

import (
	"context"
	"encoding/json"
)

// Model is the language model an [Host] talks to. The reference sends it
// the system prompt, the conversation and every tool it offers, and runs the
// tool calls it answers with.
type Model interface {
	Complete(ctx context.Context, req ModelRequest) (ModelResponse, error)
}

// ModelFunc adapts a function to the [Model] interface.
type ModelFunc func(ctx context.Context, req ModelRequest) (ModelResponse, error)

// Complete calls f.
func (f ModelFunc) Complete(ctx context.Context, req ModelRequest) (ModelResponse, error) {
	return f(ctx, req)
}

// ModelRequest is one request to the [Model].
type ModelRequest struct {
	// System is the system prompt. MCP server instructions never reach it
	// (LA-SEC-12).
	System string
	// Messages is the conversation, oldest first.
	Messages []Message
	// Tools is the tool catalog of the run, fixed for the whole run.
	Tools []ToolSpec
}

// Message is one entry of the conversation.
type Message struct {
	// Role is "user", "assistant" or "tool".
	Role string
	// Text is the message text; for a tool message, the tool result as the
	// model sees it.
	Text string
	// ToolCalls are the calls of an assistant message.
	ToolCalls []ToolCall
	// ToolCallID links a tool message to its call.
	ToolCallID string
	// IsError marks a tool message as a tool error.
	IsError bool
}

// ToolSpec is a tool as offered to the model.
type ToolSpec struct {
	// Name is the full name, mcp__<server>__<tool> for MCP tools.
	Name        string
	Description string
	// InputSchema is the tool's JSON Schema, as the server declared it.
	InputSchema json.RawMessage
}

// ToolCall is a call the model asks for.
type ToolCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage
}

// ModelResponse is the model's answer: tool calls to run, or the final text.
type ModelResponse struct {
	Text      string
	ToolCalls []ToolCall
}

// Response is the outcome of [Host.Send].
type Response struct {
	// Text is the model's final text.
	Text string
}
