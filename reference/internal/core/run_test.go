package core

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSendConnectsBeforeAsking: the first run asks mcp_connect for every
// declared server, connects and discovers them, and only then asks the
// model, which is offered every tool under its full name and gets the
// call's projection.
func TestSendConnectsBeforeAsking(t *testing.T) {
	a, b := newFake("a", echo("echo")), newFake("b", echo("echo"))
	model := calls(call(1, "mcp__a__echo", `{"x":1}`))
	ask := &approvals{}
	h := testHost(t, LiteAgent(), Options{MCPServers: declared("a", "b"), Model: model, Approval: ask}, map[string]*fakeServer{"a": a, "b": b})

	for _, s := range h.MCP().List() {
		if s.Status != StatusConfigured {
			t.Errorf("before the first run %s is %s: construction must start nothing", s.Name, s.Status)
		}
	}
	resp, err := h.Send(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "done" {
		t.Errorf("the response: Expected %q, Actual %q", "done", resp.Text)
	}
	if got, want := ask.capabilities(), []string{ConnectCapability, ConnectCapability, "mcp__a__echo"}; !slices.Equal(got, want) {
		t.Errorf("approvals asked:\n  Expected: %v\n  Actual:   %v", want, got)
	}
	if got, want := model.offered(), []string{"mcp__a__echo", "mcp__b__echo", ContextTool}; !slices.Equal(got, want) {
		t.Errorf("tools offered:\n  Expected: %v\n  Actual:   %v", want, got)
	}
	if got := a.called(); !slices.Equal(got, []string{"echo"}) {
		t.Errorf("a's calls: Expected [echo], Actual %v", got)
	}
	msgs := model.toolMessages()
	if len(msgs) != 1 || msgs[0].IsError || msgs[0].ToolCallID != "c1" {
		t.Fatalf("the tool message: Expected one success of c1, Actual %+v", msgs)
	}
	contains(t, "the projection", msgs[0].Text, `{"content":[{"type":"text","text":"{\"x\":1}"}]}`)
	for _, s := range h.MCP().List() {
		if s.Status != StatusConnected || len(s.Tools) != 1 || s.Source != SourceOption || s.Transport != TransportStdio {
			t.Errorf("after the run: Expected %s connected with one tool from the option; Actual %+v", s.Name, s)
		}
	}
	if reqs := model.requests(); len(reqs) != 2 || reqs[0].System != SystemPrompt {
		t.Errorf("model requests: Expected 2 with the system prompt; Actual %d", len(reqs))
	}
}

// TestToolCallOutcomes runs one call per case and checks what the model
// and the hooks are told.
func TestToolCallOutcomes(t *testing.T) {
	need := `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`
	out := `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`
	structured := func(v any) func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "s"}}, StructuredContent: v}, nil
		}
	}
	tests := []struct {
		name    string
		tool    fakeTool
		policy  *Policy
		answer  map[string]Decision
		dryRun  bool
		call    ToolCall
		isError bool
		outcome string
		text    []string
		sent    bool // the server received the call
	}{
		{name: "success", tool: echo("t"), call: call(1, "mcp__s__t", `{"a":"b"}`), outcome: "success", text: []string{`\"a\":\"b\"`}, sent: true},
		{name: "no arguments", tool: echo("t"), call: call(1, "mcp__s__t", ``), outcome: "success", text: []string{`{}`}, sent: true},
		{name: "unknown tool", tool: echo("t"), call: call(1, "mcp__s__nope", `{}`), isError: true, text: []string{`"mcp__s__nope" is not available`}},
		{name: "input schema", tool: fakeTool{name: "t", schema: need}, call: call(1, "mcp__s__t", `{"q":1}`), isError: true, outcome: "invalid", text: []string{"LA-VAL-01", "input schema"}},
		{name: "not JSON", tool: fakeTool{name: "t", schema: need}, call: call(1, "mcp__s__t", `{`), isError: true, outcome: "invalid", text: []string{"LA-VAL-01", "not JSON"}},
		{name: "output schema", tool: fakeTool{name: "t", output: out, answer: structured(map[string]any{"n": "x"})}, call: call(1, "mcp__s__t", `{}`), isError: true, outcome: "invalid", text: []string{"LA-VAL-03", "output schema"}, sent: true},
		{name: "no structured content", tool: fakeTool{name: "t", output: out, answer: structured(nil)}, call: call(1, "mcp__s__t", `{}`), isError: true, outcome: "invalid", text: []string{"LA-VAL-03", "no structuredContent"}, sent: true},
		{name: "valid structured content", tool: fakeTool{name: "t", output: out, answer: structured(map[string]any{"n": 3})}, call: call(1, "mcp__s__t", `{}`), outcome: "success", text: []string{`"structuredContent":{"n":3}`}, sent: true},
		{name: "tool error", tool: fakeTool{name: "t", answer: func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "bad"}}, IsError: true}, nil
		}}, call: call(1, "mcp__s__t", `{}`), isError: true, outcome: "error", text: []string{`"isError":true`, "bad"}, sent: true},
		{name: "the policy denies", tool: echo("t"), policy: &Policy{Allow: []string{ConnectCapability}, Deny: []string{"mcp__s__*"}}, call: call(1, "mcp__s__t", `{}`), isError: true, outcome: "denied", text: []string{"LA-SEC-03", "denied by the permission policy"}},
		{name: "the approval denies", tool: echo("t"), policy: &Policy{Allow: []string{ConnectCapability}}, answer: map[string]Decision{"mcp__s__t": Deny}, call: call(1, "mcp__s__t", `{}`), isError: true, outcome: "denied", text: []string{"LA-SEC-03", `was denied ("deny")`}},
		{name: "dry run", tool: echo("t"), dryRun: true, call: call(1, "mcp__s__t", `{"k":1}`), outcome: "success", text: []string{"[dry-run] mcp__s__t would be called with {\"k\":1}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newFake("s", tt.tool)
			model := calls(tt.call)
			var ends []ToolEvent
			var mu sync.Mutex
			hooks := Hooks{ToolEnd: func(_ context.Context, ev ToolEvent) { mu.Lock(); ends = append(ends, ev); mu.Unlock() }}
			policy := tt.policy
			if policy == nil {
				policy = allowAll
			}
			h := testHost(t, LiteAgent(), Options{MCPServers: declared("s"), Model: model, Permission: policy,
				Approval: &approvals{answer: tt.answer}, Hooks: hooks, DryRun: tt.dryRun}, map[string]*fakeServer{"s": s})
			if _, err := h.Send(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			msgs := model.toolMessages()
			if len(msgs) != 1 {
				t.Fatalf("tool messages: Expected 1, Actual %d", len(msgs))
			}
			if msgs[0].IsError != tt.isError {
				t.Errorf("isError: Expected %v, Actual %v (%q)", tt.isError, msgs[0].IsError, msgs[0].Text)
			}
			contains(t, "the tool message", msgs[0].Text, tt.text...)
			if got := len(s.called()) == 1; got != tt.sent {
				t.Errorf("the server received the call: Expected %v, Actual %v", tt.sent, got)
			}
			if tt.outcome != "" && (len(ends) != 1 || ends[0].Outcome != tt.outcome || ends[0].ID != "c1") {
				t.Errorf("tool:end: Expected one of outcome %q for c1, Actual %+v", tt.outcome, ends)
			}
		})
	}
}

// TestHostTools: host tools run under the same policy beside the MCP
// tools, validated through their schema (native or standard), and their
// results keep isError.
func TestHostTools(t *testing.T) {
	native, err := JSONSchema(json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := JSONSchema(json.RawMessage(`{"type":"string"}`)); err == nil {
		t.Error("JSONSchema accepted a schema whose root is not an object")
	}
	tests := []struct {
		name    string
		tool    *hostTool
		args    string
		isError bool
		outcome string
		text    string
		ran     bool
	}{
		{"native, valid", &hostTool{name: "calc", schema: native, result: ToolResult{Content: "4"}}, `{"n":2}`, false, "success", "4", true},
		{"native, invalid", &hostTool{name: "calc", schema: native}, `{"n":"x"}`, true, "invalid", "LA-TOOL-02", false},
		{"native, not JSON", &hostTool{name: "calc", schema: native}, `{`, true, "invalid", "not JSON", false},
		{"standard, issues", &hostTool{name: "calc", schema: &stdSchema{issues: []Issue{{Message: "n is odd"}}}}, `{}`, true, "invalid", "n is odd", false},
		{"standard, validate fails", &hostTool{name: "calc", schema: &stdSchema{err: errors.New("validator down")}}, `{}`, true, "invalid", "validator down", false},
		{"tool error", &hostTool{name: "calc", schema: &stdSchema{}, result: ToolResult{Content: "no", IsError: true}}, `{}`, true, "error", "no", true},
		{"execute fails", &hostTool{name: "calc", schema: &stdSchema{}, err: errors.New("boom")}, `{}`, true, "failed", "boom", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := calls(call(1, "calc", tt.args))
			var ends []ToolEvent
			h := testHost(t, LiteAgent(), Options{Model: model, Tools: []Tool{tt.tool}, Permission: &Policy{Allow: []string{"calc"}},
				Hooks: Hooks{ToolEnd: func(_ context.Context, ev ToolEvent) { ends = append(ends, ev) }}}, nil)
			if _, err := h.Send(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			msgs := model.toolMessages()
			if len(msgs) != 1 || msgs[0].IsError != tt.isError || !strings.Contains(msgs[0].Text, tt.text) {
				t.Errorf("the tool message:\n  Expected: isError %v, containing %q\n  Actual:   %+v", tt.isError, tt.text, msgs)
			}
			if tt.tool.ran != tt.ran {
				t.Errorf("the tool ran: Expected %v, Actual %v", tt.ran, tt.tool.ran)
			}
			if len(ends) != 1 || ends[0].Outcome != tt.outcome {
				t.Errorf("tool:end: Expected outcome %q, Actual %+v", tt.outcome, ends)
			}
			if spec := model.requests()[0].Tools[0]; spec.Name != "calc" || string(spec.InputSchema) != string(tt.tool.schema.InputJSONSchema()) {
				t.Errorf("the model was offered %+v, not the tool's own schema", spec)
			}
		})
	}
}

// hostTool is a host tool with a fixed result.
type hostTool struct {
	name   string
	schema Schema
	result ToolResult
	err    error
	ran    bool
}

func (h *hostTool) Name() string        { return h.name }
func (h *hostTool) Description() string { return "a host tool" }
func (h *hostTool) Schema() Schema      { return h.schema }
func (h *hostTool) Execute(context.Context, json.RawMessage) (ToolResult, error) {
	h.ran = true
	return h.result, h.err
}

// stdSchema is a Standard Schema whose validate() answers fixed issues.
type stdSchema struct {
	issues []Issue
	err    error
}

func (s *stdSchema) Validate(context.Context, json.RawMessage) ([]Issue, error) {
	return s.issues, s.err
}
func (s *stdSchema) InputJSONSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }

// TestPermissions: what the policy and the approval handler decide about
// connecting and calling, without a handler, with one that fails, and
// for a sub-agent whose policy is stricter.
func TestPermissions(t *testing.T) {
	tests := []struct {
		name     string
		policy   *Policy
		approval ApprovalHandler
		err      string // the rule Send fails with; "" when it connects
		asked    []string
		text     string // in the tool message
	}{
		{"default policy asks both", nil, &approvals{}, "", []string{ConnectCapability, "mcp__s__t"}, `"text"`},
		{"no handler denies", nil, nil, "LA-SEC-06", nil, ""},
		{"a failing handler denies", nil, &approvals{err: errors.New("down")}, "LA-SEC-07", []string{ConnectCapability}, ""},
		{"connect denied", nil, &approvals{answer: map[string]Decision{ConnectCapability: Deny}}, "LA-SEC-02", []string{ConnectCapability}, ""},
		{"policy denies connecting", &Policy{Deny: []string{"*"}}, &approvals{}, "LA-SEC-02", nil, ""},
		{"ask wins over allow", &Policy{Ask: []string{"mcp__*"}, Allow: []string{"*"}}, &approvals{}, "", []string{"mcp__s__t"}, `"text"`},
		{"deny wins over allow", &Policy{Deny: []string{"mcp__s__t"}, Allow: []string{"*"}}, &approvals{}, "", nil, "LA-SEC-03"},
		{"no handler denies a call", &Policy{Allow: []string{ConnectCapability}}, nil, "", nil, "LA-SEC-06"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newFake("s", echo("t"))
			model := calls(call(1, "mcp__s__t", `{}`))
			h := testHost(t, LiteAgent(), Options{MCPServers: declared("s"), Model: model, Permission: tt.policy, Approval: tt.approval}, map[string]*fakeServer{"s": s})
			var events []Event
			_, err := h.Run(context.Background(), "go", func(ev Event) { events = append(events, ev) })
			if RuleOf(err) != tt.err {
				t.Fatalf("Send:\n  Expected: rule %q\n  Actual:   %v", tt.err, err)
			}
			if ask, ok := tt.approval.(*approvals); ok && !slices.Equal(ask.capabilities(), tt.asked) {
				t.Errorf("asked:\n  Expected: %v\n  Actual:   %v", tt.asked, ask.capabilities())
			}
			if tt.err != "" {
				wantErr(t, "Send", err, KindPermission, tt.err)
				if len(events) != 1 || events[0].Type != "error" || events[0].Server != "s" {
					t.Errorf("events: Expected one error event for s, Actual %+v", events)
				}
				if l := h.MCP().List(); l[0].Status != StatusFailed || !strings.Contains(l[0].Error, tt.err) {
					t.Errorf("list: Expected s failed with %s, Actual %+v", tt.err, l[0])
				}
				if len(model.requests()) != 0 {
					t.Error("the model was asked although a server failed")
				}
				return
			}
			contains(t, "the tool message", model.toolMessages()[0].Text, tt.text)
		})
	}
}

// TestAllowedToolsHideAndGrantNothing: allowedTools is what the model sees,
// and a tool it lists is still asked for.
func TestAllowedToolsHideAndGrantNothing(t *testing.T) {
	s := newFake("s", echo("a"), echo("b"))
	model := calls(call(1, "mcp__s__a", `{}`), call(2, "mcp__s__b", `{}`))
	ask := &approvals{}
	h := testHost(t, LiteAgent(), Options{MCPServers: declared("s"), Model: model, Approval: ask, AllowedTools: []string{"mcp__s__a"}},
		map[string]*fakeServer{"s": s})
	if _, err := h.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if got := model.offered(); !slices.Equal(got, []string{"mcp__s__a", ContextTool}) {
		t.Errorf("offered: Expected [mcp__s__a context], Actual %v", got)
	}
	if got := ask.capabilities(); !slices.Equal(got, []string{ConnectCapability, "mcp__s__a"}) {
		t.Errorf("asked: Expected mcp_connect and mcp__s__a, Actual %v", got)
	}
	msgs := model.toolMessages()
	if len(msgs) != 2 || !msgs[1].IsError || !strings.Contains(msgs[1].Text, "not available") {
		t.Errorf("the hidden tool's call: Expected a tool error, Actual %+v", msgs)
	}
	if got := s.called(); !slices.Equal(got, []string{"a"}) {
		t.Errorf("calls: Expected [a], Actual %v", got)
	}
}

// TestCallsRunInOrder: the calls of one turn run one after the other, in
// the order the model gave them, and the hooks bracket each.
func TestCallsRunInOrder(t *testing.T) {
	s := newFake("s", echo("a"), echo("b"))
	model := calls(call(1, "mcp__s__b", `{}`), call(2, "mcp__s__a", `{}`), call(3, "mcp__s__b", `{}`))
	var log []string
	hooks := Hooks{
		ToolStart: func(_ context.Context, ev ToolEvent) { log = append(log, "start "+ev.ID) },
		ToolEnd:   func(_ context.Context, ev ToolEvent) { log = append(log, "end "+ev.ID+" "+ev.Outcome) },
	}
	h := testHost(t, LiteAgent(), Options{MCPServers: declared("s"), Model: model, Permission: allowAll, Hooks: hooks}, map[string]*fakeServer{"s": s})
	if _, err := h.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	want := []string{"start c1", "end c1 success", "start c2", "end c2 success", "start c3", "end c3 success"}
	if !slices.Equal(log, want) {
		t.Errorf("hooks:\n  Expected: %v\n  Actual:   %v", want, log)
	}
	if got := s.called(); !slices.Equal(got, []string{"b", "a", "b"}) {
		t.Errorf("calls: Expected [b a b], Actual %v", got)
	}
}

// TestRunLimitsAndFailures: a model that never stops, a model that
// fails, and an agent without a model.
func TestRunLimitsAndFailures(t *testing.T) {
	t.Run("max turns", func(t *testing.T) {
		forever := &script{}
		for range maxTurns + 1 {
			forever.turns = append(forever.turns, ModelResponse{ToolCalls: []ToolCall{call(1, ContextTool, `{}`)}})
		}
		h := testHost(t, LiteAgent(), Options{Model: forever}, nil)
		_, err := h.Send(context.Background(), "go")
		wantErr(t, "a run that never ends", err, KindLimit, "")
		if n := len(forever.requests()); n != maxTurns {
			t.Errorf("model requests: Expected %d, Actual %d", maxTurns, n)
		}
	})
	t.Run("model fails", func(t *testing.T) {
		h := testHost(t, LiteAgent(), Options{Model: &script{fail: errors.New("overloaded")}}, nil)
		_, err := h.Send(context.Background(), "go")
		wantErr(t, "a failing model", err, KindInternal, "")
		contains(t, "the error", err.Error(), "overloaded")
	})
	t.Run("no model", func(t *testing.T) {
		h := testHost(t, LiteAgent(), Options{}, nil)
		_, err := h.Send(context.Background(), "go")
		wantErr(t, "no model", err, KindConfig, "")
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		h := testHost(t, LiteAgent(), Options{Model: ModelFunc(func(ctx context.Context, req ModelRequest) (ModelResponse, error) {
			cancel()
			return ModelResponse{}, ctx.Err()
		})}, nil)
		_, err := h.Send(ctx, "go")
		wantErr(t, "a run whose context ends", err, KindCancelled, "LA-TMO-05")
	})
}

// TestEvents: subscribe() and the run's own callback both see a call's
// progress, in order, with the call's id; nothing after unsubscribe.
func TestEvents(t *testing.T) {
	progress := fakeTool{name: "p", answer: func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		for i := 1; i <= 3; i++ {
			if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 3, Message: "step"}); err != nil {
				return nil, err
			}
		}
		return textResult("ok"), nil
	}}
	s := newFake("s", progress)
	h := testHost(t, LiteAgent(), Options{MCPServers: declared("s"), Model: calls(call(7, "mcp__s__p", `{}`)), Permission: allowAll}, map[string]*fakeServer{"s": s})
	var mu sync.Mutex
	var subscribed, run []float64
	unsubscribe := h.Subscribe(func(ev Event) { mu.Lock(); subscribed = append(subscribed, ev.Progress); mu.Unlock() })
	if _, err := h.Run(context.Background(), "go", func(ev Event) {
		if ev.Type != "tool_progress" || ev.ID != "c7" || ev.Name != "mcp__s__p" || ev.Server != "s" || ev.Total == nil || *ev.Total != 3 || ev.Message != "step" {
			t.Errorf("event: Expected tool_progress of c7, mcp__s__p on s, total 3, message step; Actual %+v", ev)
		}
		mu.Lock()
		run = append(run, ev.Progress)
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 2, 3}
	mu.Lock()
	if !slices.Equal(run, want) || !slices.Equal(subscribed, want) {
		t.Errorf("progress:\n  Expected: %v through both\n  Actual:   run %v, subscribe %v", want, run, subscribed)
	}
	mu.Unlock()
	unsubscribe()
	h.opts.Model = calls(call(8, "mcp__s__p", `{}`))
	if _, err := h.Send(context.Background(), "again"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(subscribed) != 3 {
		t.Errorf("after unsubscribe the listener got %d events, Expected none more", len(subscribed)-3)
	}
}
