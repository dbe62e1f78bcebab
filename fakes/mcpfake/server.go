package mcpfake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverEnv is what a server can do beyond answering, which depends on
// where it runs.
type serverEnv struct {
	// exit is called for scripted exits.
	exit func()
	// crash is called for scripted crashes (Call.Crash): a stdio fake
	// kills itself with SIGKILL; the HTTP fake drops the connection.
	crash func()
	// quit ends a stdio fake's process with code 0 once an answer is out
	// (Call.ExitAfterAnswer); nil for HTTP.
	quit func()
	// stderr receives scripted stderr output; nil ignores it (HTTP).
	stderr io.Writer
	// ask sends the client a request and records its answer; nil ignores
	// Call.AskClient (HTTP).
	ask func(ctx context.Context, method string, timeout time.Duration) error
	// done, when closed, ends scripted hangs and delays: go-sdk does not
	// cancel the handlers of a stateless HTTP request whose client went
	// away (unless the request is at 2026-07-28), so without it they would
	// outlive the HTTP fake. Nil for stdio, where the process ends.
	done <-chan struct{}
	// latch waits at a latch (Call.Latch) until it is released, or until
	// ctx ends (an error).
	latch func(ctx context.Context, name string) error
}

// fakeServer is one running fake: the go-sdk server of a script and the
// tools it offers now (Call.ThenTools replaces them).
type fakeServer struct {
	script *Script
	env    serverEnv
	srv    *mcp.Server

	mu    sync.Mutex
	tools []Tool
}

// newServer builds the go-sdk server of a script, acting through env.
func newServer(s *Script, env serverEnv) *fakeServer {
	f := &fakeServer{script: s, env: env, tools: s.Tools}
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: s.listChanged()}}
	if len(s.Resources) > 0 {
		caps.Resources = &mcp.ResourceCapabilities{}
	}
	if len(s.Prompts) > 0 {
		caps.Prompts = &mcp.PromptCapabilities{}
	}
	opts := &mcp.ServerOptions{
		Instructions:              s.Instructions,
		SupportedProtocolVersions: s.ProtocolVersions,
		Capabilities:              caps,
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "mcpconform-fake-" + s.Name, Version: "0.1.0"}, opts)
	for _, name := range s.Resources {
		uri := "fake://" + s.Name + "/" + name
		srv.AddResource(&mcp.Resource{Name: name, URI: uri, MIMEType: "text/plain"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: "resource " + name}}}, nil
		})
	}
	for _, name := range s.Prompts {
		srv.AddPrompt(&mcp.Prompt{Name: name}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "prompt " + name}}}}, nil
		})
	}
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if f, ok := s.fault(method); ok {
				if err := writeStderr(env.stderr, f.StderrBytes, s.stderrText()); err != nil {
					return nil, err
				}
				if f.Latch != "" && env.latch != nil {
					if err := env.latch(ctx, f.Latch); err != nil {
						return nil, err
					}
				}
				if err := act(ctx, env, f.DelayMs, f.Hang, f.Exit); err != nil {
					return nil, err
				}
				if f.Error != "" {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: f.Error}
				}
			}
			switch method {
			case "tools/list":
				return s.listToolsOf(f.currentTools(), req.GetParams().(*mcp.ListToolsParams))
			case "tools/call":
				return f.callTool(ctx, req)
			}
			return next(ctx, method, req)
		}
	})
	f.srv = srv
	return f
}

// currentTools returns the tools the server offers now.
func (f *fakeServer) currentTools() []Tool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tools
}

// listChangedTool is the tool the fake adds to go-sdk's own registry, and
// removes at once, to make go-sdk send notifications/tools/list_changed.
// The fake answers tools/list and tools/call itself: the tool is never
// offered.
const listChangedTool = "mcpconform-list-changed"

// replaceTools makes the server offer tools from now on (Call.ThenTools).
func (f *fakeServer) replaceTools(tools []Tool) {
	f.mu.Lock()
	f.tools = slices.Clone(tools)
	f.mu.Unlock()
}

// notifyToolsChanged makes go-sdk send notifications/tools/list_changed,
// as it does when its own tools change: after a 10 ms debounce, to every
// session older than 2026-07-28 and to every 2026-07-28 session with a
// subscriptions/listen open for it, when the server advertises
// tools.listChanged.
func (f *fakeServer) notifyToolsChanged() {
	f.srv.AddTool(&mcp.Tool{Name: listChangedTool, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New("never offered")
		})
	f.srv.RemoveTools(listChangedTool)
}

// act applies a scripted delay, hang or crash. It returns an error when ctx
// ends first, or when the server shuts down (env.done).
func act(ctx context.Context, env serverEnv, delayMs int, hang, exit bool) error {
	if exit {
		env.exit()
	}
	if hang {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-env.done:
			return errShutdown
		}
	}
	if delayMs > 0 {
		t := time.NewTimer(time.Duration(delayMs) * time.Millisecond)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		case <-env.done:
			return errShutdown
		}
	}
	return nil
}

// errShutdown ends what a server does when it shuts down.
var errShutdown = errors.New("the fake is shutting down")

// listTools serves one page of the script's tools. Cursors are "page-N".
func (s *Script) listTools(p *mcp.ListToolsParams) (*mcp.ListToolsResult, error) {
	return s.listToolsOf(s.Tools, p)
}

// listToolsOf serves one page of tools, paged as the script says.
func (s *Script) listToolsOf(tools []Tool, p *mcp.ListToolsParams) (*mcp.ListToolsResult, error) {
	page := 1
	if p != nil && p.Cursor != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(p.Cursor, "page-"))
		if err != nil || n < 2 || !strings.HasPrefix(p.Cursor, "page-") {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown cursor %q", p.Cursor)}
		}
		page = n
	}
	size := s.PageSize
	if size <= 0 {
		size = max(len(tools), 1)
	}
	pages := max((len(tools)+size-1)/size, 1)
	// The fake answers tools/list itself, past go-sdk's own handler, so it
	// fills in what that handler would: cacheScope is required on the wire
	// at 2026-07-28 ("public" is the protocol's default), and a client that
	// validates results refuses an empty one.
	res := &mcp.ListToolsResult{Tools: []*mcp.Tool{}, Cacheable: mcp.Cacheable{CacheScope: "public"}}
	if page <= pages {
		lo, hi := (page-1)*size, min(page*size, len(tools))
		for _, t := range tools[lo:hi] {
			res.Tools = append(res.Tools, t.mcp())
		}
	} else if s.EndlessCursor {
		res.Tools = append(res.Tools, Tool{Name: fmt.Sprintf("more_%d", page)}.mcp())
	} else {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("no page %d", page)}
	}
	if page < pages || s.EndlessCursor {
		res.NextCursor = fmt.Sprintf("page-%d", page+1)
	}
	return res, nil
}

// mcp converts a scripted tool to go-sdk's, keeping the schemas verbatim.
func (t Tool) mcp() *mcp.Tool {
	in := t.InputSchema
	if in == nil {
		in = json.RawMessage(`{"type":"object"}`)
	}
	mt := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: in}
	if t.OutputSchema != nil {
		mt.OutputSchema = t.OutputSchema
	}
	if t.Annotations != nil {
		var a mcp.ToolAnnotations
		if json.Unmarshal(t.Annotations, &a) == nil {
			mt.Annotations = &a
		}
	}
	return mt
}

// callTool answers tools/call as scripted. What happens as the answer
// goes out (Call.Result, Bytes, LateProgress, ThenTools, ExitAfterAnswer)
// is the transport's part: the stdio wire and the HTTP exchange see the
// answer's id and bytes, which go-sdk does not show its handlers.
func (f *fakeServer) callTool(ctx context.Context, req mcp.Request) (*mcp.CallToolResult, error) {
	s, env := f.script, f.env
	p := req.GetParams().(*mcp.CallToolParamsRaw)
	c, ok := s.call(p.Name)
	if !ok {
		c = Call{Text: "ok"}
	}
	if err := writeStderr(env.stderr, c.StderrBytes, s.stderrText()); err != nil {
		return nil, err
	}
	if env.ask != nil {
		timeout := 10 * time.Second
		if c.AskTimeoutMs > 0 {
			timeout = time.Duration(c.AskTimeoutMs) * time.Millisecond
		}
		for _, method := range c.AskClient {
			if err := env.ask(ctx, method, timeout); err != nil {
				return nil, err
			}
		}
	}
	// Progress goes out before the answer: go-sdk writes each notification
	// (a stdio line, an event of the call's HTTP stream) before it returns.
	// The token is the one go-sdk decoded (numbers as float64). The
	// transport recorded already why none is sent when there is no token.
	if token := p.GetProgressToken(); token != nil {
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
			for _, pr := range c.Progress {
				if ss.NotifyProgress(ctx, pr.params(token)) != nil {
					break // an application/json HTTP response carries none
				}
			}
		}
	}
	if c.Latch != "" && env.latch != nil {
		if err := env.latch(ctx, c.Latch); err != nil {
			return nil, err
		}
	}
	if c.Crash && env.crash != nil {
		env.crash()
	}
	if err := act(ctx, env, c.DelayMs, c.Hang, c.Exit); err != nil {
		return nil, err
	}
	res := &mcp.CallToolResult{IsError: c.IsError, Content: []mcp.Content{}}
	if c.Text != "" {
		res.Content = append(res.Content, &mcp.TextContent{Text: c.Text})
	}
	if c.Structured != nil {
		res.StructuredContent = c.Structured
	}
	return completeResult(req, res), nil
}

// completeResult marks res as a complete result (resultType "complete")
// for a client on protocol 2026-07-28 or later, as go-sdk's own tool path
// does (the field is required on the wire there, and a client that
// validates results refuses its absence); older clients get none. go-sdk
// keeps the field unexported and reads it from JSON, so it goes in that
// way.
func completeResult(req mcp.Request, res *mcp.CallToolResult) *mcp.CallToolResult {
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
		if ip := ss.InitializeParams(); ip != nil && ip.ProtocolVersion < "2026-07-28" {
			return res
		}
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return res
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return res
	}
	obj["resultType"] = json.RawMessage(`"complete"`)
	raw, err = json.Marshal(obj)
	marked := new(mcp.CallToolResult)
	if err != nil || json.Unmarshal(raw, marked) != nil {
		return res
	}
	return marked
}
