package core

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary's server modes, for the tests of stdio processes.
const (
	// exitServerCommand makes the test binary a stdio server that exits
	// with status 3 before it reads anything.
	exitServerCommand = "__core-exit-server"
	// stdioServerCommand makes it an MCP server on stdin and stdout with
	// three tools: env, which answers with its environment, sorted, one
	// variable a line; pid, which answers with its process id; and exit,
	// which exits with status 4 instead of answering.
	stdioServerCommand = "__core-stdio-server"
)

// TestMain runs the tests, unless the binary was started as one of the
// test servers.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 {
		switch os.Args[1] {
		case exitServerCommand:
			os.Exit(3)
		case stdioServerCommand:
			serveStdio()
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

// serveStdio is the stdio server of [stdioServerCommand].
func serveStdio() {
	answer := func(text func() string) fakeTool {
		return fakeTool{answer: func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult(text()), nil
		}}
	}
	env, pid := answer(func() string { return strings.Join(slices.Sorted(slices.Values(os.Environ())), "\n") }),
		answer(func() string { return strconv.Itoa(os.Getpid()) })
	env.name, pid.name = "env", "pid"
	exit := answer(func() string { os.Exit(4); return "" })
	exit.name = "exit"
	newFake("proc", env, pid, exit).srv.Run(context.Background(), &mcp.StdioTransport{})
}
