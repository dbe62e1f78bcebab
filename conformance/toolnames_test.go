package conformance

import (
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// TestNamingFailure: a declared scheme other than the catalog's fails the
// scenarios of the scheme itself, and only those.
func TestNamingFailure(t *testing.T) {
	for _, tc := range []struct {
		names string
		rules []string
		fails bool
	}{
		{"", []string{"LA-NAME-01"}, false},
		{adapter.CanonicalToolNames, []string{"LA-NAME-01"}, false},
		{"mcp_{server}__{tool}", []string{"LA-NAME-01"}, true},
		{"{server}_{tool}", []string{"LA-SEC-16", "BL-NAME-01"}, true},
		{"{server}_{tool}", []string{"LA-SEC-16"}, false},
	} {
		got := namingFailure(adapter.Info{ToolNames: tc.names}, Scenario{Rules: tc.rules})
		if (got != "") != tc.fails || (tc.fails && !strings.Contains(got, tc.names)) {
			t.Errorf("toolNames %q, rules %v\nExpected: fails=%v, naming the declaration\nActual:   %q", tc.names, tc.rules, tc.fails, got)
		}
	}
}

// TestPortableScenarios: a scenario is portable only when every rule it
// checks is.
func TestPortableScenarios(t *testing.T) {
	for _, tc := range []struct {
		rules []string
		want  bool
	}{
		{[]string{"LA-SEC-16"}, true},
		{[]string{"LA-SEC-16", "LA-NAME-02"}, false},
		{[]string{"LA-NAME-02"}, false},
		{nil, false},
	} {
		if got := portable(Scenario{Rules: tc.rules}); got != tc.want {
			t.Errorf("rules %v\nExpected: portable=%v\nActual:   %v", tc.rules, tc.want, got)
		}
	}
}
