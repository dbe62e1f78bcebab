package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Then steps about what the model was given.

// registerModelSteps defines the steps whose methods are in this file.
func (w *world) registerModelSteps(sc stepDefiner) {
	sc.Step(`^the model, once "([^"]*)" sent "([^"]*)", calls "([^"]*)" with (\{.*\})$`, w.modelCallsOnce)
	sc.Step(`^the model, once "([^"]*)" sent "([^"]*)", answers "([^"]*)"$`, w.modelAnswersOnce)
	sc.Step(`^the model calls ("[^"]*"(?:, "[^"]*")* and "[^"]*") in one turn$`, w.modelCallsInOneTurn)
	sc.Step(`^the model reads the archive with the reference it received, at offset (\d+)$`, w.modelReadsContext)
	sc.Step(`^every model request offered "([^"]*)" with the input schema (\{.*\})$`, w.everyRequestSchema)
	sc.Step(`^the model requests of the last send offered no tool of "([^"]*)"$`, w.lastSendOfferedNone)
	sc.Step(`^the model received (\d+) tool errors$`, w.modelReceivedErrors)
	sc.Step(`^no model request contained "([^"]*)"$`, w.noRequestContained)
	sc.Step(`^the model received (a tool error|a tool error containing "[^"]*"|a tool result containing "[^"]*"|a tool result of at least \d+ (?:bytes|KiB|MiB))$`, w.modelReceived)
	sc.Step(`^the model was asked (\d+) times?$`, w.modelAskedTimes)
	sc.Step(`^the model was offered exactly the MCP tools "([^"]*)"$`, w.offeredExactly)
	sc.Step(`^the model was offered no MCP tools$`, w.offeredNone)
	sc.Step(`^the model was never offered an MCP tool$`, w.neverOffered)
	sc.Step(`^the model was never offered any "([^"]*)" tool$`, w.neverOfferedPrefix)
	sc.Step(`^the model's (first|last) request offered exactly the MCP tools "([^"]*)"$`, w.requestOffered)
	sc.Step(`^the model was offered (\d+) MCP tools$`, w.offeredCount)
}

// modelState is the slice of the world this file's steps own: where the last send began among the model requests.
type modelState struct {
	sendMark int // model requests before the last send
}

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
		parts = append(parts, fmt.Sprintf("%s of %d bytes: %s", kind, len(m.Text), safetext.Cap(m.Text, 160)))
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
	case scanQuoted(result, "a tool error containing ", &contains):
		match = func(m adapter.Message) bool { return m.IsError && strings.Contains(m.Text, contains) }
	case scanQuoted(result, "a tool result containing ", &contains):
		match = func(m adapter.Message) bool { return !m.IsError && strings.Contains(m.Text, contains) }
	case strings.HasPrefix(result, "a tool result of at least "):
		n, err := parseSize(strings.TrimPrefix(result, "a tool result of at least "))
		if err != nil {
			return err
		}
		size = n
		// An archived result counts by the size its reference gives.
		match = func(m adapter.Message) bool {
			return !m.IsError && (int64(len(m.Text)) >= size || (m.Context != nil && int64(m.Context.Bytes) >= size))
		}
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

// nextCallID returns an id for a scripted call.
func (w *world) nextCallID(prefix string) string {
	w.host.mu.Lock()
	defer w.host.mu.Unlock()
	w.host.calls++
	return fmt.Sprintf("%s_%d", prefix, w.host.calls)
}

// modelCallsOnce: Given the model, once "docs" sent "notifications/tools/list_changed", calls "T" with {}
// — the model waits for the fake's message before it answers that turn:
// an event both a conforming and a broken implementation cause.
func (w *world) modelCallsOnce(name, method, tool, args string) error {
	a, err := rawJSON(args)
	if err != nil {
		return err
	}
	id := w.nextCallID("call")
	w.host.scriptTurn(w.afterSent(name, method, adapter.ModelResponse{ToolCalls: []adapter.ToolCall{{ID: id, Name: tool, Arguments: a}}}))
	return nil
}

// modelAnswersOnce: Given the model, once "docs" sent "X", answers "done"
func (w *world) modelAnswersOnce(name, method, text string) error {
	w.host.scriptTurn(w.afterSent(name, method, adapter.ModelResponse{Text: text}))
	return nil
}

// afterSent is a model turn that answers resp once fake name has sent
// method, within a step timeout.
func (w *world) afterSent(name, method string, resp adapter.ModelResponse) modelTurn {
	return func(ctx context.Context, _ adapter.ModelRequest) (adapter.ModelResponse, error) {
		sctx, cancel := w.stepCtx(ctx)
		defer cancel()
		if _, err := w.log.Wait(sctx, func(rs []record.Record) bool { return len(sentBy(rs, name, method)) > 0 }); err != nil {
			return adapter.ModelResponse{}, fmt.Errorf("the scripted model waited for %q to send %q: %w", name, method, err)
		}
		return resp, nil
	}
}

// quotedRE finds the quoted names of a step.
var quotedRE = regexp.MustCompile(`"([^"]*)"`)

// modelCallsInOneTurn: Given the model calls "a", "b" and "c" in one turn
// — each with {} as its arguments.
func (w *world) modelCallsInOneTurn(list string) error {
	var calls []adapter.ToolCall
	for _, m := range quotedRE.FindAllStringSubmatch(list, -1) {
		calls = append(calls, adapter.ToolCall{ID: w.nextCallID("call"), Name: m[1], Arguments: json.RawMessage("{}")})
	}
	if len(calls) < 2 {
		return fmt.Errorf("one turn needs at least two quoted tool names, not %q", list)
	}
	w.host.script(adapter.ModelResponse{ToolCalls: calls})
	return nil
}

// modelReadsContext: Given the model reads the archive with the reference
// it received, at offset 9000 — a call of the context tool with the
// reference of the last archived result that is not itself a read of the
// archive.
func (w *world) modelReadsContext(offset int) error {
	w.host.scriptTurn(func(_ context.Context, req adapter.ModelRequest) (adapter.ModelResponse, error) {
		ref := lastContextRef(req)
		if ref == nil {
			return adapter.ModelResponse{}, fmt.Errorf("the scripted model was to read the archive, but no tool result it was given holds a context reference (as the adapter parses it)")
		}
		args, _ := json.Marshal(map[string]any{"ref": ref.Ref, "offset": offset})
		return adapter.ModelResponse{ToolCalls: []adapter.ToolCall{{ID: fmt.Sprintf("ctx_%d", offset), Name: "context", Arguments: args}}}, nil
	})
	return nil
}

// lastContextRef is the last archive reference of a request's tool
// messages, outside reads of the archive.
func lastContextRef(req adapter.ModelRequest) *adapter.ContextRef {
	var ref *adapter.ContextRef
	for _, m := range req.Messages {
		if m.Role == "tool" && m.Context != nil && !strings.HasPrefix(m.ToolCallID, "ctx_") {
			ref = m.Context
		}
	}
	return ref
}

// callIDs returns the ids of the model's calls of tool, from the
// conversations it was sent.
func (w *world) callIDs(tool string) map[string]bool {
	ids := map[string]bool{}
	for _, r := range w.host.modelRequests() {
		for _, m := range r.Messages {
			for _, c := range m.ToolCalls {
				if c.Name == tool {
					ids[c.ID] = true
				}
			}
		}
	}
	return ids
}

// resultsOf returns the tool messages answering the model's calls of tool.
func (w *world) resultsOf(tool string) []adapter.Message {
	ids := w.callIDs(tool)
	var out []adapter.Message
	for _, m := range w.toolMessages() {
		if ids[m.ToolCallID] {
			out = append(out, m)
		}
	}
	return out
}

// modelReceivedErrors: Then the model received 2 tool errors
func (w *world) modelReceivedErrors(n int) error {
	ms := w.toolMessages()
	got := 0
	for _, m := range ms {
		if m.IsError {
			got++
		}
	}
	return w.expect(got == n, fmt.Sprintf("the model received %d tool errors", n), "%d: %s", got, describeToolMessages(ms))
}

// everyRequestSchema: Then every model request offered "lookup" with the input schema {...}
func (w *world) everyRequestSchema(tool, schema string) error {
	want, err := rawJSON(schema)
	if err != nil {
		return err
	}
	return w.everyOffered(tool, func(n int, t adapter.ToolDef) error {
		return w.expect(jsonEqual(t.InputSchema, want), fmt.Sprintf("every request offered %q with the input schema %s", tool, want), "request %d offered %s", n, t.InputSchema)
	})
}

// everyOffered requires at least one model request, each offering the
// tool named name, and check to pass for each offer (n counts the
// requests from 1).
func (w *world) everyOffered(name string, check func(n int, t adapter.ToolDef) error) error {
	reqs := w.host.modelRequests()
	if len(reqs) == 0 {
		return w.expect(false, "the model received a request", "it received none")
	}
	for n, r := range reqs {
		i := slices.IndexFunc(r.Tools, func(t adapter.ToolDef) bool { return t.Name == name })
		if i < 0 {
			return w.expect(false, fmt.Sprintf("request %d offered %q", n+1, name), "it offered %v", toolNames(r))
		}
		if err := check(n+1, r.Tools[i]); err != nil {
			return err
		}
	}
	return nil
}

// toolNames lists the tools of a request.
func toolNames(r adapter.ModelRequest) []string {
	var out []string
	for _, t := range r.Tools {
		out = append(out, t.Name)
	}
	return out
}

// lastSendOfferedNone: Then the model requests of the last send offered no tool of "p"
func (w *world) lastSendOfferedNone(server string) error {
	reqs := w.host.modelRequests()
	if w.sendMark > len(reqs) {
		return fmt.Errorf("the model has fewer requests than before the last send")
	}
	prefix := "mcp__" + server + "__"
	var hits []string
	for _, r := range reqs[w.sendMark:] {
		for _, t := range r.Tools {
			if strings.HasPrefix(t.Name, prefix) {
				hits = append(hits, t.Name)
			}
		}
	}
	return w.expect(len(hits) == 0, fmt.Sprintf("no model request of the last send offered a tool of %q", server), "they offered %v", hits)
}

// noRequestContained: Then no model request contained "canary"
func (w *world) noRequestContained(text string) error {
	for i, r := range w.host.modelRequests() {
		b, _ := json.Marshal(r)
		if strings.Contains(string(b), text) {
			return w.expect(false, fmt.Sprintf("no model request contains %q", text), "request %d does: %s", i+1, safetext.Cap(excerptAround(string(b), text), 240))
		}
	}
	return w.expect(true, "", "")
}

// excerptAround returns the part of s around the first text.
func excerptAround(s, text string) string {
	i := strings.Index(s, text)
	if i < 0 {
		return s
	}
	return s[max(i-80, 0):min(i+len(text)+80, len(s))]
}

// offeredExactly: Then the model was offered exactly the MCP tools "a, b"
func (w *world) offeredExactly(tools string) error {
	want := splitNames(tools)
	slices.Sort(want)
	reqs := w.host.modelRequests()
	ok := len(reqs) > 0
	for _, r := range reqs {
		ok = ok && slices.Equal(mcpTools(r), want)
	}
	return w.expect(ok, fmt.Sprintf("every model request offered exactly the MCP tools %v", want), "%s", describeRequests(reqs))
}

// offeredNone: Then the model was offered no MCP tools
func (w *world) offeredNone() error {
	reqs := w.host.modelRequests()
	ok := len(reqs) > 0
	for _, r := range reqs {
		ok = ok && len(mcpTools(r)) == 0
	}
	return w.expect(ok, "the model was asked and offered no MCP tool", "%s", describeRequests(reqs))
}

// neverOffered: Then the model was never offered an MCP tool — also holds
// when the model was never asked.
func (w *world) neverOffered() error {
	reqs := w.host.modelRequests()
	ok := true
	for _, r := range reqs {
		ok = ok && len(mcpTools(r)) == 0
	}
	return w.expect(ok, "no model request offered an MCP tool", "%s", describeRequests(reqs))
}

// neverOfferedPrefix: Then the model was never offered any "mcp__p__*" tool
func (w *world) neverOfferedPrefix(pattern string) error {
	prefix := strings.TrimSuffix(pattern, "*")
	var hits []string
	for _, r := range w.host.modelRequests() {
		for _, t := range r.Tools {
			if strings.HasPrefix(t.Name, prefix) {
				hits = append(hits, t.Name)
			}
		}
	}
	return w.expect(len(hits) == 0, fmt.Sprintf("no model request offered a %s tool", pattern), "it offered %v", hits)
}

// requestOffered: Then the model's first|last request offered exactly the MCP tools "..."
func (w *world) requestOffered(which, tools string) error {
	want := splitNames(tools)
	slices.Sort(want)
	reqs := w.host.modelRequests()
	if len(reqs) == 0 {
		return w.expect(false, "the model received a request", "it received none")
	}
	r := reqs[0]
	if which == "last" {
		r = reqs[len(reqs)-1]
	}
	return w.expect(slices.Equal(mcpTools(r), want), fmt.Sprintf("the model's %s request offered exactly %v", which, want), "it offered %v", mcpTools(r))
}

// offeredCount: Then the model was offered 128 MCP tools
func (w *world) offeredCount(n int) error {
	reqs := w.host.modelRequests()
	ok := len(reqs) > 0
	for _, r := range reqs {
		ok = ok && len(mcpTools(r)) == n
	}
	counts := []int{}
	for _, r := range reqs {
		counts = append(counts, len(mcpTools(r)))
	}
	return w.expect(ok, fmt.Sprintf("every model request offered %d MCP tools", n), "the requests offered %v", counts)
}
