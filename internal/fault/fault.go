// Package fault holds the faults that each break one documented rule of the
// reference implementation, for the mutation tests of the conformance
// suite: the suite run against a reference with one fault must turn the
// scenarios of the broken rule red, which proves those scenarios can fail.
//
// A fault is named for the rule it breaks, a slash, and what it does
// ("LA-NAME-02/alias-25-characters"). Faults never appear in the public API
// of the reference: a [Set] reaches a host only through [Inject], which the
// reference's product packages support by [Register]ing a setter for their
// options. Only packages of this module can import this one, so only the
// conformance adapters and the CLI (reference+mutate=, adapter
// serve-reference --mutate) can break a host. Where the core enforces a
// rule, a comment naming the rule stands next to the check of the fault
// that breaks it.
package fault

import (
	"maps"
	"slices"
	"strings"
)

// A Fault deliberately breaks one documented behaviour of the reference.
type Fault string

// Rule returns the ID of the rule the fault breaks: the part of its name
// before the slash.
func (f Fault) Rule() string {
	id, _, _ := strings.Cut(string(f), "/")
	return id
}

// Description says what the fault does, or "" for an unknown fault.
func (f Fault) Description() string { return descriptions[f] }

// Known reports whether f is one of the faults of this package.
func (f Fault) Known() bool {
	_, ok := descriptions[f]
	return ok
}

// descriptions describes every fault: the three tables joined.
var descriptions = func() map[Fault]string {
	all := map[Fault]string{}
	for _, t := range []map[Fault]string{liteAgentFaults, oauthFaults, bladeFaults} {
		maps.Copy(all, t)
	}
	return all
}()

// All returns every fault, sorted by name.
func All() []Fault {
	return slices.Sorted(maps.Keys(descriptions))
}
