package mcpfake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverEnv is what a server can do beyond answering, which depends on
// where it runs.
type serverEnv struct {
	// exit is called for scripted crashes.
	exit func()
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
}

// newServer builds the go-sdk server of a script, acting through env.
func newServer(s *Script, env serverEnv) *mcp.Server {
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}
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
				if err := act(ctx, env, f.DelayMs, f.Hang, f.Exit); err != nil {
					return nil, err
				}
				if f.Error != "" {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: f.Error}
				}
			}
			switch method {
			case "tools/list":
				return s.listTools(req.GetParams().(*mcp.ListToolsParams))
			case "tools/call":
				return s.callTool(ctx, req.GetParams().(*mcp.CallToolParamsRaw), env)
			}
			return next(ctx, method, req)
		}
	})
	return srv
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
		size = max(len(s.Tools), 1)
	}
	pages := max((len(s.Tools)+size-1)/size, 1)
	res := &mcp.ListToolsResult{Tools: []*mcp.Tool{}}
	if page <= pages {
		lo, hi := (page-1)*size, min(page*size, len(s.Tools))
		for _, t := range s.Tools[lo:hi] {
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

// callTool answers tools/call as scripted.
func (s *Script) callTool(ctx context.Context, p *mcp.CallToolParamsRaw, env serverEnv) (*mcp.CallToolResult, error) {
	c, ok := s.Calls[p.Name]
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
	return res, nil
}
