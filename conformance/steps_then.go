package conformance

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// Then steps: every one of them checks something through w.expect, so a
// scenario can never pass on steps that assert nothing.

// registerOutcomeSteps defines the steps whose methods are in this file.
func (w *world) registerOutcomeSteps(sc stepDefiner) {
	sc.Step(`^it (succeeds|fails|fails with an? "([^"]*)" error)$`, w.itIs)
	sc.Step(`^"([^"]*)" was connected$`, w.wasConnected)
	sc.Step(`^"([^"]*)" was never contacted$`, w.neverContacted)
	sc.Step(`^"([^"]*)" was started (\d+) times?$`, w.startedTimes)
	sc.Step(`^"([^"]*)" was connected (\d+) times?$`, w.connectedTimes)
	sc.Step(`^"([^"]*)" received its handshake (\d+) times?$`, w.handshakeTimes)
	sc.Step(`^"([^"]*)" received "([^"]*)" (at most )?(\d+) times?$`, w.receivedTimes)
	sc.Step(`^"([^"]*)" received "([^"]*)"$`, w.receivedMethod)
	sc.Step(`^"([^"]*)" received a call of the tool "([^"]*)"$`, w.receivedCall)
	sc.Step(`^"([^"]*)" received no call$`, w.receivedNoCall)
	sc.Step(`^every process of "([^"]*)" has exited$`, w.processesExited)
	sc.Step(`^the model was offered exactly the MCP tools "([^"]*)"$`, w.offeredExactly)
	sc.Step(`^the model was offered no MCP tools$`, w.offeredNone)
	sc.Step(`^the model was never offered an MCP tool$`, w.neverOffered)
	sc.Step(`^the model was never offered any "([^"]*)" tool$`, w.neverOfferedPrefix)
	sc.Step(`^the model's (first|last) request offered exactly the MCP tools "([^"]*)"$`, w.requestOffered)
	sc.Step(`^the model was offered (\d+) MCP tools$`, w.offeredCount)
	sc.Step(`^"([^"]*)" reached no MCP server$`, w.reachedNoServer)
	sc.Step(`^"([^"]*)" saw the literal text "([^"]*)" unless it was never contacted$`, w.sawLiteral)
	sc.Step(`^the agent either refused the configuration with an? "([^"]*)" error or connected "([^"]*)"$`, w.refusedOrConnected)
	sc.Step(`^these happened in this order:$`, w.inOrder)
	sc.Step(`^the (project|global) configuration file is unchanged$`, w.fileUnchanged)
	sc.Step(`^no other file appeared under "([^"]*)"$`, w.noOtherFile)
}

// itIs: Then it succeeds | Then it fails | Then it fails with a "name" error
func (w *world) itIs(verdict, kind string) error {
	if verdict != "succeeds" {
		verdict = "fails"
	}
	return w.outcomeIs(verdict, kind)
}

// outcomeIs: Then it succeeds | Then it fails with a "name" error
func (w *world) outcomeIs(verdict, kind string) error {
	if w.last == nil {
		return fmt.Errorf("no action happened yet: \"it\" refers to the last When step")
	}
	if verdict == "succeeds" {
		return w.expect(w.last.err == nil, w.last.what+" succeeds", "%s failed: %v", w.last.what, w.last.err)
	}
	if kind == "" {
		return w.expect(w.last.err != nil, w.last.what+" fails", "%s succeeded", w.last.what)
	}
	if w.last.err == nil {
		return w.expect(false, fmt.Sprintf("%s fails with a %s error", w.last.what, kind), "%s succeeded", w.last.what)
	}
	return w.expect(kindIs(w.last.err, kind), fmt.Sprintf("%s fails with a %s error", w.last.what, kind), "%v", w.last.err)
}

// wasConnected: Then "p" was connected — it received a handshake and
// listed its tools.
func (w *world) wasConnected(name string) error {
	rs := w.log.Records()
	hs, lists := requestsOf(rs, name, handshakeMethods...), requestsOf(rs, name, "tools/list")
	return w.expect(len(hs) > 0 && len(lists) > 0, fmt.Sprintf("%q received a handshake and tools/list", name),
		"%q received %s", name, summarize(contactsOf(rs, name)))
}

// neverContacted: Then "p" was never contacted — no process, no request.
func (w *world) neverContacted(name string) error {
	if _, err := w.fake(name); err != nil {
		return err
	}
	c := contactsOf(w.log.Records(), name)
	return w.expect(len(c) == 0, fmt.Sprintf("%q was never contacted", name), "%s", summarize(c))
}

// connectedTimes: Then "p" was connected 1 time — sessions that got as far
// as discovery: a handshake followed by tools/list on the same process (a
// stdio probe process, which only shakes hands, does not count).
func (w *world) connectedTimes(name string, n int) error {
	got := connections(w.log.Records(), name)
	return w.expect(got == n, fmt.Sprintf("%q was connected %d time(s)", name, n), "%d time(s): %s", got, summarize(requestsOf(w.log.Records(), name)))
}

// startedTimes: Then "p" was started 1 time
func (w *world) startedTimes(name string, n int) error {
	s := startsOf(w.log.Records(), name)
	return w.expect(len(s) == n, fmt.Sprintf("%q was started %d time(s)", name, n), "it was started %d time(s): %s", len(s), summarize(s))
}

// handshakeTimes: Then "p" received its handshake 1 time
func (w *world) handshakeTimes(name string, n int) error {
	h := requestsOf(w.log.Records(), name, handshakeMethods...)
	return w.expect(len(h) == n, fmt.Sprintf("%q received its handshake %d time(s)", name, n), "%d: %s", len(h), summarize(h))
}

// receivedTimes: Then "p" received "tools/list" [at most] 16 times
func (w *world) receivedTimes(name, method, atMost string, n int) error {
	got := requestsOf(w.log.Records(), name, method)
	if atMost != "" {
		return w.expect(len(got) <= n, fmt.Sprintf("%q received %s at most %d times", name, method, n), "%d times", len(got))
	}
	return w.expect(len(got) == n, fmt.Sprintf("%q received %s %d time(s)", name, method, n), "%d times: %s", len(got), summarize(got))
}

// receivedMethod: Then "p" received "notifications/cancelled" — waits for it.
func (w *world) receivedMethod(ctx context.Context, name, method string) error {
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	rs, err := w.log.Wait(sctx, func(rs []record.Record) bool { return len(requestsOf(rs, name, method)) > 0 })
	return w.expect(err == nil, fmt.Sprintf("%q received %s", name, method), "it did not within %v; it received %s", w.run.opts.StepTimeout, summarize(requestsOf(rs, name)))
}

// receivedCall: Then "p" received a call of the tool "search"
func (w *world) receivedCall(name, tool string) error {
	rs := w.log.Records()
	c := toolCalls(rs, name, tool)
	return w.expect(len(c) > 0, fmt.Sprintf("%q received tools/call of %q", name, tool), "it received %s", summarize(requestsOf(rs, name)))
}

// receivedNoCall: Then "two" received no call
func (w *world) receivedNoCall(name string) error {
	c := toolCalls(w.log.Records(), name, "")
	return w.expect(len(c) == 0, fmt.Sprintf("%q received no tools/call", name), "%s", summarize(c))
}

// processesExited: Then every process of "p" has exited — waits up to the
// step timeout for the exit records.
func (w *world) processesExited(ctx context.Context, name string) error {
	sctx, cancel := context.WithTimeout(ctx, w.budget(5*time.Second))
	defer cancel()
	rs, err := w.log.Wait(sctx, func(rs []record.Record) bool { return len(liveProcesses(rs, name)) == 0 })
	return w.expect(err == nil, fmt.Sprintf("every process of %q has exited within 5 s", name),
		"pids %v are still running", liveProcesses(rs, name))
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

// list calls the agent's list() for a Then step.
func (w *world) list(ctx context.Context) ([]adapter.ServerStatus, error) {
	if err := w.needAgent(); err != nil {
		return nil, err
	}
	if err := w.need(adapter.OpList); err != nil {
		return nil, err
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	l, err := w.agent.List(sctx)
	if err != nil {
		return nil, fmt.Errorf("list() failed: %w", err)
	}
	return l, nil
}

func names(l []adapter.ServerStatus) []string {
	out := []string{}
	for _, s := range l {
		out = append(out, s.Name)
	}
	return out
}

// entryOf finds a list() entry.
func entryOf(l []adapter.ServerStatus, name string) (adapter.ServerStatus, bool) {
	i := slices.IndexFunc(l, func(s adapter.ServerStatus) bool { return s.Name == name })
	if i < 0 {
		return adapter.ServerStatus{}, false
	}
	return l[i], true
}

// reachedNoServer: Then "s3cr3t" reached no MCP server
func (w *world) reachedNoServer(canary string) error {
	var hits []record.Record
	for _, r := range w.log.Records() {
		if r.Kind != record.KindHost && strings.Contains(recordText(r), canary) {
			hits = append(hits, r)
		}
	}
	return w.expect(len(hits) == 0, fmt.Sprintf("%q reached no MCP server", canary), "it reached %s", summarize(hits))
}

// sawLiteral: Then "p" saw the literal text "${X}" unless it was never contacted
func (w *world) sawLiteral(name, text string) error {
	c := contactsOf(w.log.Records(), name)
	if len(c) == 0 {
		return w.expect(true, "", "")
	}
	for _, r := range c {
		if strings.Contains(recordText(r), text) {
			return w.expect(true, "", "")
		}
	}
	return w.expect(false, fmt.Sprintf("%q saw the literal %q", name, text), "it never did: %s", summarize(c))
}

// refusedOrConnected: Then the agent either refused the configuration with
// a "config" error or connected "p, h" — for rules that allow either
// (LA-CFG-08: literals passed verbatim, or the configuration refused).
func (w *world) refusedOrConnected(kind, servers string) error {
	if w.last != nil && w.last.err != nil {
		return w.expect(adapter.KindOf(w.last.err) == adapter.Kind(kind), fmt.Sprintf("%s refused with a %s error", w.last.what, kind), "%s", errText(w.last.err))
	}
	rs := w.log.Records()
	for _, name := range splitNames(servers) {
		if err := w.expect(connections(rs, name) > 0, fmt.Sprintf("the configuration refused, or %q connected", name), "neither: %q received %s", name, summarize(contactsOf(rs, name))); err != nil {
			return err
		}
	}
	return nil
}

// inOrder: Then these happened in this order: | ... |
func (w *world) inOrder(table *godog.Table) error {
	rs := w.log.Records()
	prev, prevText := int64(0), ""
	for _, row := range table.Rows {
		text := row.Cells[0].Value
		seq, err := eventSeq(rs, text)
		if err != nil {
			return err
		}
		if seq == 0 {
			return w.expect(false, text, "it never happened; the log holds %s", summarize(rs))
		}
		if err := w.expect(seq > prev, fmt.Sprintf("%q after %q", text, prevText), "it happened first (#%d before #%d)", seq, prev); err != nil {
			return err
		}
		prev, prevText = seq, text
	}
	return nil
}

// fileUnchanged: Then the project configuration file is unchanged
func (w *world) fileUnchanged(which string) error {
	f := w.project
	if which == "global" {
		f = w.global
	}
	before, ok := w.snapshots[f.path]
	if !ok {
		return fmt.Errorf("the %s configuration file was never written by the scenario", which)
	}
	now, err := stateOf(f.path)
	return w.expect(err == nil && now == before, fmt.Sprintf("%s is byte-for-byte unchanged, same mtime", f.path), "err=%v changed=%v", err, now != before)
}

// noOtherFile: Then no other file appeared under ".lite-agent"
func (w *world) noOtherFile(dir string) error {
	var found []string
	for _, root := range []string{w.workdir, w.home} {
		files, err := filesUnder(filepath.Join(root, dir))
		if err != nil {
			return err
		}
		for _, f := range files {
			if _, known := w.snapshots[f]; !known {
				found = append(found, f)
			}
		}
	}
	return w.expect(len(found) == 0, "no new file under "+dir, "%v", found)
}
