package core

import (
	"strings"
	"testing"
)

func TestDecodeBladeServers(t *testing.T) {
	for _, tc := range []struct {
		name string
		json string
		rule string // "" for accepted
		want string // in the error: the field
	}{
		{"every field", `{"p": {"type": "stdio", "command": "x", "args": ["a"], "env": {"K": "V"}, "disabled": true, "alwaysAllow": ["t"],
			"oauth": {"provider": "github", "clientId": "c", "enabled": false}, "healthCheck": {"enabled": true, "intervalMs": 30000}}}`, "", ""},
		{"sse", `{"r": {"type": "sse", "url": "https://mcp.example.com/sse", "headers": {"Authorization": "Bearer t"}}}`, "", ""},
		{"unknown field", `{"p": {"command": "x", "timeoutMs": 5}}`, "BL-CFG-02", "mcpServers.p.timeoutMs"},
		{"disabled not a boolean", `{"p": {"command": "x", "disabled": "yes"}}`, "BL-CFG-02", "mcpServers.p.disabled"},
		{"oauth without provider", `{"p": {"type": "http", "url": "https://x.test/mcp", "oauth": {"clientId": "c"}}}`, "BL-CFG-02", "mcpServers.p.oauth.provider"},
		{"oauth unknown field", `{"p": {"type": "http", "url": "https://x.test/mcp", "oauth": {"provider": "g", "scope": "s"}}}`, "BL-CFG-02", "mcpServers.p.oauth.scope"},
		{"intervalMs zero", `{"p": {"command": "x", "healthCheck": {"intervalMs": 0}}}`, "BL-CFG-02", "mcpServers.p.healthCheck.intervalMs"},
		{"not an object", `{"p": []}`, "LA-CFG-10", "mcpServers.p"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeBladeServers([]byte(tc.json))
			if tc.rule == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			if RuleOf(err) != tc.rule || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q (rule %s): want rule %s naming %s", err, RuleOf(err), tc.rule, tc.want)
			}
		})
	}
}

func TestValidateBlade(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  BladeServerConfig
		rule string
	}{
		{"stdio", BladeServerConfig{ServerConfig: ServerConfig{Command: "x"}}, ""},
		{"http", BladeServerConfig{ServerConfig: ServerConfig{Type: "http", URL: "https://x.test/mcp"}}, ""},
		{"sse on loopback", BladeServerConfig{ServerConfig: ServerConfig{Type: "sse", URL: "http://127.0.0.1:1/sse"}}, ""},
		{"ws", BladeServerConfig{ServerConfig: ServerConfig{Type: "ws", URL: "ws://x.test"}}, "BL-CFG-03"},
		{"url without type", BladeServerConfig{ServerConfig: ServerConfig{URL: "https://x.test/mcp"}}, "BL-CFG-03"},
		{"stdio without command", BladeServerConfig{ServerConfig: ServerConfig{Type: "stdio"}}, "BL-CFG-02"},
		{"http with command", BladeServerConfig{ServerConfig: ServerConfig{Type: "http", URL: "https://x.test/mcp", Command: "x"}}, "BL-CFG-02"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := decoder{source: "test"}
			err := d.validateBlade(&tc.cfg, "mcpServers.p")
			if RuleOf(err) != tc.rule {
				t.Errorf("got %v (rule %q), want rule %q", err, RuleOf(err), tc.rule)
			}
		})
	}
}

func TestBladeKey(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"my-srv", "my_srv", true},
		{"Srv", "srv", true},
		{"a.b", "a_b", true},
		{"get data", "get_data", true},
		{"get-data", "getdata", false},
		{"ſrv", "srv", false}, // only ASCII letters fold
	} {
		if got := bladeKey(tc.a) == bladeKey(tc.b); got != tc.same {
			t.Errorf("%q vs %q: same=%v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

// FuzzDecodeBladeServers checks that any input either decodes into
// servers whose names are the object's keys, or is refused with a config
// error that names the mcpServers field and a rule; it never panics.
func FuzzDecodeBladeServers(f *testing.F) {
	for _, s := range []string{
		`{"p": {"command": "x", "args": ["a"], "env": {"K": "V"}, "disabled": true}}`,
		`{"r": {"type": "sse", "url": "https://mcp.example.com/sse", "headers": {"A": "b"}}}`,
		`{"h": {"type": "http", "url": "http://127.0.0.1:1/mcp", "oauth": {"provider": "github", "enabled": false}, "healthCheck": {"intervalMs": 30000}}}`,
		`{"p": {"command": "x"}, "p": {"command": "y"}}`,
		`{"p": {"healthCheck": {"intervalMs": 1.5}}}`,
		`[]`,
		`{"p": {"command": "x"}} trailing`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		servers, err := DecodeBladeServers([]byte(raw))
		if err != nil {
			if KindOf(err) != KindConfig || RuleOf(err) == "" || !strings.Contains(err.Error(), "mcpServers") {
				t.Fatalf("refused %q with %v (kind %s, rule %q): want a config error naming mcpServers and a rule", raw, err, KindOf(err), RuleOf(err))
			}
			return
		}
		seen := map[string]bool{}
		for _, s := range servers {
			if seen[s.Name] {
				t.Fatalf("accepted %q with the key %q twice", raw, s.Name)
			}
			seen[s.Name] = true
		}
	})
}
