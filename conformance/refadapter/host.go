package refadapter

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/internal/fault"
	"github.com/mcpconform/mcpconform/reference"
)

// model is the reference's model, answered by the runner's host.
type model struct{ host adapter.Host }

func (m model) Complete(ctx context.Context, req reference.ModelRequest) (reference.ModelResponse, error) {
	ar := adapter.ModelRequest{System: req.System, Messages: []adapter.Message{}, Tools: []adapter.ToolDef{}}
	for _, msg := range req.Messages {
		am := adapter.Message{Role: msg.Role, Text: msg.Text, ToolCallID: msg.ToolCallID, IsError: msg.IsError}
		if msg.Role == "tool" {
			am.Projection, am.Context, am.Page = parseToolText(msg.Text)
		}
		for _, c := range msg.ToolCalls {
			am.ToolCalls = append(am.ToolCalls, adapter.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		}
		ar.Messages = append(ar.Messages, am)
	}
	for _, t := range req.Tools {
		ar.Tools = append(ar.Tools, adapter.ToolDef{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
	}
	resp, err := m.host.Model(ctx, ar)
	if err != nil {
		return reference.ModelResponse{}, err
	}
	out := reference.ModelResponse{Text: resp.Text}
	for _, c := range resp.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, reference.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return out, nil
}

// approval is the reference's approval handler, answered by the runner's
// host.
type approval struct{ host adapter.Host }

func (a approval) Request(ctx context.Context, req reference.ApprovalRequest) (reference.Decision, error) {
	raw, _ := json.Marshal(req)
	d, err := a.host.Approve(ctx, adapter.ApprovalRequest{Name: req.Capability, Server: req.Server, Input: req.Input, Raw: raw})
	return reference.Decision(d), err
}

// contractEvent converts a reference event.
func contractEvent(ev reference.Event, via string) adapter.Event {
	raw, _ := json.Marshal(ev)
	out := adapter.Event{Type: ev.Type, Via: via, ID: ev.ID, Name: ev.Name, Server: ev.Server, Total: ev.Total, Data: raw}
	if ev.Type == "tool_progress" {
		p := ev.Progress
		out.Progress = &p
	}
	if ev.Message != "" {
		m := ev.Message
		out.Message = &m
	}
	return out
}

// hooks forwards the reference's hooks to the runner.
func hooks(host adapter.Host) reference.Hooks {
	call := func(typ string) func(context.Context, reference.ToolEvent) {
		return func(ctx context.Context, ev reference.ToolEvent) {
			raw, _ := json.Marshal(ev)
			_ = host.Hook(ctx, adapter.HookEvent{Type: typ, ID: ev.ID, Name: ev.Name, Input: ev.Input,
				Result: ev.Result, IsError: ev.IsError, Outcome: ev.Outcome, Raw: raw})
		}
	}
	return reference.Hooks{ToolStart: call("tool:start"), ToolEnd: call("tool:end")}
}

// hostTool is a host-defined tool of the runner, as a reference Tool.
type hostTool struct {
	def    adapter.CustomTool
	host   adapter.Host
	schema reference.Schema
	// faults may break how the result of execute() is read: in
	// TypeScript the SDK reads it; in Go this adapter does (LA-TOOL-06,
	// LA-TOOL-07).
	faults fault.Set
}

// newHostTool builds a host tool; a "native" schema is the reference's
// own schema library, a "standard" one asks the host to validate.
func newHostTool(def adapter.CustomTool, host adapter.Host, faults fault.Set) (*hostTool, error) {
	t := &hostTool{def: def, host: host, faults: faults}
	switch def.Schema.Kind {
	case "native":
		s, err := reference.JSONSchema(def.Schema.JSONSchema)
		if err != nil {
			return nil, adapter.Errorf(adapter.KindValidation, "the schema of host tool %q: %v", def.Name, err)
		}
		t.schema = s
	case "standard":
		t.schema = &standardSchema{def: def, host: host}
	default:
		return nil, adapter.Errorf(adapter.KindUnsupported, "host tool %q has a schema of kind %q; use standard or native", def.Name, def.Schema.Kind)
	}
	return t, nil
}

func (t *hostTool) Name() string             { return t.def.Name }
func (t *hostTool) Description() string      { return t.def.Description }
func (t *hostTool) Schema() reference.Schema { return t.schema }

// Execute runs the tool through the host. Its result is what a
// TypeScript execute() returns: a string (a success), or {content,
// isError}.
func (t *hostTool) Execute(ctx context.Context, input json.RawMessage) (reference.ToolResult, error) {
	raw, err := t.host.Execute(ctx, adapter.ExecuteRequest{Tool: t.def.Name, Input: input})
	if err != nil {
		return reference.ToolResult{}, err
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		// LA-TOOL-06: a plain string is a success.
		return reference.ToolResult{Content: text, IsError: t.faults.Has(fault.StringIsError)}, nil
	}
	var obj struct {
		Content string `json:"content"`
		IsError bool   `json:"isError"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return reference.ToolResult{}, fmt.Errorf("execute() returned %s: neither a string nor {content, isError}", raw)
	}
	// LA-TOOL-07: {content, isError: true} is a tool error.
	if t.faults.Has(fault.IgnoreToolIsError) {
		obj.IsError = false
	}
	return reference.ToolResult{Content: obj.Content, IsError: obj.IsError}, nil
}

// standardSchema is a Standard Schema whose validate() is the host's.
type standardSchema struct {
	def  adapter.CustomTool
	host adapter.Host
}

func (s *standardSchema) Validate(ctx context.Context, input json.RawMessage) ([]reference.Issue, error) {
	issues, err := s.host.Validate(ctx, adapter.ValidateRequest{Tool: s.def.Name, Input: input})
	if err != nil {
		return nil, err
	}
	var out []reference.Issue
	for _, i := range issues {
		out = append(out, reference.Issue{Message: i})
	}
	return out, nil
}

func (s *standardSchema) InputJSONSchema() json.RawMessage { return s.def.Schema.JSONSchema }
