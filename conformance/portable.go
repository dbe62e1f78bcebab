package conformance

import "github.com/mcpconform/mcpconform/spec"

// portable reports whether every rule s checks holds for any MCP host
// ([spec.Rule.Portable]), so that the scenario measures a third-party SDK
// without holding it to a product's own surface.
func portable(s Scenario) bool {
	if len(s.Rules) == 0 {
		return false
	}
	for _, id := range s.Rules {
		if r, ok := spec.Lookup(id); !ok || !r.Portable {
			return false
		}
	}
	return true
}
