package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/fakes/record"
)

// Then steps about what reached the fakes on the wire.

// registerRequestSteps defines the steps whose methods are in this file.
func (w *world) registerRequestSteps(sc stepDefiner) {
	sc.Step(`^every request "([^"]*)" received asked for protocol version "([^"]*)"$`, w.everyRequestVersion)
	sc.Step(`^every HTTP request "([^"]*)" received( after its handshake)? carried the header "([^"]*)"$`, w.everyHTTPHeader)
	sc.Step(`^"([^"]*)" received no HTTP "([^"]*)" request$`, w.noHTTPMethod)
	sc.Step(`^"([^"]*)" received none of "([^"]*)"$`, w.receivedNone)
	sc.Step(`^the handshakes "([^"]*)" received declared none of the client capabilities "([^"]*)"$`, w.noClientCapabilities)
	sc.Step(`^the client answered "([^"]*)"'s "([^"]*)" with an error$`, w.answeredWithError)
	sc.Step(`^"([^"]*)" wrote at most (\d+ [KM]iB) of its answer to "([^"]*)" before the client stopped reading$`, w.wroteAtMost)
	sc.Step(`^"([^"]*)" received (\d+) calls? of the tool "([^"]*)"$`, w.callsOfTool)
	sc.Step(`^"([^"]*)" was connected$`, w.wasConnected)
	sc.Step(`^"([^"]*)" was never contacted$`, w.neverContacted)
	sc.Step(`^"([^"]*)" was started (\d+) times?$`, w.startedTimes)
	sc.Step(`^"([^"]*)" was connected (\d+) times?$`, w.connectedTimes)
	sc.Step(`^"([^"]*)" received its handshake (\d+) times?$`, w.handshakeTimes)
	sc.Step(`^"([^"]*)" received "([^"]*)" (at most )?(\d+) times?$`, w.receivedTimes)
	sc.Step(`^"([^"]*)" received "([^"]*)"$`, w.receivedMethod)
	sc.Step(`^"([^"]*)" received a call of the tool "([^"]*)"$`, w.receivedCall)
	sc.Step(`^"([^"]*)" received no call$`, w.receivedNoCall)
	sc.Step(`^"([^"]*)" reached no MCP server$`, w.reachedNoServer)
	sc.Step(`^"([^"]*)" saw the literal text "([^"]*)" unless it was never contacted$`, w.sawLiteral)
}

// everyRequestVersion: Then every request "p" received asked for protocol version "2026-07-28"
func (w *world) everyRequestVersion(name, version string) error {
	var wrong []string
	reqs := 0
	for _, r := range requestsOf(w.log.Records(), name) {
		if strings.HasPrefix(r.Method, "notifications/") {
			continue
		}
		reqs++
		if v := requestedVersion(r.Method, r.Params); v != version {
			wrong = append(wrong, fmt.Sprintf("%s asked for %q", r.Method, v))
		}
	}
	return w.expect(reqs > 0 && len(wrong) == 0, fmt.Sprintf("every request %q received asked for %s", name, version),
		"%d requests; %v", reqs, wrong)
}

// httpRequests returns the HTTP requests a fake received.
func httpRequests(rs []record.Record, name string) []record.Record {
	var out []record.Record
	for _, r := range rs {
		if r.Server == name && r.Kind == record.KindHTTP {
			out = append(out, r)
		}
	}
	return out
}

// everyHTTPHeader: Then every HTTP request "h" received [after its handshake] carried the header "K: V"
func (w *world) everyHTTPHeader(name, after, header string) error {
	k, v, ok := strings.Cut(header, ":")
	if !ok {
		return fmt.Errorf("a header is \"Name: value\", not %q", header)
	}
	return w.everyRequestCarried(name, after != "", strings.TrimSpace(k), strings.TrimSpace(v))
}

// everyRequestCarried checks that every HTTP request of fake name (after
// its first one, which carried the handshake, when afterHandshake) had
// the header k with the value v, exactly.
func (w *world) everyRequestCarried(name string, afterHandshake bool, k, v string) error {
	k = http.CanonicalHeaderKey(k)
	rs := w.log.Records()
	reqs := httpRequests(rs, name)
	if afterHandshake {
		// Requests after the first one, which carried the handshake.
		if len(reqs) > 0 {
			reqs = reqs[1:]
		}
	}
	var missing []string
	for _, r := range reqs {
		if !slices.Contains(r.HTTP.Header[k], v) {
			missing = append(missing, fmt.Sprintf("#%d %s %s had %s: %q", r.Seq, r.HTTP.Method, r.HTTP.Path, k, r.HTTP.Header[k]))
		}
	}
	return w.expect(len(reqs) > 0 && len(missing) == 0, fmt.Sprintf("every HTTP request %q received carried %s: %s", name, k, v),
		"%d requests; %v", len(reqs), missing)
}

// noHTTPMethod: Then "legacy" received no HTTP "GET" request
func (w *world) noHTTPMethod(name, method string) error {
	var got []record.Record
	for _, r := range httpRequests(w.log.Records(), name) {
		if r.HTTP.Method == method {
			got = append(got, r)
		}
	}
	return w.expect(len(got) == 0, fmt.Sprintf("%q received no HTTP %s", name, method), "%s", summarize(got))
}

// receivedNone: Then "p" received none of "resources/list, prompts/list"
func (w *world) receivedNone(name, methods string) error {
	got := requestsOf(w.log.Records(), name, splitNames(methods)...)
	return w.expect(len(got) == 0, fmt.Sprintf("%q received none of %s", name, methods), "%s", summarize(got))
}

// handshakeCapabilities returns the client capabilities a handshake
// declared.
func handshakeCapabilities(r record.Record) map[string]any {
	var p struct {
		Capabilities map[string]any `json:"capabilities"`
		Meta         map[string]any `json:"_meta"`
	}
	_ = json.Unmarshal(r.Params, &p)
	if c, ok := p.Meta["io.modelcontextprotocol/clientCapabilities"].(map[string]any); ok {
		return c
	}
	return p.Capabilities
}

// noClientCapabilities: Then the handshakes "p" received declared none of the client capabilities "sampling, roots"
func (w *world) noClientCapabilities(name, caps string) error {
	hs := requestsOf(w.log.Records(), name, handshakeMethods...)
	var found []string
	for _, h := range hs {
		c := handshakeCapabilities(h)
		for _, want := range splitNames(caps) {
			if _, ok := c[want]; ok {
				found = append(found, fmt.Sprintf("#%d declared %s", h.Seq, want))
			}
		}
	}
	return w.expect(len(hs) > 0 && len(found) == 0, fmt.Sprintf("no handshake of %q declared %s", name, caps), "%d handshakes; %v", len(hs), found)
}

// answeredWithError: Then the client answered "p"'s "roots/list" with an error
func (w *world) answeredWithError(name, method string) error {
	var answers []record.Record
	for _, r := range w.log.Records() {
		if r.Server == name && r.Kind == record.KindAnswer && r.Method == method {
			answers = append(answers, r)
		}
	}
	ok := len(answers) > 0
	for _, a := range answers {
		ok = ok && a.Error != nil && !a.Aborted
	}
	return w.expect(ok, fmt.Sprintf("the client answered %s of %q with a JSON-RPC error", method, name), "answers: %s", describeAnswers(answers))
}

// describeAnswers summarizes answer records.
func describeAnswers(rs []record.Record) string {
	if len(rs) == 0 {
		return "none was recorded"
	}
	var parts []string
	for _, r := range rs {
		switch {
		case r.Aborted:
			parts = append(parts, "no answer came")
		case r.Error != nil:
			parts = append(parts, fmt.Sprintf("error %d %q", r.Error.Code, r.Error.Message))
		default:
			parts = append(parts, "result "+string(r.Result))
		}
	}
	return strings.Join(parts, "; ")
}

// wroteAtMost: Then "h" wrote at most 5 MiB of its answer to "tools/call" before the client stopped reading
func (w *world) wroteAtMost(ctx context.Context, name, size, method string) error {
	limit, err := parseSize(size)
	if err != nil {
		return err
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	match := func(r record.Record) bool {
		return r.Server == name && r.Kind == record.KindHTTPResponse && r.Method == method
	}
	rs, err := w.log.Wait(sctx, func(rs []record.Record) bool { return slices.ContainsFunc(rs, match) })
	if err != nil {
		return w.expect(false, fmt.Sprintf("%q recorded the end of its answer to %s", name, method), "it never ended: the client kept reading or never closed")
	}
	i := slices.IndexFunc(rs, match)
	r := rs[i]
	return w.expect(r.Aborted && r.Written <= limit, fmt.Sprintf("the client stopped reading after at most %s", size),
		"the fake wrote %d bytes (aborted: %v)", r.Written, r.Aborted)
}

// callsOfTool: Then "p" received 1 call of the tool "act"
func (w *world) callsOfTool(name string, n int, tool string) error {
	c := toolCalls(w.log.Records(), name, tool)
	return w.expect(len(c) == n, fmt.Sprintf("%q received %d call(s) of %q, across every instance", name, n, tool), "%d: %s", len(c), summarize(c))
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

// startedTimes: Then "p" was started 1 time
func (w *world) startedTimes(name string, n int) error {
	s := startsOf(w.log.Records(), name)
	return w.expect(len(s) == n, fmt.Sprintf("%q was started %d time(s)", name, n), "it was started %d time(s): %s", len(s), summarize(s))
}

// connectedTimes: Then "p" was connected 1 time — sessions that got as far
// as discovery: a handshake followed by tools/list on the same process (a
// stdio probe process, which only shakes hands, does not count).
func (w *world) connectedTimes(name string, n int) error {
	got := connections(w.log.Records(), name)
	return w.expect(got == n, fmt.Sprintf("%q was connected %d time(s)", name, n), "%d time(s): %s", got, summarize(requestsOf(w.log.Records(), name)))
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
