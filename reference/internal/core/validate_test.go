package core

import (
	"testing"
	"time"
)

// TestEntriesInCodeAreJudged: entries given in code (the mcpServers
// option) meet the rules a configuration file's do, and New refuses a bad
// one with its field and rule, starting nothing.
func TestEntriesInCodeAreJudged(t *testing.T) {
	tests := []struct {
		name  string
		entry ServerConfig
		opts  func(*Options)
		kind  Kind
		rule  string
		says  string
	}{
		{name: "url without type", entry: ServerConfig{URL: "https://x.test/mcp"}, kind: KindConfig, rule: "LA-CFG-07", says: "mcpServers.s.type"},
		{name: "the legacy sse type", entry: ServerConfig{Type: "sse", URL: "https://x.test/mcp"}, kind: KindConfig, rule: "LA-TRN-04", says: `type "sse"`},
		{name: "an unknown type", entry: ServerConfig{Type: "ws", URL: "wss://x.test"}, kind: KindConfig, rule: "LA-CFG-04", says: `unknown type "ws"`},
		{name: "stdio without command", entry: ServerConfig{Type: TransportStdio}, kind: KindConfig, rule: "LA-CFG-10", says: "mcpServers.s.command"},
		{name: "stdio with a url", entry: ServerConfig{Command: "n", URL: "https://x.test"}, kind: KindConfig, rule: "LA-CFG-04", says: `"url" and "headers" belong to http entries`},
		{name: "an env name with '='", entry: ServerConfig{Command: "n", Env: map[string]string{"A=B": "c"}}, kind: KindConfig, rule: "LA-CFG-10", says: `environment variable name "A=B"`},
		{name: "http with a command", entry: ServerConfig{Type: TransportHTTP, URL: "https://x.test", Command: "n"}, kind: KindConfig, rule: "LA-CFG-04", says: `"command", "args" and "env" belong to stdio entries`},
		{name: "plain http to a public host", entry: ServerConfig{Type: TransportHTTP, URL: "http://example.com/mcp"}, kind: KindSecurity, rule: "LA-NET-03", says: "mcpServers.s.url"},
		{name: "credentials in the url", entry: ServerConfig{Type: TransportHTTP, URL: "https://u:p@x.test/mcp"}, kind: KindSecurity, rule: "LA-NET-04", says: "mcpServers.s.url"},
		{name: "a reserved header", entry: ServerConfig{Type: TransportHTTP, URL: "https://x.test", Headers: map[string]string{"Host": "y"}}, kind: KindSecurity, rule: "LA-NET-06", says: "mcpServers.s.headers"},
		{name: "a timeout of 1.5 ms", entry: ServerConfig{Command: "n", Timeout: 1500 * time.Microsecond}, kind: KindConfig, rule: "LA-TMO-03", says: "mcpServers.s.timeoutMs"},
		{name: "a timeout over 300 s", entry: ServerConfig{Command: "n", Timeout: 301 * time.Second}, kind: KindConfig, rule: "LA-TMO-03", says: "mcpServers.s.timeoutMs"},
		{name: "a transport mcpTransports leaves out", entry: ServerConfig{Command: "n"}, opts: func(o *Options) { o.MCPTransports = []string{TransportHTTP} },
			kind: KindConfig, rule: "LA-SEC-21", says: `transport "stdio" is not allowed here`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{Workdir: t.TempDir(), Environ: []string{}, MCPServers: []NamedServer{{Name: "s", Config: tt.entry}}}
			if tt.opts != nil {
				tt.opts(&opts)
			}
			h, err := New(opts, LiteAgent())
			if h != nil {
				h.Close()
				t.Fatalf("Expected: New refuses the entry with %s\n  Actual: a host", tt.rule)
			}
			wantErr(t, "New", err, tt.kind, tt.rule)
			contains(t, "the error", err.Error(), tt.says)
		})
	}
}
