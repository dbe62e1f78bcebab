package mcpfake

import (
	"encoding/json"
	"fmt"
	"os"
)

// Script describes one fake MCP server.
type Script struct {
	// Name labels the server's records.
	Name string `json:"name"`
	// ProtocolVersions, when set, are the only protocol versions the
	// server speaks (e.g. ["2025-11-25"] for an old server).
	ProtocolVersions []string `json:"protocolVersions,omitempty"`
	// Instructions are the server's instructions to the client.
	Instructions string `json:"instructions,omitempty"`
	// Tools are offered by tools/list, verbatim and in order: duplicates,
	// invalid names and invalid schemas are served as they are.
	Tools []Tool `json:"tools,omitempty"`
	// PageSize is the number of tools per tools/list page; 0 serves all of
	// them on one page.
	PageSize int `json:"pageSize,omitempty"`
	// EndlessCursor keeps answering with a next cursor after the last page,
	// each further page offering one fresh tool, forever.
	EndlessCursor bool `json:"endlessCursor,omitempty"`
	// Calls scripts tools/call per tool name; a tool without an entry
	// answers with the text "ok".
	Calls map[string]Call `json:"calls,omitempty"`
	// Faults break the server when it receives a method.
	Faults []Fault `json:"faults,omitempty"`
}

// Tool is one tool the server offers. A nil InputSchema is served as
// {"type":"object"}.
type Tool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
}

// Call scripts the answer to tools/call of one tool.
type Call struct {
	// Text is the text content of the result.
	Text string `json:"text,omitempty"`
	// IsError marks the result as a tool error.
	IsError bool `json:"isError,omitempty"`
	// Structured is the result's structuredContent.
	Structured json.RawMessage `json:"structured,omitempty"`
	// DelayMs delays the answer; a cancelled call stops waiting.
	DelayMs int `json:"delayMs,omitempty"`
	// Hang never answers; the call ends only when it is cancelled or the
	// connection closes.
	Hang bool `json:"hang,omitempty"`
	// Exit ends the server process (stdio) or drops the connection (HTTP)
	// instead of answering.
	Exit bool `json:"exit,omitempty"`
}

// Fault breaks the server when it receives Method.
type Fault struct {
	Method string `json:"method"`
	// DelayMs delays handling.
	DelayMs int `json:"delayMs,omitempty"`
	// Hang never answers.
	Hang bool `json:"hang,omitempty"`
	// Exit ends the process (stdio) instead of answering.
	Exit bool `json:"exit,omitempty"`
	// Error answers with a JSON-RPC error with this message.
	Error string `json:"error,omitempty"`
}

// ReadScript reads a script from a JSON file.
func ReadScript(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Script
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	return &s, nil
}

// WriteFile writes the script as JSON to path.
func (s *Script) WriteFile(path string) error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// fault returns the fault scripted for method, if any.
func (s *Script) fault(method string) (Fault, bool) {
	for _, f := range s.Faults {
		if f.Method == method {
			return f, true
		}
	}
	return Fault{}, false
}
