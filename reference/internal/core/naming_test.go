package core

import (
	"strings"
	"testing"
)

func TestValidateAlias(t *testing.T) {
	tests := []struct {
		alias string
		rule  string // "" when valid
	}{
		{"a", ""},
		{strings.Repeat("a", 24), ""},
		{"Docs-1_x", ""},
		{"-a", ""},
		{"a_b_c", ""},
		{"", "LA-NAME-02"},
		{strings.Repeat("a", 25), "LA-NAME-02"},
		{"a.b", "LA-NAME-03"},
		{"a b", "LA-NAME-03"},
		{"a/b", "LA-NAME-03"},
		{"文档", "LA-NAME-03"},
		{"é", "LA-NAME-03"},
		{"a__b", "LA-NAME-04"},
		{"___", "LA-NAME-04"},
	}
	for _, tt := range tests {
		err := ValidateAlias(tt.alias)
		if got := RuleOf(err); got != tt.rule {
			t.Errorf("ValidateAlias(%q) = %v, want rule %q", tt.alias, err, tt.rule)
		}
		if err != nil && KindOf(err) != KindName {
			t.Errorf("ValidateAlias(%q) kind %s, want name", tt.alias, KindOf(err))
		}
	}
}

func TestValidateToolName(t *testing.T) {
	tests := []struct {
		alias, tool string
		rule        string
	}{
		{"docs", strings.Repeat("t", 53), ""},
		{"docs", strings.Repeat("t", 54), "LA-NAME-05"},
		{strings.Repeat("a", 24), strings.Repeat("t", 33), ""},
		{strings.Repeat("a", 24), strings.Repeat("t", 34), "LA-NAME-05"},
		{"x", "get.weather", "LA-NAME-06"},
		{"x", "工具", "LA-NAME-06"},
		{"x", "", "LA-NAME-06"},
		{"x", "get-weather_2", ""},
	}
	for _, tt := range tests {
		err := ValidateToolName(ToolName(tt.alias, tt.tool), tt.tool)
		if got := RuleOf(err); got != tt.rule {
			t.Errorf("tool %q of %q: %v, want rule %q", tt.tool, tt.alias, err, tt.rule)
		}
	}
}

func TestPolicyDecide(t *testing.T) {
	p := &Policy{Ask: []string{"mcp__docs__search"}, Allow: []string{"mcp__docs__*", "mcp_connect"}, Deny: []string{"mcp__evil__*"}}
	tests := []struct {
		name string
		want verdict
	}{
		{"mcp__docs__search", verdictAsk}, // ask beats allow
		{"mcp__docs__fetch", verdictAllow},
		{"mcp__evil__x", verdictDeny},
		{"mcp_connect", verdictAllow},
		{"mcp__other__x", verdictAsk}, // unmatched MCP names are asked
	}
	for _, tt := range tests {
		if got := p.decide(tt.name); got != tt.want {
			t.Errorf("decide(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
	if (*Policy)(nil).decide("mcp_connect") != verdictAsk {
		t.Error("the default policy must ask before connecting")
	}
}

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"mcp__*", "mcp__a__b", true},
		{"mcp__*", "mcp_connect", false},
		{"mcp__*__search", "mcp__docs__search", true},
		{"mcp__*__search", "mcp__docs__fetch", false},
		{"a*a", "a", false},
		{"*", "", true},
		{"exact", "exact", true},
	}
	for _, tt := range tests {
		if got := matchGlob(tt.pattern, tt.name); got != tt.want {
			t.Errorf("matchGlob(%q, %q) = %v", tt.pattern, tt.name, got)
		}
	}
}

// TestTooLongNameIsExplained: the error of a full name over 64 characters
// names the alias, the tool, the length and the longest alias that fits.
func TestTooLongNameIsExplained(t *testing.T) {
	tests := []struct {
		alias, tool string
		says        []string
	}{
		{strings.Repeat("a", 17), strings.Repeat("t", 41), []string{`alias "aaaaaaaaaaaaaaaaa" has 17 characters`, "at most 16", "65 characters", `tool "` + strings.Repeat("t", 41) + `"`}},
		{"x", strings.Repeat("t", 57), []string{"no alias makes it fit", "57 characters"}},
	}
	for _, tt := range tests {
		err := ValidateToolName(ToolName(tt.alias, tt.tool), tt.tool)
		for _, s := range tt.says {
			if err == nil || !strings.Contains(err.Error(), s) {
				t.Errorf("%q + %q: %v, want it to say %q", tt.alias, tt.tool, err, s)
			}
		}
	}
}
