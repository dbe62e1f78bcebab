package mcpfake

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newServer builds the go-sdk server of a script. exit is called for
// scripted crashes.
func newServer(s *Script, exit func()) *mcp.Server {
	opts := &mcp.ServerOptions{
		Instructions:              s.Instructions,
		SupportedProtocolVersions: s.ProtocolVersions,
		Capabilities:              &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "mcpconform-fake-" + s.Name, Version: "0.1.0"}, opts)
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if f, ok := s.fault(method); ok {
				if err := act(ctx, f.DelayMs, f.Hang, f.Exit, exit); err != nil {
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
				return s.callTool(ctx, req.GetParams().(*mcp.CallToolParamsRaw), exit)
			}
			return next(ctx, method, req)
		}
	})
	return srv
}

// act applies a scripted delay, hang or crash. It returns an error when ctx
// ends first.
func act(ctx context.Context, delayMs int, hang, exit bool, exitFn func()) error {
	if exit {
		exitFn()
	}
	if hang {
		<-ctx.Done()
		return ctx.Err()
	}
	if delayMs > 0 {
		t := time.NewTimer(time.Duration(delayMs) * time.Millisecond)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

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
func (s *Script) callTool(ctx context.Context, p *mcp.CallToolParamsRaw, exit func()) (*mcp.CallToolResult, error) {
	c, ok := s.Calls[p.Name]
	if !ok {
		c = Call{Text: "ok"}
	}
	if err := act(ctx, c.DelayMs, c.Hang, c.Exit, exit); err != nil {
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
