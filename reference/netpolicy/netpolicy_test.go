package netpolicy

import (
	"errors"
	"strings"
	"testing"
)

func ruleOf(err error) string {
	var v *Violation
	if errors.As(err, &v) {
		return v.Rule
	}
	return ""
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		url  string
		rule string
	}{
		{"https://mcp.test/mcp", ""},
		{"http://localhost:8080/mcp", ""},
		{"http://LOCALHOST:8080/mcp", ""},
		{"http://127.0.0.1:8080/mcp", ""},
		{"http://[::1]:8080/mcp", ""},
		{"http://mcp.test/mcp", "LA-NET-03"},
		{"http://localhost.evil.test/mcp", "LA-NET-03"},
		{"http://127.0.0.1.nip.io/mcp", "LA-NET-03"},
		{"http://10.0.0.1/mcp", "LA-NET-03"},
		{"http://0.0.0.0/mcp", "LA-NET-03"},
		{"http://127.0.0.2/mcp", "LA-NET-03"},
		{"http://[::ffff:127.0.0.1]/mcp", "LA-NET-03"},
		{"http://localhost./mcp", "LA-NET-03"},
		{"https://u:p@mcp.test/mcp", "LA-NET-04"},
		{"https://u@mcp.test/mcp", "LA-NET-04"},
		{"https://mcp.test/mcp#x", "LA-NET-05"},
		{"https://mcp.test/mcp#", "LA-NET-05"},
		{"ws://mcp.test/mcp", "LA-NET-01"},
		{"file:///etc/passwd", "LA-NET-01"},
		{"ftp://mcp.test/", "LA-NET-01"},
		{"https:opaque", "LA-NET-01"},
		{"", "LA-NET-01"},
		{"://bad", "LA-NET-01"},
	}
	for _, tt := range tests {
		_, err := CheckURL(tt.url)
		if got := ruleOf(err); got != tt.rule {
			t.Errorf("CheckURL(%q) = %v, want rule %q", tt.url, err, tt.rule)
		}
	}
}

func TestCheckURLNeverQuotesPasswords(t *testing.T) {
	_, err := CheckURL("https://user:hunter2@mcp.test/mcp")
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("the error repeats the password: %v", err)
	}
}

func TestCheckHeaders(t *testing.T) {
	tests := []struct {
		name, value string
		rule        string // "" when allowed
	}{
		{"Authorization", "Bearer t", ""},
		{"X-Extra", "1", ""},
		{"X-Az09!#$%&'*+-.^_`|~", "every token character", ""},
		{"Mcp-Session-Id", "s", "LA-NET-06"},
		{"mcp-session-id", "s", "LA-NET-06"},
		{"MCP-SESSION-ID", "s", "LA-NET-06"},
		{"MCP-Protocol-Version", "2026-07-28", "LA-NET-06"},
		{"mCP-pROTOCOL-vERSION", "2026-07-28", "LA-NET-06"},
		{"Content-Type", "text/plain", "LA-NET-06"},
		{"Host", "evil.test", "LA-NET-06"},
		{"Bad Name", "v", "LA-TRN-06"},
		{"X:Y", "v", "LA-TRN-06"},
		{"", "v", "LA-TRN-06"},
		{"X-Injected", "a\r\nHost: evil", "LA-TRN-06"},
		{"X-Padded", " v", "LA-TRN-06"},
		{"X-Tab", "a\tb", ""},
	}
	for _, tt := range tests {
		err := CheckHeaders(map[string]string{tt.name: tt.value})
		if got := ruleOf(err); got != tt.rule {
			t.Errorf("CheckHeaders(%q: %q) = %v, want rule %q", tt.name, tt.value, err, tt.rule)
		}
	}
}
