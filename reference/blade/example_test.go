package blade_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpconform/mcpconform/reference"
	"github.com/mcpconform/mcpconform/reference/blade"
)

// newServer returns an MCP server with one tool per name, each answering
// "<tool>: <q>".
func newServer(name string, tools ...string) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1.0.0"}, nil)
	for _, tool := range tools {
		mcp.AddTool(srv, &mcp.Tool{Name: tool, Description: "The " + tool + " tool"},
			func(ctx context.Context, req *mcp.CallToolRequest, in struct {
				Q string `json:"q"`
			}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: tool + ": " + in.Q}}}, nil, nil
			})
	}
	return srv
}

// serveHTTP serves srv over Streamable HTTP on loopback.
func serveHTTP(srv *mcp.Server) *httptest.Server {
	return httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
}

// serveSSE serves srv over the legacy HTTP+SSE transport on loopback.
func serveSSE(srv *mcp.Server) *httptest.Server {
	return httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil))
}

// noteTaker is a model that calls mcp__notes__add once, printing the
// tools it is offered and the result it gets.
func noteTaker(ctx context.Context, req reference.ModelRequest) (reference.ModelResponse, error) {
	if last := req.Messages[len(req.Messages)-1]; last.Role == "tool" {
		fmt.Println("tool result:", last.Text)
		return reference.ModelResponse{Text: "noted"}, nil
	}
	names := make([]string, 0, len(req.Tools))
	for _, t := range req.Tools {
		names = append(names, t.Name)
	}
	fmt.Println("offered:", strings.Join(names, " "))
	call := reference.ToolCall{ID: "1", Name: "mcp__notes__add", Arguments: []byte(`{"q":"buy milk"}`)}
	return reference.ModelResponse{ToolCalls: []reference.ToolCall{call}}, nil
}

// httpSession is a session with one server, name, over Streamable HTTP at
// url, and the default permission policy.
func httpSession(ctx context.Context, name, url string) (*blade.Session, error) {
	return blade.NewSession(ctx, blade.Options{
		MCPServers: []blade.NamedServer{
			{Name: name, Config: blade.ServerConfig{ServerConfig: reference.ServerConfig{Type: blade.TransportHTTP, URL: url}}},
		},
		Environ: []string{},
	})
}

// A session with two servers from a JSON mcpServers option: docs over
// Streamable HTTP, connected when the session is created, and notes over
// SSE, disabled until the application connects it. The model is offered
// the built-in tools (context) first, then the MCP tools in name order.
func Example() {
	docs := serveHTTP(newServer("docs", "search", "fetch"))
	defer docs.Close()
	notes := serveSSE(newServer("notes", "add"))
	defer notes.Close()

	servers, err := blade.DecodeServers(fmt.Appendf(nil, `{
		"docs":  {"type": "http", "url": %q},
		"notes": {"type": "sse", "url": %q, "disabled": true}
	}`, docs.URL, notes.URL))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	s, err := blade.NewSession(ctx, blade.Options{
		MCPServers: servers,
		Environ:    []string{},
		// Run every MCP tool without asking.
		Permission: &reference.Policy{Allow: []string{"mcp__*"}},
		Model:      reference.ModelFunc(noteTaker),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	for _, st := range s.MCPServerStatus() {
		fmt.Println("status:", st.Name, st.Status, st.ToolCount)
	}
	if err := s.MCPConnect(ctx, "notes"); err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range s.MCPListTools() {
		fmt.Println("tool:", t.Name, "of", t.ServerName)
	}
	resp, err := s.Send(ctx, "remember to buy milk")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("answer:", resp.Text)
	// Output:
	// status: docs connected 2
	// status: notes disconnected 0
	// tool: mcp__docs__fetch of docs
	// tool: mcp__docs__search of docs
	// tool: mcp__notes__add of notes
	// offered: context mcp__docs__fetch mcp__docs__search mcp__notes__add
	// tool result: {"content":[{"type":"text","text":"add: buy milk"}]}
	// answer: noted
}

// Disconnecting keeps the server configured and withdraws its tools;
// reconnecting makes a new connection.
func ExampleSession_MCPDisconnect() {
	docs := serveHTTP(newServer("docs", "search"))
	defer docs.Close()
	ctx := context.Background()
	s, err := httpSession(ctx, "docs", docs.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	fmt.Println(s.MCPDisconnect(ctx, "docs"))
	fmt.Println(s.MCPServerStatus()[0].Status, len(s.MCPListTools()))
	fmt.Println(s.MCPReconnect(ctx, "docs"))
	fmt.Println(s.MCPServerStatus()[0].Status, len(s.MCPListTools()))
	err = s.MCPConnect(ctx, "nope")
	fmt.Println(reference.KindOf(err), err)
	// Output:
	// <nil>
	// disconnected 0
	// <nil>
	// connected 1
	// not_found BL-RT-06: mcpConnect: no server is configured as "nope"
}

// A server that does not speak MCP does not fail the session: it reports
// status error and says why, citing the Blade rule.
func ExampleSession_MCPServerStatus() {
	gone := httptest.NewServer(http.NotFoundHandler())
	defer gone.Close()
	s, err := httpSession(context.Background(), "gone", gone.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	st := s.MCPServerStatus()[0]
	fmt.Println(st.Name, st.Status, strings.HasPrefix(st.Error, "BL-TRN-05"))
	// Output:
	// gone error true
}

// The decoder is strict: an unknown field is refused, naming it.
func ExampleDecodeServers() {
	_, err := blade.DecodeServers([]byte(`{"docs": {"type": "http", "url": "http://127.0.0.1:1", "alwaysAlow": []}}`))
	fmt.Println(err)
	// Output:
	// BL-CFG-02: mcpServers option: mcpServers.docs.alwaysAlow: unknown field "alwaysAlow"; an McpServerConfig has command, args, env, disabled, alwaysAllow, type, url, headers, oauth and healthCheck
}
