package core

import (
	"context"
	"encoding/json"
	"sync"
)

// Event is something an agent reports while it works, to the listeners of
// [Host.Subscribe] and to the callback of [Host.Run].
type Event struct {
	// Type is "tool_progress", or "error" for a server that failed outside
	// any call.
	Type string `json:"type"`
	// ID is the tool call's id (tool_progress), the same id the hooks see
	// (interpretation A-32).
	ID string `json:"id,omitempty"`
	// Name is the full tool name, or the server alias of an error.
	Name string `json:"name,omitempty"`
	// Server is the server alias.
	Server string `json:"server,omitempty"`
	// Progress, Total and Message are a tool_progress notification's
	// (LA-EVT-01); Total is nil and Message empty when the server sent
	// none.
	Progress float64  `json:"progress,omitempty"`
	Total    *float64 `json:"total,omitempty"`
	Message  string   `json:"message,omitempty"`
	// Error describes an error event.
	Error string `json:"error,omitempty"`
}

// Hooks are called synchronously around every tool call, MCP tools
// included (LA-EVT-03, LA-EVT-04). A hook runs inside the run: it may not
// change the registry (LA-REG-16), which fails at once as busy.
type Hooks struct {
	// ToolStart runs before a call is authorized and sent.
	ToolStart func(ctx context.Context, ev ToolEvent)
	// ToolEnd runs after every call that started, whatever its outcome.
	ToolEnd func(ctx context.Context, ev ToolEvent)
}

// ToolEvent is what the hooks are told about a call.
type ToolEvent struct {
	// ID is the model's call id.
	ID string `json:"id"`
	// Name is the full tool name.
	Name string `json:"name"`
	// Input is the call's arguments.
	Input json.RawMessage `json:"input,omitempty"`
	// Result, IsError and Outcome describe the end of a call (tool:end).
	// Outcome is "success", "error" (the tool reported an error),
	// "invalid", "denied", "timeout", "cancelled" or "failed".
	Result  string `json:"result,omitempty"`
	IsError bool   `json:"isError,omitempty"`
	Outcome string `json:"outcome,omitempty"`
}

// listeners is the set of [Host.Subscribe] listeners of an agent.
type listeners struct {
	mu   sync.Mutex
	next int
	fns  map[int]func(Event)
}

// add registers fn and returns its removal.
func (l *listeners) add(fn func(Event)) func() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fns == nil {
		l.fns = map[int]func(Event){}
	}
	id := l.next
	l.next++
	l.fns[id] = fn
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		delete(l.fns, id)
	}
}

// emit delivers ev to every listener.
func (l *listeners) emit(ev Event) {
	l.mu.Lock()
	fns := make([]func(Event), 0, len(l.fns))
	for _, fn := range l.fns {
		fns = append(fns, fn)
	}
	l.mu.Unlock()
	for _, fn := range fns {
		fn(ev)
	}
}

// clear removes every listener (close).
func (l *listeners) clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.fns = nil
}
