package conformance

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpconform/mcpconform/fakes/mcpfake"
)

// Steps that script the fakes' protocol and byte-level behaviour
// (transports, network, limits): issue 4's vocabulary.

// registerWireSteps defines the steps whose methods are in this file.
func (w *world) registerWireSteps(sc stepDefiner) {
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with tools "([^"]*)" speaking only protocol "([^"]*)"$`, w.speakingOnly)
	sc.Step(`^(an HTTP) MCP server "([^"]*)" with tools "([^"]*)" answering with JSON$`, w.answeringJSON)
	sc.Step(`^(an HTTP) MCP server "([^"]*)" with tools "([^"]*)" served by go-sdk's stateful HTTP handler$`, w.statefulServer)
	sc.Step(`^(an HTTP) MCP server "([^"]*)" with tools "([^"]*)" that only speaks the legacy HTTP\+SSE transport$`, w.legacyOnly)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with tools "([^"]*)" offering resources "([^"]*)" and prompts "([^"]*)"$`, w.offering)
	sc.Step(`^(a stdio) MCP server "([^"]*)" with tools "([^"]*)" that keeps running when its stdin closes$`, w.keepsRunning)
	sc.Step(`^(an HTTPS?) MCP server "([^"]*)" with tools "([^"]*)" that redirects "([^"]*)" with (\d+) to "([^"]*)"$`, w.redirects)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with tools "([^"]*)" that answers "([^"]*)" after (\d+) ms$`, w.answersAfter)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with tools "([^"]*)" that waits for the latch "([^"]*)" before answering "([^"]*)"$`, w.waitsForLatchBefore)
	sc.Step(`^(a stdio) MCP server "([^"]*)" with tools "([^"]*)" that writes (\d+ [KM]iB) to stderr before answering "([^"]*)"$`, w.floodsStderr)
	sc.Step(`^(a stdio) MCP server "([^"]*)" with tools "([^"]*)" that writes "([^"]*)" to stderr$`, w.writesText)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" answers with (the text "[^"]*"|the error "[^"]*"|the result \{.*\}|a marked text of \d+ (?:bytes|KiB|MiB)|a message of \d+ bytes|a body that never ends|a body that never ends under Content-Length 10|a JSON body of \d+ bytes|one event of \d+ bytes)$`, w.toolAnswersWith)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" answers after (\d+) ms$`, w.toolAnswersAfter)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" exits instead of answering$`, w.toolExits)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" crashes instead of answering$`, w.toolCrashes)
	sc.Step(`^"([^"]*)" answers its next "([^"]*)" request with HTTP (\d+) and the body "([^"]*)"$`, w.answersWithStatus)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" writes (\d+ [KM]iB) to stderr before answering$`, w.toolWritesStderr)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" asks the client for "([^"]*)"$`, w.toolAsksClient)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" is annotated (\{.*\})$`, w.toolAnnotated)
}

// script returns a defined fake's script.
func (w *world) script(name string) (*mcpfake.Script, error) {
	f, err := w.fake(name)
	if err != nil {
		return nil, err
	}
	if f.url != "" || (f.path != "" && w.adapter != nil) {
		return nil, fmt.Errorf("%q is already in use; script it before it is declared", name)
	}
	return f.script, nil
}

// call returns the scripted answer of a tool, creating it.
func (w *world) call(tool, name string) (*mcpfake.Script, mcpfake.Call, error) {
	s, err := w.script(name)
	if err != nil {
		return nil, mcpfake.Call{}, err
	}
	if s.Calls == nil {
		s.Calls = map[string]mcpfake.Call{}
	}
	c, ok := s.Calls[tool]
	if !ok {
		c = mcpfake.Call{Text: "ok"}
	}
	return s, c, nil
}

// setCall scripts how a tool answers: Given the tool "big" of "p" ...
func (w *world) setCall(tool, name string, change func(*mcpfake.Call)) error {
	s, c, err := w.call(tool, name)
	if err != nil {
		return err
	}
	change(&c)
	s.Calls[tool] = c
	return nil
}

// parseSize reads "16 MiB", "64 KiB" or "4194305 bytes".
func parseSize(s string) (int64, error) {
	fields := strings.Fields(s)
	if len(fields) != 2 {
		return 0, fmt.Errorf("size %q: want a number and a unit", s)
	}
	n, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: %w", s, err)
	}
	switch fields[1] {
	case "bytes", "byte":
		return n, nil
	case "KiB":
		return n << 10, nil
	case "MiB":
		return n << 20, nil
	}
	return 0, fmt.Errorf("size %q: unknown unit %q", s, fields[1])
}

// speakingOnly: Given a stdio MCP server "old" with tools "search" speaking only protocol "2025-06-18"
func (w *world) speakingOnly(article, name, tools, version string) error {
	if err := w.aServerWithTools(article, name, tools, ""); err != nil {
		return err
	}
	w.fakes[name].script.ProtocolVersions = []string{version}
	return nil
}

// statefulServer: Given an HTTP MCP server "old" with tools "search" served
// by go-sdk's stateful HTTP handler — a real server of the protocols
// before 2026-07-28.
func (w *world) statefulServer(article, name, tools string) error {
	if err := w.aServerWithTools(article, name, tools, ""); err != nil {
		return err
	}
	w.fakes[name].script.HTTP = &mcpfake.HTTPBehaviour{Stateful: true}
	return nil
}

// answeringJSON: Given an HTTP MCP server "p" with tools "search" answering with JSON
func (w *world) answeringJSON(article, name, tools string) error {
	if err := w.aServerWithTools(article, name, tools, ""); err != nil {
		return err
	}
	w.fakes[name].script.HTTP = &mcpfake.HTTPBehaviour{JSONResponse: true}
	return nil
}

// legacyOnly: Given an HTTP MCP server "legacy" with tools "search" that only speaks the legacy HTTP+SSE transport
func (w *world) legacyOnly(article, name, tools string) error {
	if err := w.aServerWithTools(article, name, tools, ""); err != nil {
		return err
	}
	w.fakes[name].script.HTTP = &mcpfake.HTTPBehaviour{LegacyOnly: true}
	return nil
}

// offering: Given a stdio MCP server "p" with tools "search" offering resources "a, b" and prompts "c"
func (w *world) offering(article, name, tools, resources, prompts string) error {
	if err := w.aServerWithTools(article, name, tools, ""); err != nil {
		return err
	}
	s := w.fakes[name].script
	s.Resources, s.Prompts = splitNames(resources), splitNames(prompts)
	return nil
}

// keepsRunning: Given a stdio MCP server "p" with tools "a" that keeps running when its stdin closes
func (w *world) keepsRunning(article, name, tools string) error {
	if err := w.aServerWithTools(article, name, tools, ""); err != nil {
		return err
	}
	w.fakes[name].script.IgnoreStdinClose = true
	return nil
}

// redirects: Given an HTTP MCP server "h" with tools "search" that redirects "tools/call" with 302 to "elsewhere"
func (w *world) redirects(article, name, tools, method string, status int, target string) error {
	if err := w.aServerWithTools(article, name, tools, ""); err != nil {
		return err
	}
	if _, err := w.fake(target); err != nil {
		return err
	}
	w.fakes[name].script.HTTP = &mcpfake.HTTPBehaviour{Redirects: []mcpfake.Redirect{{Method: method, Status: status, Location: "/mcp/" + target}}}
	return nil
}

// answersAfter: Given a stdio MCP server "p" with tools "a" that answers "server/discover" after 3000 ms
func (w *world) answersAfter(article, name, tools, method string, ms int) error {
	if err := w.aServerWithTools(article, name, tools, ""); err != nil {
		return err
	}
	s := w.fakes[name].script
	s.Faults = append(s.Faults, mcpfake.Fault{Method: method, DelayMs: ms})
	return nil
}

// waitsForLatchBefore: Given a stdio MCP server "p" with tools "a" that
// waits for the latch "up" before answering "server/discover" — the
// request is held for as long as the scenario needs, until a step
// releases the latch: an operation in progress without a delay to guess.
func (w *world) waitsForLatchBefore(article, name, tools, latch, method string) error {
	if err := w.aServerWithTools(article, name, tools, ""); err != nil {
		return err
	}
	s := w.fakes[name].script
	s.Faults = append(s.Faults, mcpfake.Fault{Method: method, Latch: latch})
	return nil
}

// floodsStderr: Given a stdio MCP server "p" with tools "noisy" that writes 16 MiB to stderr before answering "server/discover"
func (w *world) floodsStderr(article, name, tools, size, method string) error {
	n, err := parseSize(size)
	if err != nil {
		return err
	}
	if err := w.aServerWithTools(article, name, tools, ""); err != nil {
		return err
	}
	s := w.fakes[name].script
	s.Faults = append(s.Faults, mcpfake.Fault{Method: method, StderrBytes: n})
	return nil
}

// writesText: Given a stdio MCP server "p" with tools "noisy" that writes "CANARY" to stderr
func (w *world) writesText(article, name, tools, text string) error {
	if err := w.aServerWithTools(article, name, tools, ""); err != nil {
		return err
	}
	s := w.fakes[name].script
	s.StderrText, s.StderrOnStart = text, 64<<10
	return nil
}

// toolAnswersWith: Given the tool "big" of "h" answers with <how>
func (w *world) toolAnswersWith(tool, name, how string) error {
	f, err := w.fake(name)
	if err != nil {
		return err
	}
	if ok, err := w.toolAnswersWithContent(tool, name, how); ok {
		return err
	}
	if f.transport == "stdio" {
		var n int64
		if _, err := fmt.Sscanf(how, "a message of %d bytes", &n); err != nil {
			return fmt.Errorf("a stdio tool answers with \"a message of N bytes\", not %q", how)
		}
		return w.setCall(tool, name, func(c *mcpfake.Call) { c.Bytes = n })
	}
	var body mcpfake.Body
	var n int64
	switch {
	case how == "a body that never ends":
		body = mcpfake.Body{Mode: mcpfake.BodyUnbounded}
	case how == "a body that never ends under Content-Length 10":
		body = mcpfake.Body{Mode: mcpfake.BodyLyingLength}
	case scan(how, "a JSON body of %d bytes", &n):
		body = mcpfake.Body{Mode: mcpfake.BodyExact, Bytes: n}
	case scan(how, "one event of %d bytes", &n):
		body = mcpfake.Body{Mode: mcpfake.BodySSEEvent, Bytes: n}
	default:
		return fmt.Errorf("unknown HTTP answer %q", how)
	}
	body.Method, body.Tool = "tools/call", tool
	s, err := w.script(name)
	if err != nil {
		return err
	}
	if s.HTTP == nil {
		s.HTTP = &mcpfake.HTTPBehaviour{}
	}
	s.HTTP.Bodies = append(s.HTTP.Bodies, body)
	return nil
}

// scan reports whether s matches format exactly.
func scan(s, format string, n *int64) bool {
	_, err := fmt.Sscanf(s, format, n)
	return err == nil && fmt.Sprintf(format, *n) == s
}

// toolAnswersAfter: Given the tool "slow" of "p" answers after 50 ms
func (w *world) toolAnswersAfter(tool, name string, ms int) error {
	return w.setCall(tool, name, func(c *mcpfake.Call) { c.DelayMs = ms })
}

// toolExits: Given the tool "act" of "p" exits instead of answering
func (w *world) toolExits(tool, name string) error {
	return w.setCall(tool, name, func(c *mcpfake.Call) { c.Exit = true })
}

// toolCrashes: Given the tool "bad" of "p" crashes instead of answering —
// the stdio fake kills itself with SIGKILL (the HTTP fake drops the
// connection).
func (w *world) toolCrashes(tool, name string) error {
	return w.setCall(tool, name, func(c *mcpfake.Call) { c.Crash = true })
}

// answersWithStatus: Given "h" answers its next "tools/call" request with
// HTTP 413 and the body "too large" — once; later requests are served.
func (w *world) answersWithStatus(name, method string, status int, body string) error {
	f, err := w.fake(name)
	if err != nil {
		return err
	}
	if f.transport == "stdio" {
		return fmt.Errorf("%q is a stdio server: only an HTTP server answers with an HTTP status", name)
	}
	s := f.script
	if s.HTTP == nil {
		s.HTTP = &mcpfake.HTTPBehaviour{}
	}
	s.HTTP.Status = append(s.HTTP.Status, mcpfake.StatusReply{Method: method, Status: status, Body: body, Times: 1})
	return nil
}

// toolWritesStderr: Given the tool "noisy" of "p" writes 16 MiB to stderr before answering
func (w *world) toolWritesStderr(tool, name, size string) error {
	n, err := parseSize(size)
	if err != nil {
		return err
	}
	return w.setCall(tool, name, func(c *mcpfake.Call) { c.StderrBytes = n })
}

// toolAsksClient: Given the tool "ask" of "p" asks the client for "sampling/createMessage, roots/list"
func (w *world) toolAsksClient(tool, name, methods string) error {
	return w.setCall(tool, name, func(c *mcpfake.Call) { c.AskClient = splitNames(methods) })
}

// toolAnnotated: Given the tool "act" of "p" is annotated {"readOnlyHint": true}
func (w *world) toolAnnotated(tool, name, annotations string) error {
	t, err := w.scriptTool(name, tool)
	if err != nil {
		return err
	}
	a, err := rawJSON(annotations)
	if err != nil {
		return err
	}
	t.Annotations = a
	return nil
}

// metaProtocolVersion is the _meta key of the protocol version of a
// 2026-07-28 request.
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// requestedVersion is the protocol version a request asked for: its _meta
// version, or initialize's protocolVersion.
func requestedVersion(method string, params json.RawMessage) string {
	var p struct {
		ProtocolVersion string         `json:"protocolVersion"`
		Meta            map[string]any `json:"_meta"`
	}
	_ = json.Unmarshal(params, &p)
	if v, ok := p.Meta[metaProtocolVersion].(string); ok {
		return v
	}
	if method == "initialize" {
		return p.ProtocolVersion
	}
	return ""
}
