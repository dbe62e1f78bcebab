// Command genkit-adapter is the mcpconform adapter for Genkit for Go and its
// MCP plugin (github.com/firebase/genkit/go/plugins/mcp: MCPHost over
// mark3labs/mcp-go). It serves the adapter protocol on stdin and stdout
// with the harness's own Go side ([rpcadapter.Serve]); README.md says what
// it maps, what it declares absent, and why this SDK.
//
//	go build -o genkit-adapter . && mcpconform run --target cmd:./genkit-adapter
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
)

func main() {
	dir, _ := os.Getwd()
	err := rpcadapter.Serve(context.Background(), os.Stdin, os.Stdout, target{}, adapter.Env{Dir: dir, Environ: os.Environ()})
	if err != nil {
		fmt.Fprintln(os.Stderr, "genkit-adapter:", err)
		os.Exit(1)
	}
}

// genkitVersion is the version of the Genkit module this binary was built
// with, from its build information (go.sum pins it).
func genkitVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "github.com/firebase/genkit/go" {
				return m.Version
			}
		}
	}
	return "unknown"
}

// target is the Genkit implementation behind the protocol.
type target struct{}

// unimplemented is what Genkit does not offer, or the adapter does not
// map yet (README.md says which and why).
var unimplemented = []string{
	"LA-CFG", "LA-LIM-05", "LA-REG-01", "LA-REG-02", "LA-REG-03", "LA-REG-04", "LA-SEC-10", // no configuration files or sources
	"LA-SEC-01", "LA-SEC-02", "LA-SEC-03", "LA-SEC-04", "LA-SEC-05", "LA-SEC-06", "LA-SEC-07", "LA-SEC-08", "LA-SEC-09", "LA-SEC-11", "LA-SEC-13", "LA-SEC-21", // no approvals for MCP tools
	"LA-EVT-03", "LA-EVT-04", "LA-REG-16", // hooks (middleware): not mapped yet
	"LA-OAU", "LA-CC", "LA-TOOL", "LA-ARC",
}

func (target) Info(context.Context) (adapter.Info, error) {
	return adapter.Info{
		Name: "mcpconform-genkit", Version: "0.1.0",
		Implementation: adapter.Implementation{Name: "github.com/firebase/genkit/go", Version: genkitVersion()},
		Systems:        []adapter.System{adapter.LiteAgent},
		Capabilities:   []adapter.Capability{},
		Operations:     []adapter.Operation{adapter.OpCreate, adapter.OpSend, adapter.OpRegister, adapter.OpUnregister, adapter.OpClose},
		Unimplemented:  unimplemented,
		// The plugin names a server's tools "<server>_<tool>" (common.go).
		ToolNames: "{server}_{tool}",
	}, nil
}

func (t target) Open(ctx context.Context, env adapter.Env) (adapter.Adapter, error) {
	info, _ := t.Info(ctx)
	return &session{info: info}, nil
}

// session is one adapter: the agents of one scenario.
type session struct {
	info adapter.Info
}

func (s *session) Info() adapter.Info { return s.info }

func (s *session) NewAgent(ctx context.Context, opts adapter.AgentOptions, host adapter.Host) (adapter.Agent, error) {
	return newAgent(ctx, opts, host)
}

func (s *session) Close() error { return nil }
