package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Steps about the JSON projection of tool results, the session archive and
// context references (LA-VAL-05..07, LA-ARC, LA-LIM-08). The shapes are
// the implementation's; the adapter parses them (rule catalog A-26).

// registerProjectionSteps defines the steps whose methods are in this file.
func (w *world) registerProjectionSteps(sc stepDefiner) {
	sc.Step(`^the host projects a text result whose projection has exactly (\d+) bytes$`, w.projects)
	sc.Step(`^the model received a projection with an? "([^"]*)" item "([^"]*)"(?: named "([^"]*)")?$`, w.projectionItem)
	sc.Step(`^the model received a projection whose structuredContent is (\{.*\}|\[.*\]|"[^"]*"|-?\d+(?:\.\d+)?|true|false|null)$`, w.projectionStructured)
	sc.Step(`^the model was given the marked text of "([^"]*)" (inline|only by reference)$`, w.markedGiven)
	sc.Step(`^the ("[^"]*"(?:(?:, | and )"[^"]*")*) items the model received were archived$`, w.itemsArchived)
	sc.Step(`^the model received a context reference for the result of "([^"]*)"$`, w.contextRefFor)
	sc.Step(`^the context read at offset (\d+) began with the start of the marked text of "([^"]*)"$`, w.contextReadStart)
	sc.Step(`^the context read at offset (\d+) began about (\d+) bytes into the archived result of "([^"]*)"$`, w.contextReadAbout)
	sc.Step(`^the projection is (inline|archived)$`, w.projectionIs)
	sc.Step(`^the projection is a tool error and is not archived$`, w.projectionRefused)
}

// projectionState is the slice of the world this file's steps own: the host's last projection of a result.
type projectionState struct {
	projection    adapter.Projection // the last agent/project
	projectionErr error
	projected     bool
	marked        map[string]string // the marked text each tool answers with
}

// projectionItem: Then the model received a projection with a "text" item "x" [named "n"]
// — the item's text, or its URI for a resource link.
func (w *world) projectionItem(typ, value, name string) error {
	ms := w.toolMessages()
	for _, m := range ms {
		if m.Projection == nil {
			continue
		}
		for _, it := range m.Projection.Content {
			v := it.Text
			if typ != "text" {
				v = it.URI
			}
			if it.Type == typ && v == value && (name == "" || it.Name == name) {
				return w.expect(true, "", "")
			}
		}
	}
	what := fmt.Sprintf("a projection holding a %s item %q", typ, value)
	if name != "" {
		what += fmt.Sprintf(" named %q", name)
	}
	return w.expect(false, what, "%s", describeProjections(ms))
}

// projectionStructured: Then the model received a projection whose structuredContent is 42
func (w *world) projectionStructured(value string) error {
	want, err := rawJSON(value)
	if err != nil {
		return err
	}
	ms := w.toolMessages()
	for _, m := range ms {
		if m.Projection != nil && m.Projection.StructuredContent != nil && jsonEqual(m.Projection.StructuredContent, want) {
			return w.expect(true, "", "")
		}
	}
	return w.expect(false, fmt.Sprintf("a projection whose structuredContent is %s", want), "%s", describeProjections(ms))
}

// describeProjections summarizes the parsed projections of tool messages.
func describeProjections(ms []adapter.Message) string {
	if len(ms) == 0 {
		return "the model received no tool result"
	}
	var parts []string
	for _, m := range ms {
		switch {
		case m.Projection != nil:
			b, _ := json.Marshal(m.Projection)
			parts = append(parts, "projection "+safetext.Cap(string(b), 200))
		case m.Context != nil:
			parts = append(parts, fmt.Sprintf("context reference %q", m.Context.Ref))
		default:
			parts = append(parts, "no projection the adapter could parse in "+safetext.Cap(m.Text, 120))
		}
	}
	return strings.Join(parts, "; ")
}

// markedGiven: Then the model was given the marked text of "t" inline | only by reference
func (w *world) markedGiven(tool, where string) error {
	text, ok := w.marked[tool]
	if !ok {
		return fmt.Errorf("the tool %q does not answer with a marked text", tool)
	}
	ms := w.resultsOf(mcpToolNamed(w, tool))
	if len(ms) == 0 {
		return w.expect(false, fmt.Sprintf("the model received the result of %q", tool), "%s", describeToolMessages(w.toolMessages()))
	}
	for _, m := range ms {
		if m.IsError {
			return w.expect(false, fmt.Sprintf("the result of %q is no tool error", tool), "%s", describeToolMessages(ms))
		}
		if where == "inline" {
			if err := w.expect(strings.Contains(m.Text, text), fmt.Sprintf("the whole %d-byte text of %q inline", len(text), tool), "a tool message of %d bytes without it", len(m.Text)); err != nil {
				return err
			}
			continue
		}
		if err := w.expect(!strings.Contains(m.Text, "[LA-M-"), fmt.Sprintf("none of the text of %q inline", tool), "a tool message of %d bytes holding marker %d", len(m.Text), firstMarker(m.Text)); err != nil {
			return err
		}
	}
	return nil
}

// mcpToolNamed returns the full name of a fake's tool from the scripted
// calls: the tool the model called whose name ends in __tool.
func mcpToolNamed(w *world, tool string) string {
	for _, r := range w.host.modelRequests() {
		for _, m := range r.Messages {
			for _, c := range m.ToolCalls {
				if strings.HasSuffix(c.Name, "__"+tool) {
					return c.Name
				}
			}
		}
	}
	return tool
}

// itemsArchived: Then the "image" and "audio" items the model received were archived
// — each has a context reference, when the adapter parses them.
func (w *world) itemsArchived(list string) error {
	var types []string
	for _, m := range quotedRE.FindAllStringSubmatch(list, -1) {
		types = append(types, m[1])
	}
	if !w.info.Supports(adapter.CapContextRef) {
		// Without the adapter's parser, that the data never reached the
		// model (the steps before) is all that can be seen.
		return w.expect(true, "", "")
	}
	ms := w.toolMessages()
	for _, typ := range types {
		found := false
		for _, m := range ms {
			if m.Projection == nil {
				continue
			}
			for _, it := range m.Projection.Content {
				if it.Type == typ {
					found = true
					if err := w.expect(it.Context != nil && it.Context.Ref != "", fmt.Sprintf("the %s item is archived behind a context reference", typ), "it has none"); err != nil {
						return err
					}
				}
			}
		}
		if err := w.expect(found, fmt.Sprintf("the projection lists the %s item, archived", typ), "%s", describeProjections(ms)); err != nil {
			return err
		}
	}
	return nil
}

// contextRefFor: Then the model received a context reference for the result of "t"
func (w *world) contextRefFor(tool string) error {
	ms := w.resultsOf(mcpToolNamed(w, tool))
	for _, m := range ms {
		if m.Context != nil && m.Context.Ref != "" && m.Context.Offset >= 0 {
			return w.expect(true, "", "")
		}
	}
	return w.expect(false, fmt.Sprintf("the result of %q is a context({ref, offset}) reference", tool), "%s", describeProjections(ms))
}

// contextPage returns the tool message answering the model's read of the
// archive at offset.
func (w *world) contextPage(offset int) (adapter.Message, error) {
	id := fmt.Sprintf("ctx_%d", offset)
	for _, m := range w.toolMessages() {
		if m.ToolCallID == id {
			if m.IsError {
				return m, w.expect(false, fmt.Sprintf("the read of the archive at offset %d succeeds", offset), "a tool error: %s", safetext.Cap(m.Text, 200))
			}
			return m, nil
		}
	}
	return adapter.Message{}, w.expect(false, fmt.Sprintf("the model was given the read of the archive at offset %d", offset), "%s", describeToolMessages(w.toolMessages()))
}

// contextReadStart: Then the context read at offset 0 began with the start of the marked text of "t"
func (w *world) contextReadStart(offset int, tool string) error {
	m, err := w.contextPage(offset)
	if err != nil {
		return err
	}
	got := firstMarker(m.Text)
	return w.expect(got == 0, fmt.Sprintf("the read at offset %d holds the text of %q from its first marker", offset, tool), "its first marker is %d", got)
}

// contextReadAbout: Then the context read at offset 9000 began about 9000
// bytes into the archived result of "t" — its first whole marker is the
// one that starts at or after that offset, allowing for up to 1 KiB of
// projection before the text.
func (w *world) contextReadAbout(offset, about int, tool string) error {
	m, err := w.contextPage(offset)
	if err != nil {
		return err
	}
	got := firstMarker(m.Text)
	lo, hi := (about-1024+markerWidth-1)/markerWidth, (about+markerWidth-1)/markerWidth
	return w.expect(got >= lo && got <= hi, fmt.Sprintf("the read at offset %d starts about %d bytes into the text of %q (first marker %d to %d)", offset, about, tool, lo, hi), "its first marker is %d", got)
}

// projects: When the host projects a text result whose projection has exactly 16384 bytes
// — measured with the adapter's own projection: a 1,000-byte text
// calibrates the overhead, then a text of the remaining size is projected.
func (w *world) projects(ctx context.Context, n int) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpProject); err != nil {
		return err
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	result := func(size int) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": strings.Repeat("x", size)}}})
		return b
	}
	const probe = 1000
	p, err := w.agent.Project(sctx, result(probe))
	if err != nil {
		return fmt.Errorf("projecting a %d-byte text to measure the projection: %w", probe, err)
	}
	overhead := p.Bytes - probe
	if overhead < 0 || n-overhead < 0 {
		return fmt.Errorf("the adapter measures a %d-byte text's projection as %d bytes; it cannot be sized to %d", probe, p.Bytes, n)
	}
	w.projection, w.projectionErr = w.agent.Project(sctx, result(n-overhead))
	if w.projectionErr == nil && !w.projection.IsError && w.projection.Bytes != n {
		return fmt.Errorf("the projection was sized to %d bytes but the adapter measures %d: its size does not grow byte for byte with the text", n, w.projection.Bytes)
	}
	w.projected = true
	return nil
}

// projectionIs: Then the projection is inline | archived
func (w *world) projectionIs(where string) error {
	if !w.projected {
		return fmt.Errorf("the scenario projected nothing")
	}
	if w.projectionErr != nil {
		return w.expect(false, "the projection succeeds, "+where, "%s", errText(w.projectionErr))
	}
	return w.expect(w.projection.Archived == (where == "archived") && !w.projection.IsError, fmt.Sprintf("a %d-byte projection is %s", w.projection.Bytes, where),
		"archived=%v isError=%v", w.projection.Archived, w.projection.IsError)
}

// projectionRefused: Then the projection is a tool error and is not archived
// — an error of kind limit, or a projection marked as a tool error.
func (w *world) projectionRefused() error {
	if !w.projected {
		return fmt.Errorf("the scenario projected nothing")
	}
	if w.projectionErr != nil {
		return w.expect(kindIs(w.projectionErr, string(adapter.KindLimit)), "the projection fails with a limit error", "%s", errText(w.projectionErr))
	}
	return w.expect(w.projection.IsError && !w.projection.Archived, "the projection is a tool error and is not archived",
		"a %d-byte projection with archived=%v isError=%v", w.projection.Bytes, w.projection.Archived, w.projection.IsError)
}
