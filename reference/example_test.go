package reference_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpconform/mcpconform/reference"
)

// newDocsServer starts a Streamable HTTP MCP server on loopback with one
// tool, search, the way a real server would be reached.
func newDocsServer() *httptest.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "docs", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "search", Description: "Search the docs"},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct {
			Q string `json:"q"`
		}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "found: " + in.Q}}}, nil, nil
		})
	return httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true}))
}

// An agent with one HTTP server declared in code. The first Send asks for
// mcp_connect, connects, discovers, and only then asks the model, which
// sees the tool as mcp__docs__search.
func Example() {
	docs := newDocsServer()
	defer docs.Close()

	agent, err := reference.New(reference.Options{
		Workdir: "/nonexistent",
		Environ: []string{},
		MCPServers: []reference.NamedServer{
			{Name: "docs", Config: reference.ServerConfig{Type: reference.TransportHTTP, URL: docs.URL}},
		},
		// Allow connecting and calling docs' tools without asking.
		Permission: &reference.Policy{Allow: []string{reference.ConnectCapability, "mcp__docs__*"}},
		Model: reference.ModelFunc(func(ctx context.Context, req reference.ModelRequest) (reference.ModelResponse, error) {
			if len(req.Messages) == 1 {
				fmt.Println("tools offered:", req.Tools[0].Name)
				return reference.ModelResponse{ToolCalls: []reference.ToolCall{
					{ID: "1", Name: "mcp__docs__search", Arguments: []byte(`{"q":"MCP"}`)},
				}}, nil
			}
			fmt.Println("tool result:", req.Messages[2].Text)
			return reference.ModelResponse{Text: "done"}, nil
		}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer agent.Close()

	resp, err := agent.Send(context.Background(), "search the docs")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("answer:", resp.Text)
	for _, s := range agent.MCP().List() {
		fmt.Println("list:", s.Name, s.Source, s.Status, s.Tools)
	}
	// Output:
	// tools offered: mcp__docs__search
	// tool result: {"content":[{"type":"text","text":"found: MCP"}]}
	// answer: done
	// list: docs option connected [mcp__docs__search]
}

// Aliases are checked before anything connects; the error names the rule.
func ExampleValidateAlias() {
	fmt.Println(reference.ValidateAlias("docs"))
	fmt.Println(reference.ValidateAlias("aaaaaaaaaaaaaaaaaaaaaaaaa"))
	fmt.Println(reference.ValidateAlias("my.docs"))
	// Output:
	// <nil>
	// LA-NAME-02: server alias "aaaaaaaaaaaaaaaaaaaaaaaaa" has 25 characters; at most 24
	// LA-NAME-03: server alias "my.docs" contains '.'; only letters, digits, '_' and '-' are allowed
}

// Tool names join the server alias and the server's own tool name.
func ExampleToolName() {
	fmt.Println(reference.ToolName("docs", "search"))
	// Output: mcp__docs__search
}

// Registering at run time: the server is connected and discovered when
// Register returns, and the name is taken until Unregister.
func ExampleRegistry_Register() {
	docs := newDocsServer()
	defer docs.Close()
	agent, err := reference.New(reference.Options{
		Workdir:    "/nonexistent",
		Environ:    []string{},
		Permission: &reference.Policy{Allow: []string{reference.ConnectCapability}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer agent.Close()
	ctx := context.Background()
	cfg := reference.ServerConfig{Type: reference.TransportHTTP, URL: docs.URL}
	fmt.Println(agent.MCP().Register(ctx, "search", cfg))
	fmt.Println(agent.MCP().List()[0].Tools)
	fmt.Println(reference.KindOf(agent.MCP().Register(ctx, "search", cfg)))
	fmt.Println(agent.MCP().Unregister(ctx, "search"))
	fmt.Println(len(agent.MCP().List()))
	// Output:
	// <nil>
	// [mcp__search__search]
	// conflict
	// <nil>
	// 0
}

// A configuration file's mcpServers object is decoded strictly: the error
// names the source, the field and the rule.
func ExampleDecodeServers() {
	servers, err := reference.DecodeServers([]byte(`{"docs": {"type": "http", "url": "https://docs.example/mcp"}}`), "mcps.json")
	fmt.Println(servers[0].Name, servers[0].Config.Type, servers[0].Config.URL, err)
	_, err = reference.DecodeServers([]byte(`{"docs": {"type": "http", "url": 7}}`), "mcps.json")
	fmt.Println(reference.RuleOf(err), reference.KindOf(err))
	// Output:
	// docs http https://docs.example/mcp <nil>
	// LA-CFG-10 config
}

// A ManualClock lets a host's own tests reach a timeout without waiting
// for it.
func ExampleManualClock() {
	var clock reference.ManualClock
	ctx, cancel := clock.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	fmt.Println(clock.Pending(), clock.Advance(29*time.Second), ctx.Err())
	fmt.Println(clock.Advance(time.Second), context.Cause(ctx), clock.Pending())
	// Output:
	// 1 0 <nil>
	// 1 context deadline exceeded 0
}

// Run is Send with the run's events: here the progress a tool reports.
func ExampleAgent_Run() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "build", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "compile"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		if tok := req.Params.GetProgressToken(); tok != nil {
			total := 2.0
			for i := range 2 {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i + 1), Total: total, Message: "step"})
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	build := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	defer build.Close()

	// The model calls compile once, then answers.
	compile := reference.ModelResponse{ToolCalls: []reference.ToolCall{{ID: "c1", Name: "mcp__build__compile", Arguments: []byte(`{}`)}}}
	model := func(ctx context.Context, req reference.ModelRequest) (reference.ModelResponse, error) {
		if req.Messages[len(req.Messages)-1].Role == "tool" {
			return reference.ModelResponse{Text: "built"}, nil
		}
		return compile, nil
	}
	opts := reference.Options{Workdir: "/nonexistent", Environ: []string{}, Model: reference.ModelFunc(model)}
	opts.MCPServers = []reference.NamedServer{{Name: "build", Config: reference.ServerConfig{Type: reference.TransportHTTP, URL: build.URL}}}
	opts.Permission = &reference.Policy{Allow: []string{reference.ConnectCapability, "mcp__build__*"}}
	agent, err := reference.New(opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer agent.Close()
	resp, err := agent.Run(context.Background(), "build it", func(ev reference.Event) {
		if ev.Type != "tool_progress" {
			fmt.Println(ev.Type, ev.Name, ev.Error)
			return
		}
		fmt.Println(ev.Type, ev.ID, ev.Name, ev.Progress, *ev.Total, ev.Message)
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Text)
	// Output:
	// tool_progress c1 mcp__build__compile 1 2 step
	// tool_progress c1 mcp__build__compile 2 2 step
	// built
}

// A sub-agent shares its root's connections and offers only the tools its
// own allowlist keeps.
func ExampleAgent_SubAgent() {
	docs := newDocsServer()
	defer docs.Close()
	var offered [][]string
	agent, err := reference.New(reference.Options{
		Workdir: "/nonexistent",
		Environ: []string{},
		MCPServers: []reference.NamedServer{
			{Name: "docs", Config: reference.ServerConfig{Type: reference.TransportHTTP, URL: docs.URL}},
		},
		Permission: &reference.Policy{Allow: []string{reference.ConnectCapability}},
		Model: reference.ModelFunc(func(ctx context.Context, req reference.ModelRequest) (reference.ModelResponse, error) {
			var names []string
			for _, t := range req.Tools {
				names = append(names, t.Name)
			}
			offered = append(offered, names)
			return reference.ModelResponse{Text: "ok"}, nil
		}),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer agent.Close()
	ctx := context.Background()
	if _, err := agent.Send(ctx, "hello"); err != nil {
		fmt.Println(err)
		return
	}
	sub, err := agent.SubAgent(reference.SubAgentOptions{AllowedTools: []string{reference.ContextTool}})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := sub.Send(ctx, "hello"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("root:", offered[0])
	fmt.Println("sub: ", offered[1])
	err = sub.MCP().Unregister(ctx, "docs")
	fmt.Println(reference.KindOf(err), reference.RuleOf(err))
	sub.Close()
	fmt.Println(agent.MCP().List()[0].Status)
	// Output:
	// root: [mcp__docs__search context]
	// sub:  [context]
	// unsupported LA-REG-14
	// connected
}

// Project shows what the model would receive for a tool result.
func ExampleAgent_Project() {
	agent, err := reference.New(reference.Options{Workdir: "/nonexistent", Environ: []string{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer agent.Close()
	p, err := agent.Project([]byte(`{"content":[{"type":"text","text":"42"}],"structuredContent":{"answer":42}}`))
	fmt.Println(p.Text, p.Archived, err)
	// Output:
	// {"content":[{"type":"text","text":"42"}],"structuredContent":{"answer":42}} false <nil>
}
