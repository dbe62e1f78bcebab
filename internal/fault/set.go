package fault

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Set is a set of faults. The zero Set holds none: a host built with it
// breaks nothing.
type Set struct {
	m map[Fault]bool
}

// NewSet returns the set of fs. It panics on a fault this package does not
// know: a typo in code is a bug; names from outside go through [Parse].
func NewSet(fs ...Fault) Set {
	var s Set
	for _, f := range fs {
		if !f.Known() {
			panic(fmt.Sprintf("fault.NewSet: unknown fault %q", f))
		}
		if s.m == nil {
			s.m = map[Fault]bool{}
		}
		s.m[f] = true
	}
	return s
}

// Parse returns the set of the faults named, refusing a name that is not a
// fault with an error that names it and, when its rule has faults, those.
func Parse(names []string) (Set, error) {
	fs := make([]Fault, 0, len(names))
	for _, n := range names {
		f := Fault(strings.TrimSpace(n))
		if !f.Known() {
			return Set{}, unknown(f)
		}
		fs = append(fs, f)
	}
	return NewSet(fs...), nil
}

// unknown explains a name that is not a fault.
func unknown(f Fault) error {
	var same []string
	for _, k := range All() {
		if k.Rule() == f.Rule() {
			same = append(same, string(k))
		}
	}
	if len(same) == 0 {
		return fmt.Errorf("unknown fault %q: no fault breaks rule %q; a fault is named RULE/what, such as %s", f, f.Rule(), AliasLength)
	}
	return fmt.Errorf("unknown fault %q; the faults of %s are %s", f, f.Rule(), strings.Join(same, ", "))
}

// Has reports whether f is in the set.
func (s Set) Has(f Fault) bool { return s.m[f] }

// Empty reports whether the set holds no fault.
func (s Set) Empty() bool { return len(s.m) == 0 }

// List returns the faults of the set, sorted.
func (s Set) List() []Fault { return slices.Sorted(maps.Keys(s.m)) }
