package conformance

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// Steps of the consistency of Blade's tool names (BL-NAME-06): the name
// the permission callback gets, the name the model is offered and the
// mcpListTools() entry, through the B-12 mapping of McpToolInfo.name (the
// raw name with its serverName, or the exposed name).

// registerBladeNameSteps defines the steps whose methods are in this file.
func (w *world) registerBladeNameSteps(sc stepDefiner) {
	sc.Step(`^the permission callback was asked about exactly "([^"]*)", each a tool the model was offered and one mcpListTools\(\) entry$`, w.namesConsistent)
}

// toolInfoNames reports whether an McpToolInfo names the exposed tool
// name, through the B-12 mapping ([toolInfoIs]).
func toolInfoNames(t adapter.ToolInfo, exposed string) bool {
	server, tool, ok := splitToolName(exposed)
	return ok && toolInfoIs(t, server, tool)
}

// namesConsistent: Then the permission callback was asked about exactly
// "mcp__a__search, mcp__b__search", each a tool the model was offered and
// one mcpListTools() entry
func (w *world) namesConsistent(ctx context.Context, names string) error {
	want := splitNames(names)
	h := w.host
	h.mu.Lock()
	var asked []string
	for _, r := range h.permissions {
		asked = append(asked, r.ToolName)
	}
	h.mu.Unlock()
	got := slices.Sorted(slices.Values(asked))
	got = slices.Compact(got)
	if err := w.expect(slices.Equal(got, slices.Sorted(slices.Values(want))), fmt.Sprintf("the permission callback's toolNames %q", want), "%q", asked); err != nil {
		return err
	}
	offered := map[string]bool{}
	for _, req := range w.host.modelRequests() {
		for _, t := range req.Tools {
			offered[t.Name] = true
		}
	}
	infos, err := w.mcpListTools(ctx)
	if err != nil {
		return err
	}
	var problems []string
	for _, name := range want {
		if !offered[name] {
			problems = append(problems, fmt.Sprintf("%q was never offered to the model", name))
		}
		n := 0
		for _, t := range infos {
			if toolInfoNames(t, name) {
				n++
			}
		}
		if n != 1 {
			problems = append(problems, fmt.Sprintf("%q maps to %d mcpListTools() entries", name, n))
		}
	}
	return w.expect(len(problems) == 0, "each toolName offered to the model under that name and named by exactly one mcpListTools() entry (its exposed name, or its raw name and serverName, B-12)",
		"%s; mcpListTools() %s", strings.Join(problems, "; "), describeToolInfos(infos))
}
