package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// Steps that script what a fake does with a tool call (issue 5): its
// schemas, its result, its progress, latches and catalog changes.

// registerCallSteps defines the steps whose methods are in this file.
func (w *world) registerCallSteps(sc stepDefiner) {
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with tools "([^"]*)" and the instructions "([^"]*)"$`, w.serverWithInstructions)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" has the (input|output) schema (\{.*\})$`, w.toolHasSchema)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" waits for the latch "([^"]*)"$`, w.toolWaitsAtLatch)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" reports progress (\d+(?:\.\d+)?(?: of \d+(?:\.\d+)?)?(?: "[^"]*")?(?:, then \d+(?:\.\d+)?(?: of \d+(?:\.\d+)?)?(?: "[^"]*")?)*(?:, then waits for the latch "[^"]*")?)$`, w.toolReportsProgress)
	sc.Step(`^after answering "([^"]*)", "([^"]*)" changes its tools to "([^"]*)"$`, w.changesTools)
	sc.Step(`^after answering "([^"]*)", "([^"]*)" changes its tools to:$`, w.changesToolsTo)
	sc.Step(`^after answering "([^"]*)", "([^"]*)" forgets every session$`, w.forgetsSessions)
	sc.Step(`^the latch "([^"]*)" is released$`, w.latchReleased)
	sc.Step(`^"([^"]*)" sent "([^"]*)"$`, w.sent)
	sc.Step(`^"([^"]*)" received a call of the tool "([^"]*)" with the arguments (\{.*\})$`, w.receivedCallWithArgs)
	sc.Step(`^"([^"]*)" received a progress token with its call of the tool "([^"]*)"$`, w.receivedProgressToken)
}

// scriptTool returns a tool of a fake's script.
func (w *world) scriptTool(name, tool string) (*mcpfake.Tool, error) {
	s, err := w.script(name)
	if err != nil {
		return nil, err
	}
	for i := range s.Tools {
		if s.Tools[i].Name == tool {
			return &s.Tools[i], nil
		}
	}
	return nil, fmt.Errorf("%q has no tool %q", name, tool)
}

// serverWithInstructions: Given a stdio MCP server "p" with tools "a" and the instructions "..."
func (w *world) serverWithInstructions(article, name, tools, instructions string) error {
	if err := w.aServerWithTools(article, name, tools, ""); err != nil {
		return err
	}
	w.fakes[name].script.Instructions = instructions
	return nil
}

// toolHasSchema: Given the tool "t" of "p" has the input schema {...}
func (w *world) toolHasSchema(tool, name, which, schema string) error {
	t, err := w.scriptTool(name, tool)
	if err != nil {
		return err
	}
	raw, err := rawJSON(schema)
	if err != nil {
		return err
	}
	if which == "input" {
		t.InputSchema = raw
	} else {
		t.OutputSchema = raw
	}
	return nil
}

// markedText returns n bytes of text made of 15-byte markers
// "[LA-M-00000000]", whose numbers tell where in the text a piece comes
// from. No JSON encoder escapes any of their characters.
func markedText(n int) string {
	var b strings.Builder
	b.Grow(n + markerWidth)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "[LA-M-%08d]", i)
	}
	return b.String()[:n]
}

// markerWidth is the width of one marker of [markedText].
const markerWidth = len("[LA-M-00000000]")

// markerRE finds the markers of [markedText].
var markerRE = regexp.MustCompile(`\[LA-M-(\d{8})\]`)

// firstMarker returns the number of the first whole marker in s, or -1.
func firstMarker(s string) int {
	m := markerRE.FindStringSubmatch(s)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// toolAnswersWithContent handles the content forms of "the tool answers
// with ...": the text "x", the error "x", the result {...} and a marked
// text of N KiB. It reports whether how was one of them.
func (w *world) toolAnswersWithContent(tool, name, how string) (bool, error) {
	var text string
	switch {
	case scanQuoted(how, "the text ", &text):
		return true, w.setCall(tool, name, func(c *mcpfake.Call) { c.Text = text })
	case scanQuoted(how, "the error ", &text):
		return true, w.setCall(tool, name, func(c *mcpfake.Call) { c.Text, c.IsError = text, true })
	case strings.HasPrefix(how, "the result "):
		rendered, err := w.render(strings.TrimPrefix(how, "the result "))
		if err != nil {
			return true, err
		}
		raw, err := rawJSON(rendered)
		if err != nil {
			return true, err
		}
		return true, w.setCall(tool, name, func(c *mcpfake.Call) { c.Result = raw })
	case strings.HasPrefix(how, "a marked text of "):
		n, err := parseSize(strings.TrimPrefix(how, "a marked text of "))
		if err != nil {
			return true, err
		}
		text := markedText(int(n))
		w.marked[tool] = text
		return true, w.setCall(tool, name, func(c *mcpfake.Call) { c.Text = text })
	}
	return false, nil
}

// toolWaitsAtLatch: Given the tool "slow" of "p" waits for the latch "finish"
func (w *world) toolWaitsAtLatch(tool, name, latch string) error {
	return w.setCall(tool, name, func(c *mcpfake.Call) { c.Latch = latch })
}

// progressRE reads one progress step: `1`, `1 of 3` or `1 of 3 "step"`.
var progressRE = regexp.MustCompile(`^(\d+(?:\.\d+)?)(?: of (\d+(?:\.\d+)?))?(?: "([^"]*)")?$`)

// toolReportsProgress: Given the tool "search" of "docs" reports progress
// 1 of 3 "step", then 2[, then waits for the latch "x"]
func (w *world) toolReportsProgress(tool, name, steps string) error {
	var progress []mcpfake.Progress
	latch := ""
	for i, part := range strings.Split(steps, ", then ") {
		if scanQuoted(part, "waits for the latch ", &latch) {
			continue
		}
		m := progressRE.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			return fmt.Errorf("progress step %d %q: want N, N of M or N of M \"message\"", i+1, part)
		}
		p := mcpfake.Progress{Message: m[3]}
		p.Progress, _ = strconv.ParseFloat(m[1], 64)
		if m[2] != "" {
			total, _ := strconv.ParseFloat(m[2], 64)
			p.Total = &total
		}
		progress = append(progress, p)
	}
	return w.setCall(tool, name, func(c *mcpfake.Call) {
		c.Progress = progress
		if latch != "" {
			c.Latch = latch
		}
	})
}

// changesTools: Given after answering "search", "docs" changes its tools to "search, summarize"
func (w *world) changesTools(tool, name, tools string) error {
	list := []mcpfake.Tool{}
	for _, t := range splitNames(tools) {
		list = append(list, defaultTool(name, t))
	}
	return w.setCall(tool, name, func(c *mcpfake.Call) { c.ThenTools = &list })
}

// changesToolsTo: Given after answering "search", "docs" changes its tools to: <JSON>
func (w *world) changesToolsTo(tool, name string, doc string) error {
	var list []mcpfake.Tool
	if err := json.Unmarshal([]byte(doc), &list); err != nil {
		return fmt.Errorf("the new tools of %q are not a JSON array of tools: %w", name, err)
	}
	return w.setCall(tool, name, func(c *mcpfake.Call) { c.ThenTools = &list })
}

// forgetsSessions: Given after answering "a", "h" forgets every session —
// an HTTP fake answers 404 to everything afterwards; a stdio fake exits.
func (w *world) forgetsSessions(tool, name string) error {
	return w.setCall(tool, name, func(c *mcpfake.Call) { c.ExitAfterAnswer = true })
}

// latchReleased: When the latch "finish" is released
func (w *world) latchReleased(latch string) error {
	w.rec.Release(latch)
	return nil
}

// sent: When "docs" sent "notifications/tools/list_changed" — waits until
// the fake has sent that message.
func (w *world) sent(ctx context.Context, name, method string) error {
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	if _, err := w.log.Wait(sctx, func(rs []record.Record) bool { return len(sentBy(rs, name, method)) > 0 }); err != nil {
		return fmt.Errorf("%q never sent %q: %w", name, method, err)
	}
	return nil
}

// sentBy returns the messages of method a fake sent.
func sentBy(rs []record.Record, name, method string) []record.Record {
	var out []record.Record
	for _, r := range rs {
		if r.Server == name && r.Kind == record.KindMessage && r.Dir == "out" && r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

// receivedCallWithArgs: Then "p" received a call of the tool "t" with the arguments {...}
func (w *world) receivedCallWithArgs(name, tool, args string) error {
	want, err := rawJSON(args)
	if err != nil {
		return err
	}
	calls := toolCalls(w.log.Records(), name, tool)
	var got []string
	for _, c := range calls {
		var p struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(c.Params, &p)
		if jsonEqual(p.Arguments, want) {
			return w.expect(true, "", "")
		}
		got = append(got, string(p.Arguments))
	}
	return w.expect(false, fmt.Sprintf("%q received a call of %q with the arguments %s", name, tool, want), "calls with %v", got)
}

// receivedProgressToken: Then "docs" received a progress token with its call of the tool "search"
func (w *world) receivedProgressToken(name, tool string) error {
	calls := toolCalls(w.log.Records(), name, tool)
	for _, c := range calls {
		var p struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		_ = json.Unmarshal(c.Params, &p)
		if tok, ok := p.Meta["progressToken"]; ok && string(tok) != "null" && string(tok) != `""` {
			return w.expect(true, "", "")
		}
	}
	return w.expect(false, fmt.Sprintf("a call of %q to %q carries params._meta.progressToken", tool, name), "%s", summarize(calls))
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}
