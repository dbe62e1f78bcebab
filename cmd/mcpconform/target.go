package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/reference"
)

// parseTarget turns a --target value into a target.
func parseTarget(s string) (adapter.Target, error) {
	name, params, _ := strings.Cut(s, "+")
	switch name {
	case "reference":
		t := refadapter.Target{}
		if params == "" {
			return t, nil
		}
		list, ok := strings.CutPrefix(params, "mutate=")
		if !ok {
			return nil, fmt.Errorf("%q: the reference takes only +mutate=MUTATION[,...]", s)
		}
		for _, m := range strings.Split(list, ",") {
			mut := reference.Mutation(m)
			if _, known := reference.Mutants[mut]; !known {
				return nil, fmt.Errorf("unknown mutation %q; known: %s", m, strings.Join(mutationNames(), ", "))
			}
			t.Mutations = append(t.Mutations, mut)
		}
		return t, nil
	}
	return nil, fmt.Errorf("unknown target %q: use \"reference\"", s)
}

func mutationNames() []string {
	var out []string
	for m := range reference.Mutants {
		out = append(out, string(m))
	}
	slices.Sort(out)
	return out
}
