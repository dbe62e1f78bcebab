package conformance

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
)

// Steps that define the scenario's fake MCP servers.

// registerServerSteps defines the steps whose methods are in this file.
func (w *world) registerServerSteps(sc stepDefiner) {
	sc.Step(`^(a stdio|an HTTPS?|an SSE) MCP server "([^"]*)" with tools "([^"]*)"(?: served (\d+) per page)?$`, w.aServerWithTools)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with (\d+) tools?(?: described in (\d+) bytes each)?(?: served (\d+) per page)?( and a cursor that never ends)?$`, w.aServerWithNTools)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with a tool whose name has (\d+) characters$`, w.aServerWithLongToolName)
	sc.Step(`^the full tool names "([^"]*)" have (\d+) characters each$`, w.namesHaveLength)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" that (exits on|never answers) "([^"]*)"$`, w.aServerThatMisbehaves)
	sc.Step(`^(stdio|HTTP) MCP servers "([a-z]+)(\d+)" to "([a-z]+)(\d+)" with tools "([^"]*)"$`, w.serversInRange)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" never answers$`, w.toolNeverAnswers)
}

// transportOf maps "a stdio" / "an HTTP" / "an HTTPS" to a transport.
func transportOf(article string) string {
	switch {
	case strings.Contains(article, "SSE"):
		return "sse"
	case strings.Contains(article, "HTTPS"):
		return "https"
	case strings.Contains(article, "HTTP"):
		return "http"
	}
	return "stdio"
}

// splitNames splits "a, b, c" into names, keeping empty-free entries.
func splitNames(list string) []string {
	var out []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// aServerWithTools: Given a stdio MCP server "p" with tools "a, b" [served N per page]
func (w *world) aServerWithTools(article, name, tools, perPage string) error {
	s := &mcpfake.Script{}
	for _, t := range splitNames(tools) {
		s.Tools = append(s.Tools, defaultTool(name, t))
	}
	if perPage != "" {
		s.PageSize, _ = strconv.Atoi(perPage)
	}
	return w.defineFake(name, transportOf(article), s)
}

// defaultTool is a tool as a scenario declares it by name only: with a
// description and an input schema of its own, so that what the model is
// offered can be told from a generic schema or a lost description (the
// catalog invariant, invariants.go). The schema accepts any arguments a
// scenario's model sends a tool it did not give a schema.
func defaultTool(server, tool string) mcpfake.Tool {
	return mcpfake.Tool{
		Name:        tool,
		Description: fmt.Sprintf("The tool %s of %s.", tool, server),
		InputSchema: json.RawMessage(fmt.Sprintf(`{"type":"object","title":%q,"properties":{"q":{"type":"string","description":"what %s looks for"}}}`, tool, tool)),
	}
}

// aServerWithNTools: Given a stdio MCP server "p" with 128 tools [described
// in N bytes each] [served N per page] [and a cursor that never ends]
func (w *world) aServerWithNTools(article, name string, count int, descBytes, perPage, endless string) error {
	s := &mcpfake.Script{EndlessCursor: endless != ""}
	desc := ""
	if descBytes != "" {
		n, _ := strconv.Atoi(descBytes)
		desc = strings.Repeat("d", n)
	}
	for i := 1; i <= count; i++ {
		s.Tools = append(s.Tools, mcpfake.Tool{Name: fmt.Sprintf("tool_%d", i), Description: desc})
	}
	if perPage != "" {
		s.PageSize, _ = strconv.Atoi(perPage)
	}
	return w.defineFake(name, transportOf(article), s)
}

// aServerWithLongToolName: Given a stdio MCP server "p" with a tool whose name has 53 characters
func (w *world) aServerWithLongToolName(article, name string, length int) error {
	tool := strings.Repeat("t", length)
	return w.defineFake(name, transportOf(article), &mcpfake.Script{Tools: []mcpfake.Tool{defaultTool(name, tool)}})
}

// namesHaveLength: Given the full tool names "mcp__docs__a1, mcp__docs__a2"
// have 38 characters each — a check of the scenario's own text, so that a
// row of an outline tests the length it says it does.
func (w *world) namesHaveLength(names string, n int) error {
	for _, name := range splitNames(names) {
		if got := utf8.RuneCountInString(name); got != n {
			return fmt.Errorf("the scenario says %q has %d characters; it has %d", name, n, got)
		}
	}
	return nil
}

// aServerThatMisbehaves: Given a stdio MCP server "p" that exits on "tools/list"
func (w *world) aServerThatMisbehaves(article, name, behaviour, method string) error {
	f := mcpfake.Fault{Method: method}
	switch behaviour {
	case "exits on":
		f.Exit = true
	case "never answers":
		f.Hang = true
	}
	s := &mcpfake.Script{Tools: []mcpfake.Tool{defaultTool(name, "ok")}, Faults: []mcpfake.Fault{f}}
	return w.defineFake(name, transportOf(article), s)
}

// serversInRange: Given HTTP MCP servers "s1" to "s33" with tools "t"
func (w *world) serversInRange(kind, prefix string, from int, prefix2 string, to int, tools string) error {
	if prefix != prefix2 || from > to {
		return fmt.Errorf("a range of servers needs one prefix and from <= to, not %s%d to %s%d", prefix, from, prefix2, to)
	}
	article := "a stdio"
	if kind == "HTTP" {
		article = "an HTTP"
	}
	for i := from; i <= to; i++ {
		if err := w.aServerWithTools(article, fmt.Sprintf("%s%d", prefix, i), tools, ""); err != nil {
			return err
		}
	}
	return nil
}

// toolNeverAnswers: Given the tool "slow" of "p" never answers
func (w *world) toolNeverAnswers(tool, name string) error {
	f, err := w.fake(name)
	if err != nil {
		return err
	}
	if f.script.Calls == nil {
		f.script.Calls = map[string]mcpfake.Call{}
	}
	f.script.Calls[tool] = mcpfake.Call{Hang: true}
	return nil
}

// rawJSON checks that s is JSON, for steps that take JSON inline.
func rawJSON(s string) (json.RawMessage, error) {
	if !json.Valid([]byte(s)) {
		return nil, fmt.Errorf("%q is not valid JSON", s)
	}
	return json.RawMessage(s), nil
}
