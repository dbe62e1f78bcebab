package adapter

import "testing"

func TestToolNaming(t *testing.T) {
	servers := []string{"docs", "p", "docs_x"}
	for _, tc := range []struct {
		template, exposed, canonical string
	}{
		{"", "mcp__docs__search", "mcp__docs__search"},
		{"mcp_{server}__{tool}", "mcp_docs__search", "mcp__docs__search"},
		{"mcp_{server}__{tool}", "mcp_docs_x__a_b", "mcp__docs_x__a_b"},
		{"{server}_{tool}", "docs_x_search", "mcp__docs_x__search"}, // the longest alias wins
		{"{server}_{tool}", "p_a", "mcp__p__a"},
		{"{server}_{tool}", "lookup", "lookup"},         // a host tool passes as it is
		{"{server}_{tool}", "other_tool", "other_tool"}, // no such server
	} {
		n, err := ParseToolNaming(tc.template)
		if err != nil {
			t.Fatalf("%q: %v", tc.template, err)
		}
		if got := n.Canonical(tc.exposed, servers); got != tc.canonical {
			t.Errorf("%q: Canonical(%q)\nExpected: %q\nActual:   %q", tc.template, tc.exposed, tc.canonical, got)
		}
		if got := n.Exposed(tc.canonical, servers); got != tc.exposed {
			t.Errorf("%q: Exposed(%q)\nExpected: %q\nActual:   %q", tc.template, tc.canonical, tc.exposed, got)
		}
	}
}

func TestToolNamingRefusesBadTemplates(t *testing.T) {
	for _, bad := range []string{"{tool}", "{server}", "{tool}_{server}", "{server}{tool}", "mcp_{server}__{tool}_{x}"} {
		if _, err := ParseToolNaming(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}
