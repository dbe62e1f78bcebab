package corrupt

import (
	"slices"
	"strings"
	"sync"
)

// Corruption is one named way to break the implementation behind the
// proxy: one behaviour a real SDK could get wrong.
type Corruption struct {
	// Name is the corruption's kebab-case name.
	Name string
	// Breaks says, in one line, the behaviour it breaks.
	Breaks string
	// Rules are the rule areas ("LA-EVT") and rule IDs ("LA-SEC-07")
	// whose scenarios it can affect: the scenarios a test runs against it.
	Rules []string
	// New returns a fresh hook, with state of its own, for one proxy.
	New func() Hook
}

// catalogs holds the corruptions of each file, registered by their init.
var (
	catalogMu sync.Mutex
	catalogs  [][]Corruption
)

// register adds corruptions to the catalog.
func register(cs ...Corruption) {
	catalogMu.Lock()
	defer catalogMu.Unlock()
	catalogs = append(catalogs, cs)
}

// All returns every corruption, by name.
func All() []Corruption {
	catalogMu.Lock()
	defer catalogMu.Unlock()
	var out []Corruption
	for _, cs := range catalogs {
		out = append(out, cs...)
	}
	slices.SortFunc(out, func(a, b Corruption) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Lookup returns the corruption of that name.
func Lookup(name string) (Corruption, bool) {
	for _, c := range All() {
		if c.Name == name {
			return c, true
		}
	}
	return Corruption{}, false
}

// Affects reports whether the corruption can affect the rule id: its Rules
// name the rule or its area.
func (c Corruption) Affects(id string) bool {
	for _, r := range c.Rules {
		if r == id || strings.HasPrefix(id, r+"-") {
			return true
		}
	}
	return false
}
