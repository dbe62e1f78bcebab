package reference

import "github.com/mcpconform/mcpconform/reference/internal/core"

// Model is the language model an [Agent] talks to: its one method,
// Complete(ctx, [ModelRequest]) ([ModelResponse], error), answers a request
// with tool calls to run or the final text. The reference sends it the
// system prompt, the conversation and every tool it offers, and runs the
// tool calls it answers with.
type Model = core.Model

// ModelFunc adapts a function to the [Model] interface.
type ModelFunc = core.ModelFunc

// ModelRequest is one request to the [Model]: System, the system prompt
// ([SystemPrompt]; MCP server instructions never reach it, LA-SEC-12);
// Messages, the conversation, oldest first; Tools, the run's catalog,
// fixed for the whole run.
type ModelRequest = core.ModelRequest

// Message is one entry of the conversation: Role ("user", "assistant" or
// "tool"), Text (for a tool message, the result as the model sees it),
// ToolCalls (an assistant message's), and ToolCallID and IsError (a tool
// message's call and whether it is a tool error).
type Message = core.Message

// ToolSpec is a tool as offered to the model: Name (mcp__<server>__<tool>
// for MCP tools), Description and InputSchema (the JSON Schema the server
// or the host declared).
type ToolSpec = core.ToolSpec

// ToolCall is a call the model asks for: ID, Name and Arguments (JSON).
type ToolCall = core.ToolCall

// ModelResponse is the model's answer: ToolCalls to run, or, without any,
// the final Text.
type ModelResponse = core.ModelResponse

// Response is the outcome of [Agent.Send]: Text, the model's final text.
type Response = core.Response

// SystemPrompt is the system prompt of every run. Server instructions are
// never added to it (LA-SEC-12).
const SystemPrompt = core.SystemPrompt
