package reference_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"testing"

	"github.com/mcpconform/mcpconform/internal/pollpipe"

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
// Stdin is read through the runtime's poller, as the stdio fakes read it:
// go-sdk's StdioTransport reads the blocking stdin in read(2), and once
// in some 10^5 to 10^6 calls, under go1.26.8, the server then stalled with its
// answer's goroutines runnable and no thread running them until more
// bytes arrived (the call's deadline, 30 s later, sent a cancellation):
// what a benchmark of the client must not measure.
func runBenchServer() int {
	stdin := pollpipe.Pollable(os.Stdin)
	defer runtime.KeepAlive(stdin)
	transport := &mcp.IOTransport{Reader: stdin, Writer: stdoutCloser{os.Stdout}}
	if err := newEchoServer().Run(context.Background(), transport); err != nil {
		fmt.Fprintln(os.Stderr, "bench server:", err)
		return 1
	}
	return 0
}

// stdoutCloser is stdout for go-sdk, which closes its writer when the
// session ends: the process's exit closes it.
type stdoutCloser struct{ *os.File }

func (stdoutCloser) Close() error { return nil }

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
