package refadapter

import (
	"context"
	"encoding/json"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/reference"
)

// model is the reference's model, answered by the runner's host.
type model struct{ host adapter.Host }

func (m model) Complete(ctx context.Context, req reference.ModelRequest) (reference.ModelResponse, error) {
	ar := adapter.ModelRequest{System: req.System, Messages: []adapter.Message{}, Tools: []adapter.ToolDef{}}
	for _, msg := range req.Messages {
		am := adapter.Message{Role: msg.Role, Text: msg.Text, ToolCallID: msg.ToolCallID, IsError: msg.IsError}
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
