package conformance

import (
	"fmt"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// Then steps about what the model was given.

// toolMessages returns every tool message the model was sent, without
// repeats (each request carries the conversation so far).
func (w *world) toolMessages() []adapter.Message {
	seen := map[string]bool{}
	var out []adapter.Message
	for _, r := range w.host.modelRequests() {
		for _, m := range r.Messages {
			key := m.ToolCallID + "\x00" + m.Text
			if m.Role == "tool" && !seen[key] {
				seen[key] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// describeToolMessages summarizes tool messages for failures.
func describeToolMessages(ms []adapter.Message) string {
	if len(ms) == 0 {
		return "the model received no tool result"
	}
	var parts []string
	for _, m := range ms {
		kind := "result"
		if m.IsError {
			kind = "error"
		}
		parts = append(parts, fmt.Sprintf("%s of %d bytes: %s", kind, len(m.Text), truncateText(m.Text, 160)))
	}
	return strings.Join(parts, "; ")
}

// modelReceived: Then the model received <result>: "a tool error", "a tool
// result containing "ok"", or "a tool result of at least 4 MiB".
func (w *world) modelReceived(result string) error {
	ms := w.toolMessages()
	var match func(adapter.Message) bool
	var contains string
	var size int64
	switch {
	case result == "a tool error":
		match = func(m adapter.Message) bool { return m.IsError }
	case scanQuoted(result, "a tool result containing ", &contains):
		match = func(m adapter.Message) bool { return !m.IsError && strings.Contains(m.Text, contains) }
	case strings.HasPrefix(result, "a tool result of at least "):
		n, err := parseSize(strings.TrimPrefix(result, "a tool result of at least "))
		if err != nil {
			return err
		}
		size = n
		match = func(m adapter.Message) bool { return !m.IsError && int64(len(m.Text)) >= size }
	default:
		return fmt.Errorf("unknown tool result %q", result)
	}
	for _, m := range ms {
		if match(m) {
			return w.expect(true, "", "")
		}
	}
	return w.expect(false, "the model received "+result, "%s", describeToolMessages(ms))
}

// scanQuoted reads `prefix"value"`.
func scanQuoted(s, prefix string, out *string) bool {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok || len(rest) < 2 || rest[0] != '"' || rest[len(rest)-1] != '"' {
		return false
	}
	*out = rest[1 : len(rest)-1]
	return true
}

// modelAskedTimes: Then the model was asked 2 times
func (w *world) modelAskedTimes(n int) error {
	got := len(w.host.modelRequests())
	return w.expect(got == n, fmt.Sprintf("the model was asked %d time(s)", n), "%d time(s)", got)
}

// approvalAskedAny: Then the approval handler was asked 2 times
func (w *world) approvalAskedAny(n int) error {
	got := w.host.approvalRequests()
	var names []string
	for _, a := range got {
		names = append(names, a.Name)
	}
	return w.expect(len(got) == n, fmt.Sprintf("the approval handler was asked %d time(s)", n), "%d time(s): %v", len(got), names)
}
