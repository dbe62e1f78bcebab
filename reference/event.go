package reference

import "github.com/mcpconform/mcpconform/reference/internal/core"

// Event is something an agent reports while it works, to the listeners of
// [Agent.Subscribe] and to the callback of [Agent.Run]. Type is
// "tool_progress" (a server's progress notification for a call: ID, the
// call's id as the hooks see it, Name, Server, Progress, Total and
// Message, LA-EVT-01) or "error" (a server that failed outside any call:
// Name and Server its alias, Error the failure).
type Event = core.Event

// Hooks are called synchronously around every tool call, MCP tools
// included (LA-EVT-03, LA-EVT-04): ToolStart before a call is authorized
// and sent, ToolEnd after every call that started, whatever its outcome.
// A hook runs inside the run: it may not change the registry (LA-REG-16),
// which fails at once as busy.
type Hooks = core.Hooks

// ToolEvent is what the hooks are told about a call: its ID, full Name and
// Input; at its end, the Result the model sees, IsError, and the Outcome:
// "success", "error" (the tool reported one), "invalid", "denied",
// "timeout", "cancelled" or "failed".
type ToolEvent = core.ToolEvent
