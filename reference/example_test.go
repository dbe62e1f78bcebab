package reference_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

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
