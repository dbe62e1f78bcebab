package reference_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchServerCommand is the hidden subcommand that turns the test binary
// into the benchmarks' stdio MCP server: the binary re-executes itself with
// it as its only argument, so the server needs no separate build.
// benchHTTPServerCommand makes it serve the same server over stateless
// Streamable HTTP on 127.0.0.1 instead, printing its URL on a line of
// stdout and serving until stdin closes.
const (
	benchServerCommand     = "__mcpconform-bench-server"
	benchHTTPServerCommand = "__mcpconform-bench-http-server"
)

// TestMain runs the tests, unless the binary was started as a bench
// server.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 {
		switch os.Args[1] {
		case benchServerCommand:
			os.Exit(runBenchServer())
		case benchHTTPServerCommand:
			os.Exit(runBenchHTTPServer())
		}
	}
	os.Exit(m.Run())
}

// runBenchServer serves the echo server on stdin/stdout until stdin closes.
func runBenchServer() int {
	if err := newEchoServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "bench server:", err)
		return 1
	}
	return 0
}

// runBenchHTTPServer serves the echo server over stateless Streamable HTTP
// on 127.0.0.1 until stdin closes.
func runBenchHTTPServer() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench server:", err)
		return 1
	}
	srv := newEchoServer()
	hs := &http.Server{Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true})}
	go hs.Serve(ln)
	fmt.Printf("http://%s\n", ln.Addr())
	io.Copy(io.Discard, os.Stdin) // until the parent closes stdin or exits
	hs.Close()
	return 0
}

// echoInput is the input of the echo tool.
type echoInput struct {
	Text string `json:"text"`
}

// newEchoServer returns an MCP server with one tool, echo, which returns
// its input text.
func newEchoServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Returns its input text"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoInput) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "progress_echo", Description: "Reports progress 1 and 2 of 2, then returns its input text"},
		func(ctx context.Context, req *mcp.CallToolRequest, in echoInput) (*mcp.CallToolResult, any, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				for i := 1; i <= 2; i++ {
					if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 2}); err != nil {
						return nil, nil, err
					}
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	return srv
}
