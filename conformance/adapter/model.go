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
	// Projection is the JSON projection a tool message holds, parsed from
	// Text by the adapter ([CapProjection]); nil when Text holds none (an
	// archived result, or an error the implementation words itself).
	Projection *ProjectedResult `json:"projection,omitempty"`
	// Context is the reference to the session archive that a tool message
	// holds instead of an archived result, parsed from Text by the adapter
	// ([CapContextRef]); nil when the result is inline.
	Context *ContextRef `json:"context,omitempty"`
	// Page is the page of the session archive that a tool message
	// answering a call of the context tool holds, parsed from Text by the
	// adapter ([CapContextRef]); nil for any other tool message.
	Page *ContextPage `json:"page,omitempty"`
}

// ContextPage is what one call of the context tool gave the model: a
// run of archived bytes, and where the next run starts. Reading from a
// reference's offset and following Next until it is nil yields every
// archived byte of the reference once, in order.
type ContextPage struct {
	// Ref is the reference the page belongs to.
	Ref string `json:"ref"`
	// Offset is where in the archived bytes Text starts: the offset asked
	// for, or a little after it when the implementation starts a page on a
	// character boundary.
	Offset int `json:"offset"`
	// Text is the archived bytes of the page, as text.
	Text string `json:"text"`
	// Next is the offset of the following page; nil on the last page.
	Next *int `json:"next,omitempty"`
}

// ProjectedResult is a tool result's JSON projection in normalized form
// (rule catalog A-26): what the implementation keeps of an MCP
// CallToolResult for its model.
type ProjectedResult struct {
	Content []ProjectedItem `json:"content"`
	// StructuredContent is kept verbatim, scalars included; nil when the
	// result had none.
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
}

// ProjectedItem is one content item of a projection: text keeps Text, a
// resource link keeps URI and Name; media and embedded resources are
// archived, and carry Context instead of their data.
type ProjectedItem struct {
	Type     string      `json:"type"`
	Text     string      `json:"text,omitempty"`
	URI      string      `json:"uri,omitempty"`
	Name     string      `json:"name,omitempty"`
	MIMEType string      `json:"mimeType,omitempty"`
	Context  *ContextRef `json:"context,omitempty"`
}

// ContextRef is a context({ref, offset}) reference into the session
// archive: the model reads the archived bytes back by calling the context
// tool with Ref and Offset.
type ContextRef struct {
	Ref    string `json:"ref"`
	Offset int    `json:"offset"`
	// Bytes is the size of what was archived, when the reference says;
	// 0 means it does not.
	Bytes int `json:"bytes,omitempty"`
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
