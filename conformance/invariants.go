package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Scenario invariants: checks the runner applies at the end of every
// scenario that passed its steps, whatever those steps were. A scenario
// whose steps pass but that breaks an invariant fails, naming the
// invariant, the rule and where the offending value was seen:
//
//   - no planted secret on any host surface (secrets.go);
//   - nothing reaches the host after close() returned;
//   - what the model is offered is the catalog, exactly: every MCP tool
//     of every model request is a tool a fake declared, with its
//     description and input schema, once, in the documented order;
//   - outcomes are reported as they were: a call the fakes never answered
//     (it timed out, was cancelled or lost its connection) is never
//     reported to a hook or the model as a success;
//   - no process the scenario started outlives it;
//   - the implementation did something observable: a pass needs a
//     positive observation, not only absences.

// finding is one broken invariant.
type finding struct {
	invariant string
	rule      string
	expected  string
	actual    string
}

// String renders a finding as a failure, h2spec-style.
func (f finding) String() string {
	return fmt.Sprintf("invariant %q (%s)\n  Expected: %s\n  Actual:   %s", f.invariant, f.rule, f.expected, f.actual)
}

// beforeTeardown takes what the invariants need from the live agent: a
// last list(), the Blade session's statuses and tools, and the logs.
func (w *world) beforeTeardown(ctx context.Context) {
	a, ok := w.agent.(*observedAgent)
	if !ok || w.closed {
		return
	}
	if !a.view.isClosed() {
		a.snapshotList(ctx, "list() at the end of the scenario")
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	if w.info.Supports(adapter.CapLogSinks) && w.info.Implements(adapter.OpLogs) {
		_, _ = w.agent.Logs(sctx)
	}
	if w.opts.System == adapter.Blade && !a.view.isClosed() {
		if w.info.Implements(adapter.OpMCPStatus) {
			_, _ = w.agent.MCPStatus(sctx)
		}
		if w.info.Implements(adapter.OpMCPListTools) {
			_, _ = w.agent.MCPListTools(sctx)
		}
	}
}

// invariantFindings checks every invariant once the world is torn down.
// Secret findings of a Blade scenario are warnings (catalog X-19: the
// Blade document states no secrets-hygiene rule).
func (w *world) invariantFindings() (failures, warnings []finding) {
	rs := w.log.Records()
	surfaces, _, late, effects := w.obs.snapshot()
	surfaces = append(surfaces, hostSurfaces(rs)...)
	surfaces = append(surfaces, w.console()...)
	secrets := w.secretSweep(surfaces)
	if w.opts.System == adapter.Blade {
		warnings = append(warnings, secrets...)
	} else {
		failures = append(failures, secrets...)
	}
	for _, l := range late {
		failures = append(failures, finding{invariant: "nothing after close()", rule: w.closeRule(),
			expected: "no event, hook, model request or approval once close() returned", actual: l})
	}
	failures = append(failures, w.catalogFindings()...)
	failures = append(failures, w.outcomeFindings()...)
	failures = append(failures, w.replyFindings()...)
	failures = append(failures, w.leftovers...)
	if w.positives == 0 {
		failures = append(failures, finding{invariant: "a positive observation", rule: "harness",
			expected: "a Then step that observed an effect: a connection, a request, a result, an error of a kind, a callback",
			actual:   "the scenario's Then steps checked only that something succeeded or that something did not happen, which an implementation that does nothing passes"})
	}
	if !observable(rs) && effects == 0 {
		failures = append(failures, finding{invariant: "a positive observation", rule: "harness",
			expected: "the implementation did something the scenario could observe: contacted a server, called back into its host, or returned a result or an error",
			actual:   "nothing: no server was contacted, the host was never called back and no operation returned anything"})
	}
	return failures, warnings
}

// closeRule is the rule that close() reclaims everything.
func (w *world) closeRule() string {
	if w.opts.System == adapter.Blade {
		return "B-17"
	}
	return "LA-REG-21"
}

// absence matches the Then steps that observe no effect: a bare success,
// or that something did not happen. Every other Then step that passes
// observed something the implementation did.
var absence = regexp.MustCompile(`^it succeeds$|\b(never|no|nothing|none|neither|unchanged|still|nowhere)\b|\bat most\b|\bless than\b|\bwas not\b|\bdid not\b`)

// quoted matches the values a step quotes: data, not its wording.
var quoted = regexp.MustCompile(`"[^"]*"`)

// observes reports whether a Then step's text observes an effect, when it
// passes; its quoted values do not count ("authenticated with "none"" is
// an observation). "the file granted nothing: the agent refused it, or
// asked ..." observes a refusal or the approvals.
func observes(step string) bool {
	return !absence.MatchString(quoted.ReplaceAllString(step, `""`)) || strings.HasPrefix(step, "the file granted nothing: ")
}

// observable reports whether the records show the implementation did
// anything: a process started, a message or HTTP request reached a fake,
// or the implementation called back into its host.
func observable(rs []record.Record) bool {
	for _, r := range rs {
		switch r.Kind {
		case record.KindStart, record.KindMessage, record.KindHTTP, record.KindSandbox:
			return true
		case record.KindHost:
			if r.Method != "after-close" {
				return true
			}
		}
	}
	return false
}

// declaredTool is one definition a fake offered at some point.
type declaredTool struct {
	server string
	tool   mcpfake.Tool
}

// declaredTools returns every tool definition the fakes offered, by tool
// name: the scripts' tools and every list they change to.
func (w *world) declaredTools() map[string][]declaredTool {
	out := map[string][]declaredTool{}
	for _, name := range sortedKeys(w.fakes) {
		s := w.fakes[name].script
		lists := [][]mcpfake.Tool{s.Tools}
		for _, tool := range sortedKeys(s.Calls) {
			if c := s.Calls[tool]; c.ThenTools != nil {
				lists = append(lists, *c.ThenTools)
			}
		}
		for _, l := range lists {
			for _, t := range l {
				out[t.Name] = append(out[t.Name], declaredTool{server: name, tool: t})
			}
		}
	}
	return out
}

// catalogFindings checks what every model request offered against what
// the fakes declared.
func (w *world) catalogFindings() []finding {
	nameRule, schemaRule := "LA-NAME-01", "LA-CAT-04"
	if w.opts.System == adapter.Blade {
		nameRule, schemaRule = "BL-NAME-01", "BL-NAME-01"
	}
	declared := w.declaredTools()
	var out []finding
	for i, req := range w.host.modelRequests() {
		where := fmt.Sprintf("model request %d", i+1)
		seen := map[string]bool{}
		for _, t := range req.Tools {
			if seen[t.Name] {
				out = append(out, finding{invariant: "the model is offered the catalog exactly", rule: nameRule,
					expected: "every tool offered once", actual: fmt.Sprintf("%s offered %q twice", where, t.Name)})
			}
			seen[t.Name] = true
			_, tool, ok := splitToolName(t.Name)
			if !ok {
				continue
			}
			if f, bad := checkOffered(t, tool, declared[tool]); bad {
				f.rule, f.actual = schemaRule, where+" "+f.actual
				if len(declared[tool]) == 0 {
					f.rule = nameRule
				}
				out = append(out, f)
			}
		}
		if w.opts.System == adapter.Blade {
			if f, bad := bladeOrder(req.Tools); bad {
				f.actual = where + " " + f.actual
				out = append(out, f)
			}
		}
		if len(out) > 0 {
			return out // the first request that breaks it says enough
		}
	}
	return out
}

// checkOffered compares one offered MCP tool with the definitions of its
// name that the fakes offered.
func checkOffered(t adapter.ToolDef, tool string, defs []declaredTool) (finding, bool) {
	f := finding{invariant: "the model is offered the catalog exactly"}
	if len(defs) == 0 {
		f.expected = "only tools that a server declared"
		f.actual = fmt.Sprintf("offered %q, but no server declared a tool %q", t.Name, tool)
		return f, true
	}
	var diffs []string
	for _, d := range defs {
		want := d.tool.InputSchema
		if len(want) == 0 {
			want = json.RawMessage(`{"type":"object"}`)
		}
		var gotSchema, wantSchema any
		_ = json.Unmarshal(want, &wantSchema)
		if len(t.InputSchema) > 0 {
			_ = json.Unmarshal(t.InputSchema, &gotSchema)
		}
		switch {
		case t.Description != d.tool.Description:
			diffs = append(diffs, fmt.Sprintf("the description %s where %q declared %s", quoteJSON(t.Description), d.server, quoteJSON(d.tool.Description)))
		case gotSchema == nil:
			diffs = append(diffs, fmt.Sprintf("no input schema where %q declared %s", d.server, safetext.Cap(string(want), 160)))
		case !cmp.Equal(withoutNoOps(gotSchema), withoutNoOps(wantSchema)):
			diffs = append(diffs, fmt.Sprintf("the input schema %s where %q declared %s", safetext.Cap(string(t.InputSchema), 160), d.server, safetext.Cap(string(want), 160)))
		default:
			return f, false
		}
	}
	f.expected = fmt.Sprintf("%q offered with the description and input schema its server declared", t.Name)
	f.actual = fmt.Sprintf("offered %q with %s", t.Name, diffs[0])
	return f, true
}

// withoutNoOps drops the keywords that state a JSON Schema default and so
// change nothing a schema accepts ("required": [], "properties": {} and
// "additionalProperties": true, at any depth): an implementation that
// spells out the defaults offers the schema its server declared.
func withoutNoOps(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if r, ok := e.([]any); ok && k == "required" && len(r) == 0 {
				continue
			}
			if b, ok := e.(bool); ok && k == "additionalProperties" && b {
				continue
			}
			if p, ok := e.(map[string]any); ok && k == "properties" && len(p) == 0 {
				continue
			}
			if props, ok := e.(map[string]any); ok && (k == "properties" || k == "$defs" || k == "patternProperties") {
				named := make(map[string]any, len(props)) // names, not keywords
				for name, p := range props {
					named[name] = withoutNoOps(p)
				}
				out[k] = named
				continue
			}
			out[k] = withoutNoOps(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withoutNoOps(e)
		}
		return out
	}
	return v
}

// quoteJSON quotes a description for a report, capped.
func quoteJSON(s string) string { return safetext.Cap(fmt.Sprintf("%q", s), 120) }

// bladeOrder checks Blade's documented order: every non-MCP tool before
// every MCP tool, each group in UTF-16 code-unit order (BL-ORD-01..03,
// interpretation B-14).
func bladeOrder(tools []adapter.ToolDef) (finding, bool) {
	var names, other, mcp []string
	for _, t := range tools {
		names = append(names, t.Name)
		if strings.HasPrefix(t.Name, "mcp__") {
			mcp = append(mcp, t.Name)
		} else {
			other = append(other, t.Name)
		}
	}
	want := append(sortedUTF16(other), sortedUTF16(mcp)...)
	if slices.Equal(names, want) {
		return finding{}, false
	}
	rule := "BL-ORD-03"
	switch {
	case !slices.Equal(names[:len(other)], sortedUTF16(other)) && !slices.ContainsFunc(names[:len(other)], func(n string) bool { return strings.HasPrefix(n, "mcp__") }):
		rule = "BL-ORD-02"
	case slices.ContainsFunc(names[:len(other)], func(n string) bool { return strings.HasPrefix(n, "mcp__") }):
		rule = "BL-ORD-01"
	}
	return finding{invariant: "the model is offered the catalog exactly", rule: rule,
		expected: fmt.Sprintf("the tools in Blade's order %v", want), actual: fmt.Sprintf("offered %v", names)}, true
}

// sortedUTF16 sorts names by UTF-16 code units, as JavaScript's default
// sort does.
func sortedUTF16(names []string) []string {
	out := slices.Clone(names)
	slices.SortStableFunc(out, func(a, b string) int {
		return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
	})
	return out
}

// outcomeFindings checks that no call the fakes never answered is
// reported as a success (LA-TMO-06: the outcome is an error or unknown,
// never success).
func (w *world) outcomeFindings() []finding {
	unanswered, answered := callOutcomes(w.log.Records())
	type call struct{ name, key string }
	calls := map[string]call{} // tool-call id → what it called
	results := map[string]adapter.Message{}
	for _, req := range w.host.modelRequests() {
		for _, m := range req.Messages {
			for _, tc := range m.ToolCalls {
				if _, tool, ok := splitToolName(tc.Name); ok {
					calls[tc.ID] = call{name: tc.Name, key: callKey(tool, tc.Arguments)}
				}
			}
			if m.Role == "tool" && m.ToolCallID != "" {
				results[m.ToolCallID] = m
			}
		}
	}
	for _, h := range w.host.hookEvents() {
		if h.Type == "tool:start" {
			if _, tool, ok := splitToolName(h.Name); ok {
				if _, known := calls[h.ID]; !known {
					calls[h.ID] = call{name: h.Name, key: callKey(tool, h.Input)}
				}
			}
		}
	}
	rule := "LA-TMO-06"
	if w.opts.System == adapter.Blade {
		rule = "B-17"
	}
	var out []finding
	for _, id := range sortedKeys(calls) {
		c := calls[id]
		if unanswered[c.key] == 0 || answered[c.key] > 0 {
			continue
		}
		for _, h := range w.host.hookEvents() {
			if h.Type == "tool:end" && h.ID == id && (h.Outcome == "success" || (h.Outcome == "" && !h.IsError)) {
				out = append(out, finding{invariant: "outcomes are reported as they were", rule: rule,
					expected: fmt.Sprintf("the call %s of %s, which its server never answered, reported as an error or unknown", id, c.name),
					actual:   fmt.Sprintf("the tool:end hook reported it as a success: %s", safetext.Cap(jsonText(h), 200))})
			}
		}
		if m, ok := results[id]; ok && !m.IsError && (m.Projection == nil || !m.Projection.IsError) {
			out = append(out, finding{invariant: "outcomes are reported as they were", rule: rule,
				expected: fmt.Sprintf("the call %s of %s, which its server never answered, given to the model as an error", id, c.name),
				actual:   fmt.Sprintf("the model got it as a result: %s", quoteShown(m.Text))})
		}
	}
	return out
}

// replyFindings checks that every run that succeeded replied with the
// final text the model gave (the contract's SendResult: "the final
// assistant text of the run").
func (w *world) replyFindings() []finding {
	w.obs.mu.Lock()
	replies := slices.Clone(w.obs.replies)
	w.obs.mu.Unlock()
	finals := snapshot(w.host, &w.host.finals)
	for _, r := range replies {
		if !slices.Contains(finals, r) {
			return []finding{{invariant: "the reply is the model's", rule: "contract",
				expected: fmt.Sprintf("send() and run() return the model's final text (it answered %s)", quoteShown(strings.Join(finals, " | "))),
				actual:   fmt.Sprintf("a run returned %s", quoteShown(r))}}
		}
	}
	return nil
}

// callOutcomes counts the tools/call requests the fakes received that they
// answered and that they never answered, by tool and arguments.
func callOutcomes(rs []record.Record) (unanswered, answered map[string]int) {
	unanswered, answered = map[string]int{}, map[string]int{}
	type pending struct {
		key  string
		done bool
	}
	open := map[string]*pending{} // instance + id → the call
	var order []*pending
	for _, r := range rs {
		if r.Kind != record.KindMessage && r.Kind != record.KindHTTPResponse {
			continue
		}
		k := r.Instance + " " + string(r.ID)
		switch {
		case r.Dir == "in" && r.Method == "tools/call" && len(r.ID) > 0:
			var p struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			_ = json.Unmarshal(r.Params, &p)
			c := &pending{key: callKey(p.Name, p.Arguments)}
			open[k] = c
			order = append(order, c)
		case r.Dir == "out" && r.Method == "" && len(r.ID) > 0 && r.Error != nil:
			delete(open, k) // an error answer is no result: neither answered nor pending
		case r.Dir == "out" && r.Method == "" && len(r.ID) > 0,
			r.Kind == record.KindHTTPResponse && r.Method == "tools/call" && !r.Aborted && r.Status < 300:
			if c := open[k]; c != nil {
				c.done = true
				delete(open, k)
			}
		}
	}
	for _, c := range order {
		if c.done {
			answered[c.key]++
		} else {
			unanswered[c.key]++
		}
	}
	return unanswered, answered
}

// callKey identifies a call by its tool and its arguments (as decoded
// JSON, so that spacing and key order do not matter).
func callKey(tool string, args json.RawMessage) string {
	var v any
	if len(args) > 0 {
		_ = json.Unmarshal(args, &v)
	}
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		v = nil
	}
	b, _ := json.Marshal(v)
	return tool + " " + string(b)
}

// checkLeftovers records what the adapter process left running when it
// exited (its Close killed them), then waits, bounded, for every fake
// process to exit once the adapter is closed, and records those that
// outlive the scenario.
func (w *world) checkLeftovers(ctx context.Context) {
	for _, l := range w.adapterLeft {
		w.leftovers = append(w.leftovers, finding{invariant: "no process outlives the scenario", rule: w.reapRule(),
			expected: "no process left running once the adapter process has exited",
			actual:   fmt.Sprintf("process %d (%s) was still running; the runner killed it", l.PID, strings.Join(l.Argv, " "))})
	}
	if len(liveProcesses(w.log.Records(), "")) == 0 {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, w.budget(5*time.Second))
	defer cancel()
	_, _ = w.log.Wait(wctx, func(rs []record.Record) bool { return len(liveProcesses(rs, "")) == 0 })
	rs := w.log.Records()
	for _, pid := range liveProcesses(rs, "") {
		server := ""
		for _, r := range rs {
			if r.Kind == record.KindStart && r.PID == pid {
				server = r.Server
			}
		}
		w.leftovers = append(w.leftovers, finding{invariant: "no process outlives the scenario", rule: w.reapRule(),
			expected: "every process the implementation started has exited within 5 s of the end of the scenario",
			actual:   fmt.Sprintf("process %d of %q was still running", pid, server)})
	}
}

// leftoverLines names what the adapter process left running, for the
// evidence.
func (w *world) leftoverLines() []string {
	var out []string
	for _, l := range w.adapterLeft {
		out = append(out, l.String())
	}
	return out
}

// reapRule is the rule that closing reclaims child processes.
func (w *world) reapRule() string {
	if w.opts.System == adapter.Blade {
		return "B-17"
	}
	return "LA-REG-22"
}
