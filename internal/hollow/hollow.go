// Package hollow is an adapter that implements nothing: it speaks the
// adapter protocol (spec/adapter-protocol.md) on stdin and stdout, claims
// every system, capability and operation (or, as [NoSystem], none), and
// answers every request with an empty result, never calling back into the
// host. A suite whose green such an adapter can buy is no conformance
// suite: the runner's own tests require it to pass no scenario at all.
package hollow

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// Claims says what the adapter declares in its handshake.
type Claims int

const (
	// Everything claims every system, capability and operation.
	Everything Claims = iota
	// NoSystem claims every capability and operation but no system.
	NoSystem
	// LiteAgentOnly claims everything of lite-agent and not Blade.
	LiteAgentOnly
)

// ClaimsNamed returns the claims a command-line word names: "everything",
// "no-system" or "lite-agent-only".
func ClaimsNamed(name string) (Claims, bool) {
	c, ok := map[string]Claims{"everything": Everything, "no-system": NoSystem, "lite-agent-only": LiteAgentOnly}[name]
	return c, ok
}

// Serve answers requests read from in on out until in ends.
func Serve(in io.Reader, out io.Writer, claims Claims) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || len(msg.ID) == 0 || msg.Method == "" {
			continue // notifications and answers need no answer
		}
		var result any = struct{}{}
		if msg.Method == "initialize" {
			systems := []adapter.System{adapter.LiteAgent, adapter.Blade}
			switch claims {
			case NoSystem:
				systems = []adapter.System{}
			case LiteAgentOnly:
				systems = []adapter.System{adapter.LiteAgent}
			}
			result = map[string]any{
				"protocolVersion": "1",
				"adapter":         map[string]string{"name": "hollow", "version": "0"},
				"implementation":  map[string]string{"name": "nothing", "version": "0"},
				"systems":         systems,
				"capabilities":    adapter.Capabilities,
				"operations":      adapter.Operations,
				"concurrency":     "sequential",
			}
		}
		if err := enc.Encode(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result}); err != nil {
			return err
		}
	}
	return sc.Err()
}
