package core

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// compareCodeUnits orders strings as JavaScript's default sort does, by
// UTF-16 code units (interpretation B-14). It differs from Go's byte
// order, which is code-point order, where a character beyond the BMP
// (two surrogates, from U+D800) meets one from U+E000 to U+FFFF.
func compareCodeUnits(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// groupedOrder orders a session's tools as Blade sends them to the model:
// the built-in and application tools first, then the MCP tools, each group
// sorted by name in UTF-16 code-unit order, whatever the order of configuration
// or connection (BL-ORD-01..03, interpretation B-14). An MCP tool never
// takes a built-in or application tool's name (BL-NAME-02).
func (a *Host) groupedOrder(tools []entry) []entry {
	m := a.faults
	var own, mcp []entry
	for _, e := range tools {
		if e.mcp != nil {
			mcp = append(mcp, e)
		} else {
			own = append(own, e)
		}
	}
	// BL-NAME-02: an MCP tool never takes a built-in or application tool's name.
	if m.Has(fault.BladeShadowOwnTools) {
		for i, e := range mcp {
			if j := slices.IndexFunc(own, func(o entry) bool { return o.spec.Name == e.mcp.raw }); j >= 0 {
				mcp[i].spec.Name = e.mcp.raw
				own = slices.Delete(own, j, j+1)
			}
		}
	}
	byName := func(a, b entry) int { return compareCodeUnits(a.spec.Name, b.spec.Name) }
	ownOrder, mcpOrder := byName, byName
	// BL-ORD-02: the own tools sort by UTF-16 code unit, as JavaScript's sort does.
	if m.Has(fault.BladeCodePointOrder) {
		ownOrder = func(a, b entry) int { return strings.Compare(a.spec.Name, b.spec.Name) }
	}
	switch {
	case m.Has(fault.BladeCaseInsensitiveOrder): // BL-ORD-03: by name, letter case included
		mcpOrder = func(a, b entry) int {
			return strings.Compare(strings.ToLower(a.spec.Name), strings.ToLower(b.spec.Name))
		}
	case m.Has(fault.BladeOrderByServer): // BL-ORD-03: by exposed name, whatever the server
		mcpOrder = func(a, b entry) int {
			return cmp.Or(strings.Compare(a.mcp.server, b.mcp.server), strings.Compare(a.mcp.raw, b.mcp.raw))
		}
	}
	// BL-ORD-02: the built-in and application tools in name order.
	if !m.Has(fault.BladeUnsortedOwnTools) {
		slices.SortStableFunc(own, ownOrder)
	}
	// BL-ORD-03: the MCP tools in name order.
	if !m.Has(fault.BladeUnsortedMCPTools) {
		slices.SortStableFunc(mcp, mcpOrder)
	}
	// BL-ORD-01: the MCP tools come after the built-in and application tools.
	if m.Has(fault.BladeMCPFirst) {
		return append(mcp, own...)
	}
	return append(own, mcp...)
}
