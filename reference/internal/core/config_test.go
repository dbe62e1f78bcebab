package core

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// TestBadConfigurationIsExplained checks that each kind of bad
// configuration fails construction with an error naming the file, the
// field and the rule, and that nothing was started: the one valid stdio
// entry beside the bad one would leave a marker file if it ran.
func TestBadConfigurationIsExplained(t *testing.T) {
	tests := []struct {
		name     string
		file     func(marker string) string
		kind     Kind
		mentions []string // besides the file path
	}{
		{
			name:     "malformed JSON",
			file:     func(m string) string { return `{"mcpServers": {"ok": ` + touch(m) + `,}}` },
			kind:     KindConfig,
			mentions: []string{"LA-CFG-10", "invalid JSON at byte", "line 1"},
		},
		{
			name: "unknown field",
			file: func(m string) string {
				return `{"mcpServers": {"ok": ` + touch(m) + `, "x": {"command": "y", "cwd": "/"}}}`
			},
			kind:     KindConfig,
			mentions: []string{"LA-CFG-04", "mcpServers.x.cwd", `unknown field "cwd"`},
		},
		{
			name:     "alwaysAllow grants nothing",
			file:     func(m string) string { return `{"mcpServers": {"x": {"command": "y", "alwaysAllow": ["t"]}}}` },
			kind:     KindConfig,
			mentions: []string{"LA-SEC-10", "mcpServers.x.alwaysAllow"},
		},
		{
			name: "300 KiB file",
			file: func(m string) string {
				return `{"mcpServers": {"ok": ` + touch(m) + `}}` + strings.Repeat(" ", 300<<10)
			},
			kind:     KindLimit,
			mentions: []string{"LA-LIM-05", "262144"},
		},
		{
			name:     "bad alias",
			file:     func(m string) string { return `{"mcpServers": {"ok": ` + touch(m) + `, "a.b": {"command": "y"}}}` },
			kind:     KindName,
			mentions: []string{"LA-NAME-03", "mcpServers.a.b", `"a.b"`},
		},
		{
			name: "bad URL",
			file: func(m string) string {
				return `{"mcpServers": {"ok": ` + touch(m) + `, "web": {"type": "http", "url": "http://example.com/mcp"}}}`
			},
			kind:     KindSecurity,
			mentions: []string{"LA-NET-03", "mcpServers.web.url", "http://example.com/mcp"},
		},
		{
			name: "url without type",
			file: func(m string) string {
				return `{"mcpServers": {"ok": ` + touch(m) + `, "web": {"url": "https://example.com/mcp"}}}`
			},
			kind:     KindConfig,
			mentions: []string{"LA-CFG-07", "mcpServers.web.type"},
		},
		{
			name: "timeoutMs as a string",
			file: func(m string) string {
				return `{"mcpServers": {"ok": ` + touch(m) + `, "t": {"command": "y", "timeoutMs": "1000"}}}`
			},
			kind:     KindConfig,
			mentions: []string{"LA-TMO-03", "mcpServers.t.timeoutMs"},
		},
		{
			name: "same name, different entries",
			file: func(m string) string {
				return `{"mcpServers": {"ok": ` + touch(m) + `}}`
			},
			kind:     KindConflict,
			mentions: []string{"LA-REG-04", `"ok"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			marker := filepath.Join(dir, "spawned")
			path := ProjectConfigPath(dir)
			writeFile(t, path, tt.file(marker))
			opts := Options{Workdir: dir, Environ: []string{"PATH=/usr/bin:/bin", "HOME=" + dir}}
			if tt.kind == KindConflict {
				opts.MCPServers = []NamedServer{{Name: "ok", Config: ServerConfig{Command: "/bin/true"}}}
			}
			a, err := New(opts, LiteAgent())
			if err == nil {
				a.Close()
				t.Fatal("New accepted the configuration")
			}
			if KindOf(err) != tt.kind {
				t.Errorf("kind %s, want %s: %v", KindOf(err), tt.kind, err)
			}
			for _, want := range append(tt.mentions, path) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not mention %q: %v", want, err)
				}
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("a server was started")
			}
		})
	}
}

// touch is a stdio entry that would create marker if it were started.
func touch(marker string) string {
	return `{"command": "/bin/sh", "args": ["-c", "touch ` + marker + `"]}`
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDecodeServerConfig(t *testing.T) {
	tests := []struct {
		json string
		want ServerConfig
		rule string
	}{
		{`{"command": "node", "args": ["s.mjs"], "env": {"LOG_LEVEL": "warn"}}`, ServerConfig{Command: "node", Args: []string{"s.mjs"}, Env: map[string]string{"LOG_LEVEL": "warn"}}, ""},
		{`{"type": "http", "url": "https://x.test/mcp", "timeoutMs": 300000}`, ServerConfig{Type: "http", URL: "https://x.test/mcp", Timeout: 300 * time.Second}, ""},
		{`{"command": "n", "timeoutMs": 1}`, ServerConfig{Command: "n", Timeout: time.Millisecond}, ""},
		{`{"command": "n", "timeoutMs": 0}`, ServerConfig{}, "LA-TMO-03"},
		{`{"command": "n", "timeoutMs": 300001}`, ServerConfig{}, "LA-TMO-03"},
		{`{"command": "n", "timeoutMs": 1.5}`, ServerConfig{}, "LA-TMO-03"},
		{`{"command": "n", "args": "x"}`, ServerConfig{}, "LA-CFG-10"},
		{`{"command": "n", "env": {"A": 1}}`, ServerConfig{}, "LA-CFG-10"},
		{`{"command": "n", "command": "m"}`, ServerConfig{}, "LA-CFG-10"},
		{`{"type": "http", "url": "x", "oauth": {}}`, ServerConfig{}, "LA-OAU-02"},
		{`[]`, ServerConfig{}, "LA-CFG-10"},
	}
	for _, tt := range tests {
		got, err := DecodeServerConfig([]byte(tt.json), fault.Set{})
		if RuleOf(err) != tt.rule {
			t.Errorf("%s: %v, want rule %q", tt.json, err, tt.rule)
			continue
		}
		if err == nil && !got.literalEqual(tt.want) {
			t.Errorf("%s: got %+v, want %+v", tt.json, got, tt.want)
		}
	}
}

func TestEquivalentEntries(t *testing.T) {
	a := ServerConfig{Command: "node", Args: []string{"x"}}
	b := ServerConfig{Type: "stdio", Command: "node", Args: []string{"x"}, Timeout: DefaultTimeout, Env: map[string]string{}}
	if !a.equivalent(b) {
		t.Error("an omitted type, an empty env and the default timeout must normalize away")
	}
	if a.equivalent(ServerConfig{Command: "node", Args: []string{"y"}}) {
		t.Error("different arguments are different entries")
	}
}
