package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/cucumber/godog"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Steps of the Blade profile: a session's configuration and its runtime
// API (mcpServerStatus, mcpConnect, mcpDisconnect, mcpReconnect,
// mcpListTools).

// registerBladeSteps defines the steps whose methods are in this file.
func (w *world) registerBladeSteps(sc stepDefiner) {
	sc.Step(`^the mcpServers option declares "([^"]*)" with (\{.*\})$`, w.declaresWith)
	sc.Step(`^the mcpServers option declares a stdio server "([^"]*)" running "([^"]*)"$`, w.declaresCommand)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with the tool "([^"]*)" described as "([^"]*)"$`, w.toolDescribed)
	sc.Step(`^the host calls (mcpConnect|mcpDisconnect|mcpReconnect)\("([^"]*)"\)( in the background)?$`, w.runtimeCall)
	sc.Step(`^mcpServerStatus\(\) shows exactly the servers "([^"]*)"$`, w.statusServers)
	sc.Step(`^mcpServerStatus\(\) shows "([^"]*)" as "(connected|disconnected|connecting|error)"(?: with (\d+) tools?)?$`, w.statusIs)
	sc.Step(`^mcpServerStatus\(\) shows "([^"]*)" as "connecting" while the background operation runs$`, w.statusConnecting)
	sc.Step(`^every mcpServerStatus\(\) entry seen had Blade's shape$`, w.statusShapes)
	sc.Step(`^the connectedAt of "([^"]*)" is later than before$`, w.connectedLater)
	sc.Step(`^mcpListTools\(\) lists exactly the tools of "([^"]*)"$`, w.listsToolsOf)
	sc.Step(`^mcpListTools\(\) lists "([^"]*)" of "([^"]*)" described as "([^"]*)"$`, w.listsToolDescribed)
	sc.Step(`^of "([^"]*)" and "([^"]*)" only "([^"]*)" failed, for a name collision$`, w.collidedStep)
	sc.Step(`^the host's permission callback answers "(allow|ask|deny)"(?: for "([^"]*)")?$`, w.permissionAnswers)
	sc.Step(`^the permission callback was asked about "([^"]*)"$`, w.permissionAsked)
	sc.Step(`^"([^"]*)" soon received "([^"]*)" (\d+) times?$`, w.soonReceivedTimes)
	sc.Step(`^"([^"]*)" received no "([^"]*)" within (\d+) milliseconds$`, w.receivedNoneWithin)
	sc.Step(`^mcpServerStatus\(\) soon shows "([^"]*)" no longer connected$`, w.statusLeavesConnected)
	sc.Step(`^every model request offered (the non-MCP tools before the MCP tools|the non-MCP tools in code-unit order|the MCP tools in code-unit order)$`, w.toolOrder)
	sc.Step(`^every model request offered "([^"]*)" exactly once$`, w.offeredOnce)
	sc.Step(`^every model request offered the (host's|MCP) tools in exactly this order:$`, w.exactOrder)
}

// bladeState is what a Blade scenario observed of its session.
type bladeState struct {
	// statuses are the mcpServerStatus() answers so far, in order.
	statuses [][]adapter.BladeServerStatus
	// shapeErrors are the entries of those answers that broke Blade's
	// McpServerStatus shape (BL-RT-02).
	shapeErrors []string
}

// bladeStatusWords are the statuses McpServerStatus allows (BL-RT-02).
var bladeStatusWords = []string{"connected", "disconnected", "connecting", "error"}

// declaresWith: Given the mcpServers option declares "p" with {"disabled": true}
// — the fake's entry with the given fields set (or replaced).
func (w *world) declaresWith(name, fields string) error {
	e, err := w.entry(name)
	if err != nil {
		return err
	}
	var entry, extra map[string]any
	if err := json.Unmarshal(e, &entry); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(fields), &extra); err != nil {
		return fmt.Errorf("the fields %s are not a JSON object: %v", fields, err)
	}
	maps.Copy(entry, extra)
	raw, err := json.Marshal(entry)
	if err != nil {
		return err
	}
	return w.addEntry(srcOption, name, raw)
}

// declaresCommand: Given the mcpServers option declares a stdio server "gone" running "mcpconform-no-such-command"
func (w *world) declaresCommand(name, command string) error {
	raw, _ := json.Marshal(map[string]any{"type": "stdio", "command": command})
	return w.addEntry(srcOption, name, raw)
}

// toolDescribed: Given a stdio MCP server "p" with the tool "search" described as "finds things"
func (w *world) toolDescribed(article, name, tool, description string) error {
	return w.defineFake(name, transportOf(article), &mcpfake.Script{Tools: []mcpfake.Tool{{Name: tool, Description: description}}})
}

// runtimeCall: When the host calls mcpConnect("p") [in the background]
func (w *world) runtimeCall(ctx context.Context, method, name, background string) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	ops := map[string]struct {
		op adapter.Operation
		f  func(context.Context, string) error
	}{
		"mcpConnect":    {adapter.OpMCPConnect, w.agent.MCPConnect},
		"mcpDisconnect": {adapter.OpMCPDisconnect, w.agent.MCPDisconnect},
		"mcpReconnect":  {adapter.OpMCPReconnect, w.agent.MCPReconnect},
	}
	o := ops[method]
	if err := w.need(o.op); err != nil {
		return err
	}
	what := fmt.Sprintf("%s(%q)", method, name)
	if background != "" {
		return w.inBackground(ctx, what, func(ctx context.Context) error { return o.f(ctx, name) })
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	return w.settle(what, o.f(sctx, name))
}

// readStatus calls mcpServerStatus() and keeps the answer, checking
// every entry's shape (BL-RT-02).
func (w *world) readStatus(ctx context.Context) ([]adapter.BladeServerStatus, error) {
	if err := w.needAgent(); err != nil {
		return nil, err
	}
	if err := w.need(adapter.OpMCPStatus); err != nil {
		return nil, err
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	st, err := w.agent.MCPStatus(sctx)
	if err != nil {
		return nil, fmt.Errorf("mcpServerStatus() failed: %w", err)
	}
	w.bladeState.statuses = append(w.bladeState.statuses, st)
	for _, s := range st {
		if p := bladeShapeProblem(s); p != "" {
			w.bladeState.shapeErrors = append(w.bladeState.shapeErrors, fmt.Sprintf("%s: %s", s.Name, p))
		}
	}
	return st, nil
}

// bladeShapeProblem says what is wrong with an McpServerStatus, or "".
func bladeShapeProblem(s adapter.BladeServerStatus) string {
	switch {
	case !slices.Contains(bladeStatusWords, s.Status):
		return fmt.Sprintf("status %q is none of %v", s.Status, bladeStatusWords)
	case s.ToolCount == nil:
		return "toolCount is not a number"
	case *s.ToolCount < 0 || *s.ToolCount != float64(int(*s.ToolCount)):
		return fmt.Sprintf("toolCount %v is not a count", *s.ToolCount)
	case s.Tools != nil && len(s.Tools) != int(*s.ToolCount):
		return fmt.Sprintf("toolCount %v but %d tools", *s.ToolCount, len(s.Tools))
	}
	if s.ConnectedAt != "" {
		if _, err := time.Parse(time.RFC3339Nano, s.ConnectedAt); err != nil {
			return fmt.Sprintf("connectedAt %q is not a time: %v", s.ConnectedAt, err)
		}
	}
	return ""
}

// statusOf finds a server's entry.
func statusOf(st []adapter.BladeServerStatus, name string) (adapter.BladeServerStatus, bool) {
	i := slices.IndexFunc(st, func(s adapter.BladeServerStatus) bool { return s.Name == name })
	if i < 0 {
		return adapter.BladeServerStatus{}, false
	}
	return st[i], true
}

// describeStatuses renders status entries for Actual.
func describeStatuses(st []adapter.BladeServerStatus) string {
	var parts []string
	for _, s := range st {
		n := "null"
		if s.ToolCount != nil {
			n = fmt.Sprint(*s.ToolCount)
		}
		p := fmt.Sprintf("%s: %s, toolCount %s, tools %v", s.Name, s.Status, n, s.Tools)
		if s.ConnectedAt != "" {
			p += ", connectedAt " + s.ConnectedAt
		}
		if s.Error != "" {
			p += ", error " + safetext.Cap(s.Error, 80)
		}
		parts = append(parts, p)
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// statusServers: Then mcpServerStatus() shows exactly the servers "a, b, c"
func (w *world) statusServers(ctx context.Context, names string) error {
	st, err := w.readStatus(ctx)
	if err != nil {
		return err
	}
	var got []string
	for _, s := range st {
		got = append(got, s.Name)
	}
	want := splitNames(names)
	slices.Sort(got)
	slices.Sort(want)
	return w.expect(slices.Equal(got, want), fmt.Sprintf("one entry for each of %v, named by its key", want), "%s", describeStatuses(st))
}

// statusIs: Then mcpServerStatus() shows "p" as "connected" [with 3 tools]
func (w *world) statusIs(ctx context.Context, name, status, tools string) error {
	st, err := w.readStatus(ctx)
	if err != nil {
		return err
	}
	s, ok := statusOf(st, name)
	expected := fmt.Sprintf("%q is %s", name, status)
	if !ok {
		return w.expect(false, expected, "it is not listed: %s", describeStatuses(st))
	}
	if p := bladeShapeProblem(s); p != "" {
		return w.expect(false, expected+", as an McpServerStatus", "%s", p)
	}
	var problems []string
	if s.Status != status {
		problems = append(problems, "status "+s.Status)
	}
	if tools != "" {
		n := atoi(tools)
		expected += fmt.Sprintf(" with toolCount %d", n)
		if int(*s.ToolCount) != n {
			problems = append(problems, fmt.Sprintf("toolCount %v", *s.ToolCount))
		}
	}
	switch status {
	case "connected":
		expected += ", connected at a time no later than now"
		at, err := time.Parse(time.RFC3339Nano, s.ConnectedAt)
		if err != nil || at.After(time.Now()) {
			problems = append(problems, fmt.Sprintf("connectedAt %q", s.ConnectedAt))
		}
	case "disconnected":
		expected += ", with toolCount 0, no tools and no connectedAt (interpretation B-20)"
		if *s.ToolCount != 0 || len(s.Tools) != 0 || s.ConnectedAt != "" {
			problems = append(problems, fmt.Sprintf("toolCount %v, tools %v, connectedAt %q", *s.ToolCount, s.Tools, s.ConnectedAt))
		}
	case "error":
		expected += ", with an error message"
		if strings.TrimSpace(s.Error) == "" {
			problems = append(problems, "no error message")
		}
	}
	return w.expect(len(problems) == 0, expected, "%s (%s)", strings.Join(problems, "; "), describeStatuses(st))
}

// statusConnecting: Then mcpServerStatus() shows "p" as "connecting" while the background operation runs
func (w *world) statusConnecting(ctx context.Context, name string) error {
	if w.bg == nil {
		return fmt.Errorf("no operation runs in the background")
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	var last []adapter.BladeServerStatus
	err := poll(sctx, w.bg.done, func() (bool, error) {
		st, err := w.readStatus(sctx)
		last = st
		s, ok := statusOf(st, name)
		return ok && s.Status == "connecting", err
	})
	expected := fmt.Sprintf("%q reported connecting while it connected", name)
	switch {
	case errors.Is(err, errPollStopped):
		return w.expect(false, expected, "the operation ended first; last seen %s", describeStatuses(last))
	case sctx.Err() != nil:
		return w.expect(false, expected, "never within the step's time; last seen %s", describeStatuses(last))
	case err != nil:
		return err
	}
	return w.expect(true, expected, "")
}

// statusShapes: Then every mcpServerStatus() entry seen had Blade's shape
func (w *world) statusShapes() error {
	if len(w.bladeState.statuses) == 0 {
		return w.expect(false, "mcpServerStatus() was read", "it never was")
	}
	return w.expect(len(w.bladeState.shapeErrors) == 0, fmt.Sprintf("every entry of %d answers had status in %v, a numeric toolCount matching tools, and a valid connectedAt", len(w.bladeState.statuses), bladeStatusWords),
		"%s", strings.Join(w.bladeState.shapeErrors, "; "))
}

// connectedLater: Then the connectedAt of "p" is later than before — than
// in the first reading that showed it connected.
func (w *world) connectedLater(ctx context.Context, name string) error {
	if _, err := w.readStatus(ctx); err != nil {
		return err
	}
	var times []time.Time
	for _, st := range w.bladeState.statuses {
		if s, ok := statusOf(st, name); ok && s.ConnectedAt != "" {
			if t, err := time.Parse(time.RFC3339Nano, s.ConnectedAt); err == nil {
				times = append(times, t)
			}
		}
	}
	if len(times) < 2 {
		return w.expect(false, fmt.Sprintf("two readings of %q connected", name), "%d", len(times))
	}
	a, b := times[0], times[len(times)-1]
	return w.expect(b.After(a), fmt.Sprintf("the connectedAt of %q later than %s", name, a.Format(time.RFC3339Nano)), "%s", b.Format(time.RFC3339Nano))
}

// mcpListTools calls mcpListTools().
func (w *world) mcpListTools(ctx context.Context) ([]adapter.ToolInfo, error) {
	if err := w.needAgent(); err != nil {
		return nil, err
	}
	if err := w.need(adapter.OpMCPListTools); err != nil {
		return nil, err
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	t, err := w.agent.MCPListTools(sctx)
	if err != nil {
		return nil, fmt.Errorf("mcpListTools() failed: %w", err)
	}
	return t, nil
}

// toolInfoIs reports whether an McpToolInfo is the tool raw of server:
// its name may be the raw name or the exposed one (interpretation B-12).
func toolInfoIs(t adapter.ToolInfo, server, raw string) bool {
	return t.ServerName == server && (t.Name == raw || t.Name == "mcp__"+server+"__"+raw)
}

// describeToolInfos renders McpToolInfo entries for Actual.
func describeToolInfos(ts []adapter.ToolInfo) string {
	var parts []string
	for _, t := range ts {
		parts = append(parts, fmt.Sprintf("%s/%s: %q", t.ServerName, t.Name, t.Description))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// listsToolsOf: Then mcpListTools() lists exactly the tools of "a, b"
func (w *world) listsToolsOf(ctx context.Context, servers string) error {
	ts, err := w.mcpListTools(ctx)
	if err != nil {
		return err
	}
	type want struct{ server, raw string }
	var wants []want
	for _, s := range splitNames(servers) {
		f, err := w.fake(s)
		if err != nil {
			return err
		}
		for _, t := range f.script.Tools {
			wants = append(wants, want{s, t.Name})
		}
	}
	ok := len(ts) == len(wants)
	for _, wt := range wants {
		if !slices.ContainsFunc(ts, func(t adapter.ToolInfo) bool { return toolInfoIs(t, wt.server, wt.raw) }) {
			ok = false
		}
	}
	return w.expect(ok, fmt.Sprintf("exactly the %d tools of %s", len(wants), servers), "%s", describeToolInfos(ts))
}

// listsToolDescribed: Then mcpListTools() lists "search" of "p" described as "finds things"
func (w *world) listsToolDescribed(ctx context.Context, tool, server, description string) error {
	ts, err := w.mcpListTools(ctx)
	if err != nil {
		return err
	}
	ok := slices.ContainsFunc(ts, func(t adapter.ToolInfo) bool {
		return toolInfoIs(t, server, tool) && t.Description == description
	})
	return w.expect(ok, fmt.Sprintf("{name: %q (raw or exposed), description: %q, serverName: %q}", tool, description, server), "%s", describeToolInfos(ts))
}

// collided: Then of "a" and "b" only "b" failed, for a name collision —
// a session refused at creation also satisfies BL-NAME-03; otherwise the
// first stays connected and the second reports error and exposes nothing.
func (w *world) collided(ctx context.Context, first, second string) error {
	if w.agent == nil {
		err := error(nil)
		if w.last != nil {
			err = w.last.err
		}
		k := adapter.KindOf(err)
		return w.expect(k == adapter.KindName || k == adapter.KindConfig, "the session was refused for the collision (kind name or config), or created with the second server failed",
			"no session: %v", err)
	}
	st, err := w.readStatus(ctx)
	if err != nil {
		return err
	}
	a, _ := statusOf(st, first)
	b, _ := statusOf(st, second)
	ts, err := w.mcpListTools(ctx)
	if err != nil {
		return err
	}
	exposed := slices.ContainsFunc(ts, func(t adapter.ToolInfo) bool { return t.ServerName == second })
	return w.expect(a.Status == "connected" && b.Status == "error" && b.Error != "" && !exposed,
		fmt.Sprintf("%q connected; %q in error with a message and none of its tools listed", first, second),
		"%s; tools %s", describeStatuses(st), describeToolInfos(ts))
}

// collidedStep: Then of "my-srv" and "my_srv" only "my_srv" failed, for a name collision
func (w *world) collidedStep(ctx context.Context, first, second, failed string) error {
	if failed != second {
		return fmt.Errorf("the step names the later server, %q, as the one that fails", second)
	}
	return w.collided(ctx, first, second)
}

// permissionAnswers: Given the host's permission callback answers "allow" [for "mcp__fs__read_file"]
// — the session gets a permission callback (advanced.permission).
func (w *world) permissionAnswers(decision, tool string) error {
	w.opts.PermissionCallback = true
	h := w.host
	h.mu.Lock()
	defer h.mu.Unlock()
	if tool == "" {
		h.permitDefault = decision
		return nil
	}
	if h.permits == nil {
		h.permits = map[string]string{}
	}
	h.permits[tool] = decision
	return nil
}

// permissionAsked: Then the permission callback was asked about "mcp__fs__read_file"
func (w *world) permissionAsked(tool string) error {
	h := w.host
	h.mu.Lock()
	reqs := slices.Clone(h.permissions)
	h.mu.Unlock()
	var names []string
	for _, r := range reqs {
		names = append(names, r.ToolName)
	}
	return w.expect(slices.Contains(names, tool), fmt.Sprintf("the permission callback got toolName %q", tool), "it got %q", names)
}

// soonReceivedTimes: Then "p" soon received "ping" 2 times — waits until
// it has received at least that many, then requires exactly that many.
func (w *world) soonReceivedTimes(ctx context.Context, name, method string, n int) error {
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	_, _ = w.log.Wait(sctx, func(rs []record.Record) bool { return len(requestsOf(rs, name, method)) >= n })
	return w.receivedTimes(name, method, "", n)
}

// receivedNoneWithin: Then "p" received no "ping" within 300 milliseconds —
// watches for the whole window: absence has no event to wait on.
func (w *world) receivedNoneWithin(ctx context.Context, name, method string, ms int) error {
	before := len(requestsOf(w.log.Records(), name, method))
	wctx, cancel := context.WithTimeout(ctx, time.Duration(ms)*time.Millisecond)
	defer cancel()
	rs, err := w.log.Wait(wctx, func(rs []record.Record) bool { return len(requestsOf(rs, name, method)) > before })
	got := requestsOf(rs, name, method)
	return w.expect(err != nil && before == 0, fmt.Sprintf("%q received no %s, up to %d ms after the step began", name, method, ms), "%d: %s", len(got), summarize(got))
}

// statusLeavesConnected: Then mcpServerStatus() soon shows "p" no longer connected
func (w *world) statusLeavesConnected(ctx context.Context, name string) error {
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	var last []adapter.BladeServerStatus
	var s adapter.BladeServerStatus
	err := poll(sctx, nil, func() (bool, error) {
		st, err := w.readStatus(sctx)
		last = st
		var ok bool
		s, ok = statusOf(st, name)
		return ok && s.Status != "connected", err
	})
	switch {
	case sctx.Err() != nil:
		return w.expect(false, fmt.Sprintf("%q no longer connected", name), "still %s after %v", describeStatuses(last), w.run.opts.StepTimeout)
	case err != nil:
		return err
	}
	return w.expect(s.Status == "disconnected" || s.Status == "error", fmt.Sprintf("%q disconnected or in error", name), "%s", describeStatuses(last))
}

// isMCPTool reports whether an offered tool is an MCP tool: under the
// namespaced profile (interpretation X-01) its name says so.
func isMCPTool(name string) bool { return strings.HasPrefix(name, "mcp__") }

// toolOrder: Then every model request offered the non-MCP tools before the
// MCP tools | the non-MCP tools in code-unit order | the MCP tools in
// code-unit order (BL-ORD-01..03). A group must hold two tools or more for
// its order to say anything.
func (w *world) toolOrder(what string) error {
	reqs := w.host.modelRequests()
	if len(reqs) == 0 {
		return w.expect(false, "the model was asked", "it never was")
	}
	for i, req := range reqs {
		var names, own, mcp []string
		for _, t := range req.Tools {
			names = append(names, t.Name)
			if isMCPTool(t.Name) {
				mcp = append(mcp, t.Name)
			} else {
				own = append(own, t.Name)
			}
		}
		var ok bool
		var expected string
		switch what {
		case "the non-MCP tools before the MCP tools":
			expected = "every non-MCP tool before every MCP tool, with both present"
			ok = len(own) > 0 && len(mcp) > 0 && slices.Equal(names, append(slices.Clone(own), mcp...))
		case "the non-MCP tools in code-unit order":
			expected = "two or more non-MCP tools, sorted by name (UTF-16 code units, B-14)"
			ok = len(own) >= 2 && slices.IsSortedFunc(own, compareUTF16)
		case "the MCP tools in code-unit order":
			expected = "two or more MCP tools, sorted by name (UTF-16 code units, B-14)"
			ok = len(mcp) >= 2 && slices.IsSortedFunc(mcp, compareUTF16)
		default:
			return fmt.Errorf("unknown order %q", what)
		}
		if !ok {
			return w.expect(false, fmt.Sprintf("model request %d offered %s", i+1, expected), "%q", names)
		}
	}
	return w.expect(true, "", "")
}

// exactOrder: Then every model request offered the host's tools | the MCP
// tools in exactly this order: <one name a row> — the tools of the group
// that the table names, in the order offered, are the table (the host's
// tools are the ones the scenario defines; an implementation's own
// built-ins are not known to it, and left out).
func (w *world) exactOrder(group string, table *godog.Table) error {
	var want []string
	for _, row := range table.Rows {
		want = append(want, row.Cells[0].Value)
	}
	reqs := w.host.modelRequests()
	if len(reqs) == 0 {
		return w.expect(false, "the model was asked", "it never was")
	}
	for i, req := range reqs {
		var got []string
		for _, t := range req.Tools {
			if group == "MCP" && isMCPTool(t.Name) || group == "host's" && slices.Contains(want, t.Name) {
				got = append(got, t.Name)
			}
		}
		if err := w.expect(slices.Equal(got, want), fmt.Sprintf("model request %d offered the %s tools as %q", i+1, group, want), "%q (%d in all)", got[:min(len(got), 3*len(want))], len(got)); err != nil {
			return err
		}
	}
	return nil
}

// compareUTF16 orders strings as JavaScript's default sort does: by UTF-16
// code units (which differs from Go's byte order beyond the BMP).
func compareUTF16(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// offeredOnce: Then every model request offered "Read" exactly once
func (w *world) offeredOnce(name string) error {
	reqs := w.host.modelRequests()
	if len(reqs) == 0 {
		return w.expect(false, "the model was asked", "it never was")
	}
	for i, req := range reqs {
		n := 0
		var names []string
		for _, t := range req.Tools {
			names = append(names, t.Name)
			if t.Name == name {
				n++
			}
		}
		if n != 1 {
			return w.expect(false, fmt.Sprintf("model request %d offered %q exactly once", i+1, name), "%d times among %q", n, names)
		}
	}
	return w.expect(true, "", "")
}
