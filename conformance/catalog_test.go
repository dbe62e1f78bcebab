package conformance_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/spec"
)

// TestFeaturesMatchCatalog ties the Gherkin suite to the rule catalog:
// tags name real rules and capabilities, every scenario checks a rule of
// its system, and every rule has scenarios, a reason why not, or the
// issue that will bring them.
func TestFeaturesMatchCatalog(t *testing.T) {
	scs, err := conformance.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, s := range scs {
		where := s.ID + " " + s.Name
		if len(s.Rules) == 0 {
			t.Errorf("%s: no rule tag", where)
		}
		if len(s.Systems) != 1 {
			t.Errorf("%s: system tags %v, want exactly one", where, s.Systems)
		}
		for _, tag := range s.Tags {
			if (strings.HasPrefix(tag, "@LA-") || strings.HasPrefix(tag, "@BL-")) && !slices.Contains(s.Rules, tag[1:]) {
				t.Errorf("%s: tag %s looks like a rule ID but is malformed", where, tag)
			}
		}
		for _, id := range s.Rules {
			r, ok := spec.Lookup(id)
			if !ok {
				t.Errorf("%s: tag @%s names no rule of the catalog", where, id)
				continue
			}
			if len(s.Systems) == 1 && string(r.System) != string(s.Systems[0]) {
				t.Errorf("%s: rule %s is a %s rule in a %s scenario", where, id, r.System, s.Systems[0])
			}
			count[id]++
		}
		for _, c := range s.Capabilities {
			if !slices.Contains(adapter.Capabilities, c) {
				t.Errorf("%s: @adapter:%s is not a capability of the contract", where, c)
			}
		}
		for _, c := range s.Lacks {
			if !slices.Contains(adapter.Capabilities, c) {
				t.Errorf("%s: @adapter-lacks:%s is not a capability of the contract", where, c)
			}
			if slices.Contains(s.Capabilities, c) {
				t.Errorf("%s: needs the capability %s and its absence", where, c)
			}
		}
	}
	for _, r := range spec.Rules() {
		n := count[r.ID]
		switch {
		case n == 0 && r.Reason == "" && r.Pending == "":
			t.Errorf("%s (%s) has no scenario, no reason and is not pending", r.ID, r.Testability)
		case n == 0 && r.Testable() && r.Pending == "":
			t.Errorf("%s is testable (%s) and has no scenario", r.ID, r.Testability)
		case n > 0 && r.Pending != "":
			t.Errorf("%s has %d scenarios but is still marked pending (%s)", r.ID, n, r.Pending)
		}
	}
}
