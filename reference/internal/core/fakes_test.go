package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// The core's tests run hosts against in-memory go-sdk servers
// ([Host.dial]), a scripted model and recording approval handlers; the
// tests of transports, processes and OAuth use real loopback HTTP and
// child processes instead.

// fakeServer is an in-memory MCP server that records what it received.
type fakeServer struct {
	srv *mcp.Server

	mu       sync.Mutex
	methods  []string // every request and notification, in order
	calls    []string // the tools called, by their own names
	sessions []*mcp.ServerSession
}

// tool is a fake tool: its name and its answer to arguments.
type fakeTool struct {
	name   string
	schema string // the input schema; "" is {"type":"object"}
	output string // the output schema, if any
	answer func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error)
}

// echo answers with the call's arguments as text.
func echo(name string) fakeTool {
	return fakeTool{name: name, answer: func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return textResult(string(req.Params.Arguments)), nil
	}}
}

// textResult is a result of one text item.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// newFake returns a server offering tools, named name.
func newFake(name string, tools ...fakeTool) *fakeServer {
	f := &fakeServer{srv: mcp.NewServer(&mcp.Implementation{Name: name, Version: "1.0.0"}, nil)}
	for _, t := range tools {
		f.add(t)
	}
	f.srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			f.mu.Lock()
			f.methods = append(f.methods, method)
			if c, ok := req.(*mcp.CallToolRequest); ok {
				f.calls = append(f.calls, c.Params.Name)
			}
			f.mu.Unlock()
			return next(ctx, method, req)
		}
	})
	return f
}

// add adds a tool to the server.
func (f *fakeServer) add(t fakeTool) {
	schema := t.schema
	if schema == "" {
		schema = `{"type":"object"}`
	}
	tool := &mcp.Tool{Name: t.name, Description: "the " + t.name + " tool", InputSchema: json.RawMessage(schema)}
	if t.output != "" {
		tool.OutputSchema = json.RawMessage(t.output)
	}
	answer := t.answer
	if answer == nil {
		answer = echo(t.name).answer
	}
	f.srv.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(ctx, req)
	})
}

// transport connects a new server session over an in-memory pipe and
// returns the client's end of it.
func (f *fakeServer) transport(t *testing.T) io.ReadWriteCloser {
	c, s := net.Pipe()
	ss, err := f.srv.Connect(context.Background(), &mcp.IOTransport{Reader: s, Writer: s}, nil)
	if err != nil {
		t.Errorf("fake server: %v", err)
	}
	f.mu.Lock()
	f.sessions = append(f.sessions, ss)
	f.mu.Unlock()
	return c
}

// count returns how many times the server received method.
func (f *fakeServer) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, m := range f.methods {
		if m == method {
			n++
		}
	}
	return n
}

// called returns the tools called so far.
func (f *fakeServer) called() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// dropSessions ends every session the server has, as a server that went
// away would.
func (f *fakeServer) dropSessions() {
	f.mu.Lock()
	ss := slices.Clone(f.sessions)
	f.mu.Unlock()
	for _, s := range ss {
		s.Close()
	}
}

// script is a scripted model: it answers with its turns in order, then
// with the final text "done", and records every request.
type script struct {
	mu    sync.Mutex
	turns []ModelResponse
	reqs  []ModelRequest
	// fail, when set, is every answer's error.
	fail error
}

// calls returns a script whose first turn calls tools and whose second
// answers "done".
func calls(cs ...ToolCall) *script {
	return &script{turns: []ModelResponse{{ToolCalls: cs}}}
}

// call is a tool call with id "c<n>".
func call(n int, name, args string) ToolCall {
	return ToolCall{ID: fmt.Sprintf("c%d", n), Name: name, Arguments: json.RawMessage(args)}
}

func (s *script) Complete(ctx context.Context, req ModelRequest) (ModelResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, req)
	if s.fail != nil {
		return ModelResponse{}, s.fail
	}
	if len(s.turns) == 0 {
		return ModelResponse{Text: "done"}, nil
	}
	r := s.turns[0]
	s.turns = s.turns[1:]
	return r, nil
}

// requests returns the requests so far.
func (s *script) requests() []ModelRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

// toolMessages returns the tool messages of the last request.
func (s *script) toolMessages() []Message {
	reqs := s.requests()
	if len(reqs) == 0 {
		return nil
	}
	var out []Message
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "tool" {
			out = append(out, m)
		}
	}
	return out
}

// offered returns the names of the tools the first request offered.
func (s *script) offered() []string {
	reqs := s.requests()
	if len(reqs) == 0 {
		return nil
	}
	var out []string
	for _, t := range reqs[0].Tools {
		out = append(out, t.Name)
	}
	return out
}

// approvals is an approval handler that answers from a table (allow by
// default) and records what it was asked.
type approvals struct {
	mu     sync.Mutex
	answer map[string]Decision // by capability
	err    error
	asked  []ApprovalRequest
}

func (a *approvals) Request(ctx context.Context, req ApprovalRequest) (Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, req)
	if a.err != nil {
		return "", a.err
	}
	if d, ok := a.answer[req.Capability]; ok {
		return d, nil
	}
	return Allow, nil
}

// capabilities returns what was asked, in order.
func (a *approvals) capabilities() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, r := range a.asked {
		out = append(out, r.Capability)
	}
	return out
}

// allowAll is a policy that allows connecting and every MCP call.
var allowAll = &Policy{Allow: []string{ConnectCapability, "mcp__*"}}

// testHost builds a host of profile p whose servers are the fakes by name
// (none: its servers are real, over HTTP or as processes), with no
// configuration file, an empty environment unless opts has one,
// and closes it when the test ends.
func testHost(t *testing.T, p Profile, opts Options, fakes map[string]*fakeServer) *Host {
	t.Helper()
	if opts.Workdir == "" {
		opts.Workdir = t.TempDir()
	}
	if opts.Environ == nil {
		opts.Environ = []string{}
	}
	h, err := New(opts, p)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if fakes != nil {
		h.dial = dialer(t, fakes)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// dialer connects a server name to its fake.
func dialer(t *testing.T, fakes map[string]*fakeServer) func(string) (io.ReadWriteCloser, error) {
	return func(name string) (io.ReadWriteCloser, error) {
		f, ok := fakes[name]
		switch {
		case !ok:
			t.Errorf("no fake server %q", name)
			return nil, errors.New("no such fake")
		case f == nil:
			return nil, errors.New("connection refused")
		}
		return f.transport(t), nil
	}
}

// declared is the mcpServers option of stdio entries named names (their
// command is never run: the test host dials its fakes).
func declared(names ...string) []NamedServer {
	var out []NamedServer
	for _, n := range names {
		out = append(out, NamedServer{Name: n, Config: ServerConfig{Command: "fake-" + n}})
	}
	return out
}

// faulty returns opts with the faults fs.
func faulty(opts Options, fs ...fault.Fault) Options {
	opts.Faults = fault.NewSet(fs...)
	return opts
}

// wantErr checks an error's kind and rule, h2spec style.
func wantErr(t *testing.T, what string, err error, kind Kind, rule string) {
	t.Helper()
	if KindOf(err) != kind || RuleOf(err) != rule {
		t.Errorf("%s:\n  Expected: a %s error of %s\n  Actual:   %v (kind %q)", what, kind, rule, err, KindOf(err))
	}
}

// contains checks that text holds every part.
func contains(t *testing.T, what, text string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(text, p) {
			t.Errorf("%s:\n  Expected: text containing %q\n  Actual:   %q", what, p, text)
		}
	}
}
