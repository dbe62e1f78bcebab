package adapter

import (
	"fmt"
	"sort"
	"strings"
)

// CanonicalToolNames is the tool naming of the catalog's products:
// lite-agent and Blade expose an MCP tool as mcp__<server>__<tool>
// (LA-NAME-01, BL-NAME-01). It is what [Info.ToolNames] means when empty.
const CanonicalToolNames = "mcp__{server}__{tool}"

// ToolNaming is how an implementation names the MCP tools it offers its
// model, as a template of [Info.ToolNames]: "{server}" stands for the
// server alias and "{tool}" for the server's own tool name, in that order,
// each once ("mcp_{server}__{tool}", "{server}_{tool}"). A third-party SDK
// that names tools its own way declares its template, and the runner
// translates between it and the canonical names its scenarios speak
// ([ToolNaming.Canonical], [ToolNaming.Expose]), so that the rules that do
// not depend on the naming scheme can still be checked. The rules of the
// naming scheme itself fail for such an implementation, saying so.
type ToolNaming struct {
	before, between, after string
}

// ParseToolNaming checks a [Info.ToolNames] template; "" is
// [CanonicalToolNames].
func ParseToolNaming(template string) (ToolNaming, error) {
	if template == "" {
		template = CanonicalToolNames
	}
	before, rest, ok := strings.Cut(template, "{server}")
	between, after, ok2 := strings.Cut(rest, "{tool}")
	if !ok || !ok2 || strings.Contains(before, "{") || strings.Contains(between, "{") || strings.Contains(after, "{") || between == "" {
		return ToolNaming{}, fmt.Errorf("toolNames %q: a template holds {server}, then {tool}, once each, with a separator between them", template)
	}
	return ToolNaming{before: before, between: between, after: after}, nil
}

// String is the template.
func (n ToolNaming) String() string {
	return n.before + "{server}" + n.between + "{tool}" + n.after
}

// IsCanonical reports whether n is [CanonicalToolNames].
func (n ToolNaming) IsCanonical() bool { return n.String() == CanonicalToolNames }

// Expose is the name the implementation gives tool of server.
func (n ToolNaming) Expose(server, tool string) string {
	return n.before + server + n.between + tool + n.after
}

// Canonical translates an exposed name of a tool of one of servers into
// mcp__<server>__<tool>. A name that is no tool of these servers in n's
// scheme (a host tool, a name the implementation made up) is returned as
// it is. The longest matching alias wins.
func (n ToolNaming) Canonical(exposed string, servers []string) string {
	if n.IsCanonical() {
		return exposed
	}
	byLength := append([]string(nil), servers...)
	sort.Slice(byLength, func(i, j int) bool { return len(byLength[i]) > len(byLength[j]) })
	for _, s := range byLength {
		rest, ok := strings.CutPrefix(exposed, n.before+s+n.between)
		if !ok {
			continue
		}
		if tool, ok := strings.CutSuffix(rest, n.after); ok && tool != "" {
			return "mcp__" + s + "__" + tool
		}
	}
	return exposed
}

// Exposed translates a canonical name mcp__<server>__<tool> of one of
// servers into the implementation's scheme; any other name is returned as
// it is.
func (n ToolNaming) Exposed(canonical string, servers []string) string {
	if n.IsCanonical() {
		return canonical
	}
	rest, ok := strings.CutPrefix(canonical, "mcp__")
	if !ok {
		return canonical
	}
	byLength := append([]string(nil), servers...)
	sort.Slice(byLength, func(i, j int) bool { return len(byLength[i]) > len(byLength[j]) })
	for _, s := range byLength {
		if tool, ok := strings.CutPrefix(rest, s+"__"); ok && tool != "" {
			return n.Expose(s, tool)
		}
	}
	return canonical
}
