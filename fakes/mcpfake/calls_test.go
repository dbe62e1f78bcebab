package mcpfake

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tests of the tool-call scripting: Call.Result, Progress, LateProgress,
// Latch, ThenTools, ExitAfterAnswer, and the instructions of
// server/discover, over stdio and Streamable HTTP.

// world is a record log with its record server and, on demand, an HTTP
// fake on the same log: what a scenario world has.
type world struct {
	*recorder
	http *HTTPServer
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{recorder: newRecorder(t)}
	h, err := NewHTTPServer(w.log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.Close(); err != nil {
			t.Error(err)
		}
	})
	w.http = h
	return w
}

// transports are the ways a go-sdk client reaches a fake.
var transports = []string{"stdio", "http"}

// connectTo connects a go-sdk client at protocol pv ("" for the latest) to
// a fake of s over transport.
func (w *world) connectTo(t *testing.T, transport string, s *Script, pv string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	if transport == "stdio" {
		return connect(t, w.recorder, s, pv, opts)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	defer cancel()
	u := w.http.Mount(s)
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, opts)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: u, DisableStandaloneSSE: true}, &mcp.ClientSessionOptions{ProtocolVersion: pv})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// bounded returns a context that ends at the test deadline.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	t.Cleanup(cancel)
	return ctx
}

// receive waits for the next value of ch, failing the test at the deadline.
func receive[T any](t *testing.T, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(testDeadline):
		t.Fatalf("no %s within %v", what, testDeadline)
		panic("unreachable")
	}
}

// sent returns the messages the fakes sent: requests and notifications of
// method, or with method "" the responses to id.
func sent(rs []record.Record, method, id string) []record.Record {
	var out []record.Record
	for _, r := range rs {
		if r.Kind == record.KindMessage && r.Dir == "out" && r.Method == method && (id == "" || string(r.ID) == id) {
			out = append(out, r)
		}
	}
	return out
}

// kinds returns the records of kind k about method (any when "").
func kinds(rs []record.Record, k record.Kind, method string) []record.Record {
	var out []record.Record
	for _, r := range of(rs, k) {
		if method == "" || r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

// compact is raw without insignificant whitespace.
func compact(t *testing.T, raw string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(raw)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// sseData returns the data of each event of an SSE body, in order.
func sseData(body []byte) []string {
	var out []string
	for line := range bytes.Lines(body) {
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			out = append(out, string(bytes.TrimSpace(data)))
		}
	}
	return out
}

// rawExchange sends one tools/call to a fake of s over transport ("stdio",
// "http" for an event stream, "http-json" for an application/json body)
// with a raw client, and returns every message the fake wrote in answer,
// in order, up to and including the answer and whatever followed it in
// the same response (HTTP) or before the answer to a ping sent after it
// (stdio; the ping's answer excluded).
func rawExchange(t *testing.T, w *world, transport string, s *Script, params string) []string {
	t.Helper()
	switch transport {
	case "stdio":
		p := startRaw(t, w.recorder, s, false)
		p.initialize()
		id := p.call("tools/call", params)
		var out []string
		answered := false
		for {
			m, line := p.message()
			if answered && m.Method == "" && string(m.ID) == "\"after\"" {
				return out
			}
			out = append(out, string(line))
			if !answered && m.Method == "" && string(m.ID) == fmt.Sprint(id) {
				answered = true
				// What the fake writes right after the answer comes
				// before the answer to a ping sent now.
				p.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
			}
		}
	case "http", "http-json":
		if transport == "http-json" {
			s.HTTP = &HTTPBehaviour{JSONResponse: true}
		}
		u := w.http.Mount(s)
		resp := post(t, http.DefaultClient, u, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":`+params+`}`)
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %v: %.300s", resp.Status, err, body)
		}
		if transport == "http-json" {
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Fatalf("Content-Type %s", ct)
			}
			return []string{string(bytes.TrimSpace(body))}
		}
		return sseData(body)
	}
	t.Fatalf("no transport %q", transport)
	return nil
}

// idOf is the id rawExchange gives its call on transport.
func idOf(transport string) string {
	if transport == "stdio" {
		return "2" // after initialize
	}
	return "7"
}

// TestCallResultIsSentVerbatim scripts results go-sdk would refuse or
// rewrite, and reads the answers' bytes: the scripted result, compacted,
// as the result of a response to the request's id, on every transport.
func TestCallResultIsSentVerbatim(t *testing.T) {
	t.Parallel()
	results := []struct{ name, result string }{
		{"unknown content type", `{"content":[{"type":"hologram","frames":[1,2]}]}`},
		{"image", `{"content":[{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}`},
		{"audio", `{"content":[{"type":"audio","data":"UklGRiQAAABXQVZF","mimeType":"audio/wav"}]}`},
		{"resource link", `{"content":[{"type":"resource_link","uri":"file:///etc/hosts","name":"hosts","mimeType":"text/plain"}]}`},
		{"embedded text", `{"content":[{"type":"resource","resource":{"uri":"fake://r/a","mimeType":"text/html","text":"<b>&amp;</b>"}}]}`},
		{"embedded blob", `{"content":[{"type":"resource","resource":{"uri":"fake://r/b","mimeType":"application/octet-stream","blob":"AAEC/w=="}}]}`},
		{"structured 42", `{"content":[],"structuredContent":42}`},
		{"structured string", `{"content":[],"structuredContent":"s"}`},
		{"structured true", `{"content":[],"structuredContent":true}`},
		{"structured null", `{"content":[],"structuredContent":null}`},
		{"is error", `{"content":[{"type":"text","text":"boom"}],"isError":true}`},
		{"key order and spacing", "{ \"z\" : 1,\n  \"content\" : [ ],\t\"a\": \"\\u003c\" }"},
	}
	for _, transport := range []string{"stdio", "http", "http-json"} {
		for _, tc := range results {
			t.Run(transport+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				w := newWorld(t)
				// Bytes and Text are overridden by Result.
				s := &Script{Name: "raw", Calls: map[string]Call{"t": {Text: "not this", Bytes: 5000, Result: json.RawMessage(tc.result)}}}
				msgs := rawExchange(t, w, transport, s, `{"name":"t"}`)
				want := `{"jsonrpc":"2.0","id":` + idOf(transport) + `,"result":` + compact(t, tc.result) + `}`
				if len(msgs) != 1 || msgs[0] != want {
					t.Fatalf("the fake wrote\n  %q\nwant\n  %q", msgs, want)
				}
				// The records show the answer that went out.
				rs := w.wait(t, "the answer's record", func(rs []record.Record) bool { return len(sent(rs, "", idOf(transport))) > 0 })
				if got := sent(rs, "", idOf(transport)); got[0].Bytes != len(want) {
					t.Errorf("recorded %d bytes, sent %d", got[0].Bytes, len(want))
				}
			})
		}
	}
}

// TestCallResultThroughAGoSDKClient pins what a go-sdk client at
// 2026-07-28 makes of scripted results, on both transports: the answer
// reaches it (right id), and it refuses what it cannot decode.
func TestCallResultThroughAGoSDKClient(t *testing.T) {
	t.Parallel()
	for _, transport := range transports {
		for _, tc := range []struct {
			name, result string
			check        func(*mcp.CallToolResult) bool
			refused      bool
		}{
			{"image", `{"content":[{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}`, func(r *mcp.CallToolResult) bool {
				img, ok := r.Content[0].(*mcp.ImageContent)
				return ok && string(img.Data) == "\x89PNG\r\n\x1a\n" && img.MIMEType == "image/png"
			}, false},
			{"embedded blob", `{"content":[{"type":"resource","resource":{"uri":"fake://r/b","blob":"AAEC"}}]}`, func(r *mcp.CallToolResult) bool {
				e, ok := r.Content[0].(*mcp.EmbeddedResource)
				return ok && bytes.Equal(e.Resource.Blob, []byte{0, 1, 2})
			}, false},
			{"structured 42", `{"content":[],"structuredContent":42}`, func(r *mcp.CallToolResult) bool {
				return fmt.Sprint(r.StructuredContent) == "42"
			}, false},
			{"is error", `{"content":[{"type":"text","text":"boom"}],"isError":true}`, func(r *mcp.CallToolResult) bool {
				return r.IsError && r.Content[0].(*mcp.TextContent).Text == "boom"
			}, false},
			{"unknown content type", `{"content":[{"type":"hologram"}]}`, nil, true},
		} {
			t.Run(transport+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				w := newWorld(t)
				s := &Script{Name: "sdk", Tools: []Tool{{Name: "t"}}, Calls: map[string]Call{"t": {Result: json.RawMessage(tc.result)}}}
				cs := w.connectTo(t, transport, s, "", nil)
				res, err := cs.CallTool(bounded(t), &mcp.CallToolParams{Name: "t"})
				if tc.refused {
					if err == nil || !strings.Contains(err.Error(), "hologram") {
						t.Fatalf("a go-sdk client took an unknown content type: %v %v", res, err)
					}
					return
				}
				if err != nil || !tc.check(res) {
					b, _ := json.Marshal(res)
					t.Fatalf("result %s, %v", b, err)
				}
			})
		}
	}
}

// progressScript scripts progress before and after the answer.
func progressScript() *Script {
	three := 3.0
	return &Script{Name: "prog", Tools: []Tool{{Name: "t"}}, Calls: map[string]Call{"t": {
		Text:         "done",
		Progress:     []Progress{{Progress: 1, Total: &three, Message: "one"}, {Progress: 2.5}},
		LateProgress: []Progress{{Progress: 3, Total: &three, Message: "late"}},
	}}}
}

// TestProgressOnTheWire reads what a fake writes for a call scripted with
// progress, with raw clients: the progress notifications, carrying the
// request's token, then the answer, then the late ones; none without a
// token, and none in an application/json body, and records saying so.
func TestProgressOnTheWire(t *testing.T) {
	t.Parallel()
	progress := func(token, rest string) string {
		return `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + token + `,` + rest + `}}`
	}
	for _, tc := range []struct {
		transport string
		token     string // "" for none
		wire      []string
		notSent   string // the reason recorded, if any
	}{
		{"stdio", `"tok-1"`, []string{"progress 1", "progress 2", "answer", "late"}, ""},
		{"stdio", `42`, []string{"progress 1", "progress 2", "answer", "late"}, ""},
		{"stdio", "", []string{"answer"}, noProgressToken},
		{"http", `"tok-1"`, []string{"progress 1", "progress 2", "answer", "late"}, ""},
		{"http", `42`, []string{"progress 1", "progress 2", "answer", "late"}, ""},
		{"http", "", []string{"answer"}, noProgressToken},
		{"http-json", `"tok-1"`, []string{"answer"}, jsonCarriesNoProgress},
		{"http-json", "", []string{"answer"}, noProgressToken},
	} {
		t.Run(tc.transport+"/"+cmpOr(tc.token, "no token"), func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			params := `{"name":"t"}`
			if tc.token != "" {
				params = `{"name":"t","_meta":{"progressToken":` + tc.token + `}}`
			}
			msgs := rawExchange(t, w, tc.transport, progressScript(), params)
			want := map[string]string{
				"progress 1": progress(tc.token, `"message":"one","progress":1,"total":3`),
				"progress 2": progress(tc.token, `"progress":2.5`),
				"answer":     `{"jsonrpc":"2.0","id":` + idOf(tc.transport) + `,"result":{"content":[{"type":"text","text":"done"}]}}`,
				"late":       progress(tc.token, `"message":"late","progress":3,"total":3`),
			}
			var wantMsgs []string
			for _, k := range tc.wire {
				wantMsgs = append(wantMsgs, want[k])
			}
			if !slices.Equal(msgs, wantMsgs) {
				t.Fatalf("the fake wrote\n  %s\nwant\n  %s", strings.Join(msgs, "\n  "), strings.Join(wantMsgs, "\n  "))
			}
			// The records hold the same messages, in the same order.
			rs := w.wait(t, "the records of what was sent", func(rs []record.Record) bool {
				return len(sent(rs, "", idOf(tc.transport))) == 1 && len(sent(rs, "notifications/progress", "")) == len(tc.wire)-1
			})
			var order []string
			for _, r := range rs {
				switch {
				case r.Kind == record.KindMessage && r.Dir == "out" && r.Method == "notifications/progress":
					order = append(order, "progress")
				case r.Kind == record.KindMessage && r.Dir == "out" && r.Method == "" && string(r.ID) == idOf(tc.transport):
					order = append(order, "answer")
				}
			}
			var wantOrder []string
			for _, k := range tc.wire {
				if k != "answer" {
					k = "progress"
				}
				wantOrder = append(wantOrder, k)
			}
			if !slices.Equal(order, wantOrder) {
				t.Errorf("recorded %v, want %v", order, wantOrder)
			}
			ns := of(rs, record.KindNotSent)
			if tc.notSent == "" && len(ns) != 0 {
				t.Errorf("not-sent records %s", dump(ns))
			}
			if tc.notSent != "" {
				var reason struct{ Reason string }
				if len(ns) != 1 || ns[0].Method != "notifications/progress" || string(ns[0].ID) != idOf(tc.transport) || json.Unmarshal(ns[0].Params, &reason) != nil || reason.Reason != tc.notSent {
					t.Errorf("not-sent records %s, want one saying %q", dump(ns), tc.notSent)
				}
			}
		})
	}
}

func cmpOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

// TestProgressThroughAGoSDKClient checks that a go-sdk client's
// ProgressNotificationHandler gets the scripted progress, with its own
// token, at 2025-11-25 and 2026-07-28, over stdio and stateless HTTP.
// Over stdio the late progress reaches it too. Over HTTP it does not: the
// late events follow the answer in the call's stream (TestProgressOnTheWire
// reads them), but go-sdk's client stops handling a call's stream at the
// answer and discards the rest (streamableClientConn.processStream).
func TestProgressThroughAGoSDKClient(t *testing.T) {
	t.Parallel()
	for _, transport := range transports {
		for _, pv := range []string{"2025-11-25", "2026-07-28"} {
			t.Run(transport+"/"+pv, func(t *testing.T) {
				t.Parallel()
				w := newWorld(t)
				got := make(chan *mcp.ProgressNotificationParams, 10)
				cs := w.connectTo(t, transport, progressScript(), pv, &mcp.ClientOptions{
					ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) { got <- req.Params },
				})
				if v := cs.InitializeResult().ProtocolVersion; v != pv {
					t.Fatalf("negotiated %s", v)
				}
				res, err := cs.CallTool(bounded(t), &mcp.CallToolParams{Name: "t", Meta: mcp.Meta{"progressToken": "tok-9"}})
				if err != nil || res.Content[0].(*mcp.TextContent).Text != "done" {
					t.Fatalf("the call: %v %v", res, err)
				}
				wants := []string{"1/3 one", "2.5/0 ", "3/3 late"}
				if transport == "http" {
					wants = wants[:2]
				}
				for i, want := range wants {
					p := receive(t, fmt.Sprintf("progress %d", i+1), got)
					if s := fmt.Sprintf("%v/%v %s", p.Progress, p.Total, p.Message); s != want || p.ProgressToken != "tok-9" {
						t.Errorf("progress %d: %s token %v, want %s token tok-9", i+1, s, p.ProgressToken, want)
					}
				}
			})
		}
	}
}

// TestLatchHoldsTheAnswer runs calls that wait at a latch, over stdio
// and HTTP, with a go-sdk client: the progress goes out, the latch record
// appears, nothing answers until the runner releases the latch through the
// record server; a released latch stays open; a cancelled call, or a
// client that goes away, stops the wait, which is recorded.
func TestLatchHoldsTheAnswer(t *testing.T) {
	t.Parallel()
	for _, transport := range transports {
		for _, end := range []string{"release", "cancel"} {
			t.Run(transport+"/"+end, func(t *testing.T) {
				t.Parallel()
				w := newWorld(t)
				s := &Script{Name: "gated", Tools: []Tool{{Name: "t"}}, Calls: map[string]Call{"t": {
					Text: "through", Latch: "gate", Progress: []Progress{{Progress: 1}},
				}}}
				cs := w.connectTo(t, transport, s, "", &mcp.ClientOptions{
					ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {},
				})
				ctx, cancel := context.WithCancel(bounded(t))
				defer cancel()
				type outcome struct {
					res *mcp.CallToolResult
					err error
				}
				done := make(chan outcome, 1)
				go func() {
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t", Meta: mcp.Meta{"progressToken": 1}})
					done <- outcome{res, err}
				}()
				rs := w.wait(t, "the fake at the latch", func(rs []record.Record) bool { return len(kinds(rs, record.KindLatch, "gate")) == 1 })
				latch := kinds(rs, record.KindLatch, "gate")[0]
				if latch.Server != "gated" || latch.Instance == "" || latch.Aborted {
					t.Errorf("latch record %s", dump([]record.Record{latch}))
				}
				progress := sent(rs, "notifications/progress", "")
				if len(progress) != 1 || progress[0].Seq > latch.Seq {
					t.Errorf("the progress did not go out before the latch: %s", dump(rs))
				}
				select {
				case o := <-done:
					t.Fatalf("the call ended at the latch: %v %v", o.res, o.err)
				default:
				}
				switch end {
				case "release":
					w.srv.Release("gate")
					o := receive(t, "the answer", done)
					if o.err != nil || o.res.Content[0].(*mcp.TextContent).Text != "through" {
						t.Fatalf("the call: %v %v", o.res, o.err)
					}
					rs = w.log.Records()
					release := kinds(rs, record.KindRelease, "gate")
					answers := sent(rs, "", "")
					if len(release) != 1 || answers[len(answers)-1].Seq < release[0].Seq {
						t.Errorf("records %s", dump(rs))
					}
					// The latch stays open.
					if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"}); err != nil {
						t.Errorf("a second call at the open latch: %v", err)
					}
					return
				case "cancel":
					// At 2026-07-28 over HTTP the go-sdk client drops the
					// request: the client goes away.
					cancel()
				}
				if o := receive(t, "the end of the call", done); o.err == nil {
					t.Fatalf("the call returned %v", o.res)
				}
				rs = w.wait(t, "the aborted wait", func(rs []record.Record) bool {
					for _, r := range kinds(rs, record.KindLatch, "gate") {
						if r.Aborted {
							return true
						}
					}
					return false
				})
				if len(kinds(rs, record.KindRelease, "")) != 0 {
					t.Errorf("records %s", dump(rs))
				}
			})
		}
	}
}

// TestLatchOfAStdioFakeWhoseClientGoesAway checks that a stdio fake
// waiting at a latch stops waiting when its stdin closes, records it, and
// ends. (A go-sdk client cannot show this: ClientSession.Close waits for
// the calls in flight.)
func TestLatchOfAStdioFakeWhoseClientGoesAway(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := startRaw(t, w.recorder, &Script{Name: "gated", Calls: map[string]Call{"t": {Latch: "gate"}}}, false)
	p.initialize()
	p.call("tools/call", `{"name":"t"}`)
	w.wait(t, "the fake at the latch", func(rs []record.Record) bool { return len(kinds(rs, record.KindLatch, "gate")) == 1 })
	p.stdin.Close()
	rs := w.wait(t, "the aborted wait and the exit", func(rs []record.Record) bool {
		return len(kinds(rs, record.KindLatch, "gate")) == 2 && len(of(rs, record.KindExit)) == 1
	})
	if l := kinds(rs, record.KindLatch, "gate"); !l[1].Aborted || len(sent(rs, "", "2")) != 0 {
		t.Errorf("records %s", dump(rs))
	}
}

// TestLatchOfAClosingHTTPFake checks that closing the HTTP fake ends a
// wait at a latch, recorded as aborted.
func TestLatchOfAClosingHTTPFake(t *testing.T) {
	t.Parallel()
	log := record.NewLog()
	h, err := NewHTTPServer(log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	u := h.Mount(&Script{Name: "gated", Calls: map[string]Call{"t": {Latch: "gate"}}})
	go func() {
		req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(callMsg))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	rc := &recorder{log: log}
	rc.wait(t, "the fake at the latch", func(rs []record.Record) bool { return len(kinds(rs, record.KindLatch, "gate")) == 1 })
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	rs := rc.wait(t, "the aborted wait", func(rs []record.Record) bool { return len(kinds(rs, record.KindLatch, "gate")) == 2 })
	if l := kinds(rs, record.KindLatch, "gate"); !l[1].Aborted {
		t.Errorf("records %s", dump(rs))
	}
}

// TestThenToolsReachesAGoSDKClient checks Call.ThenTools with a go-sdk
// client that has a ToolListChangedHandler: the answer, then the
// notification, then tools/list serving the new tools. At 2026-07-28
// the notification travels on the client's subscriptions/listen (over
// stateless HTTP: a POST whose event stream stays open).
func TestThenToolsReachesAGoSDKClient(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ transport, pv string }{
		{"stdio", "2025-11-25"},
		{"stdio", "2026-07-28"},
		{"http", "2026-07-28"},
	} {
		t.Run(tc.transport+"/"+tc.pv, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			s := &Script{Name: "shifty", Tools: []Tool{{Name: "old"}}, Calls: map[string]Call{
				"old": {Text: "bye", ThenTools: &[]Tool{{Name: "new", Description: "fresh"}, {Name: "newer"}}},
			}}
			changed := make(chan struct{}, 10)
			cs := w.connectTo(t, tc.transport, s, tc.pv, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
			})
			if caps := cs.InitializeResult().Capabilities; caps.Tools == nil || !caps.Tools.ListChanged {
				t.Fatalf("capabilities %+v", caps)
			}
			ctx := bounded(t)
			if tools, err := cs.ListTools(ctx, nil); err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "old" {
				t.Fatalf("tools before: %v %v", tools, err)
			}
			if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "old"}); err != nil || res.Content[0].(*mcp.TextContent).Text != "bye" {
				t.Fatalf("the call: %v %v", res, err)
			}
			receive(t, "the tools/list_changed notification", changed)
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) != 2 || tools.Tools[0].Name != "new" || tools.Tools[0].Description != "fresh" {
				t.Fatalf("tools after: %v %v", tools, err)
			}
			rs := w.log.Records()
			listen := kinds(rs, record.KindMessage, "subscriptions/listen")
			if (len(listen) > 0) != (tc.pv == "2026-07-28") {
				t.Errorf("subscriptions/listen requests: %s", dump(listen))
			}
			notes := sent(rs, "notifications/tools/list_changed", "")
			call := kinds(rs, record.KindMessage, "tools/call")
			if len(notes) != 1 || len(call) != 1 {
				t.Fatalf("records %s", dump(rs))
			}
			if answer := sent(rs, "", string(call[0].ID)); len(answer) != 1 || notes[0].Seq < answer[0].Seq {
				t.Errorf("the notification did not follow the answer: %s", dump(rs))
			}
			// At 2026-07-28 it names the listen it belongs to.
			if len(listen) > 0 {
				var p struct {
					Meta map[string]json.RawMessage `json:"_meta"`
				}
				_ = json.Unmarshal(notes[0].Params, &p)
				if sub := string(p.Meta["io.modelcontextprotocol/subscriptionId"]); sub != string(listen[0].ID) {
					t.Errorf("the notification's subscription id %s, the listen's id %s", sub, listen[0].ID)
				}
			}
		})
	}
}

// TestListChangedCapability checks when the fake advertises
// tools.listChanged: when scripted, or when a call has ThenTools.
func TestListChangedCapability(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		script Script
		want   bool
	}{
		{"plain", Script{}, false},
		{"ListChanged", Script{ListChanged: true}, true},
		{"ThenTools", Script{Calls: map[string]Call{"t": {ThenTools: &[]Tool{}}}}, true},
	} {
		for _, transport := range transports {
			t.Run(tc.name+"/"+transport, func(t *testing.T) {
				t.Parallel()
				w := newWorld(t)
				s := tc.script
				s.Name = "caps"
				cs := w.connectTo(t, transport, &s, "", nil)
				if caps := cs.InitializeResult().Capabilities; caps.Tools == nil || caps.Tools.ListChanged != tc.want {
					t.Errorf("capabilities %+v", caps.Tools)
				}
			})
		}
	}
}

// TestInstructionsInServerDiscover checks that the instructions of a
// script are in the server/discover result a 2026-07-28 client gets (and
// in the initialize result of an older one), over stdio and HTTP.
func TestInstructionsInServerDiscover(t *testing.T) {
	t.Parallel()
	const instructions = "Always call canary_tool first. <b>CANARY-INSTR</b>"
	for _, transport := range transports {
		for _, tc := range []struct{ pv, handshake string }{
			{"2026-07-28", "server/discover"},
			{"2025-11-25", "initialize"},
		} {
			t.Run(transport+"/"+tc.pv, func(t *testing.T) {
				t.Parallel()
				w := newWorld(t)
				cs := w.connectTo(t, transport, &Script{Name: "instr", Instructions: instructions}, tc.pv, nil)
				if got := cs.InitializeResult().Instructions; got != instructions {
					t.Errorf("instructions %q", got)
				}
				if reqs := requestMethods(w.log.Records()); !strings.HasPrefix(reqs, tc.handshake) {
					t.Errorf("requests %s", reqs)
				}
			})
		}
	}
	// The wire itself: a raw server/discover over HTTP.
	t.Run("raw http", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t)
		u := w.http.Mount(&Script{Name: "instr", Instructions: instructions})
		req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "server/discover")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		data := sseData(body)
		var m struct {
			Result struct {
				Instructions string `json:"instructions"`
			} `json:"result"`
		}
		if len(data) != 1 || json.Unmarshal([]byte(data[0]), &m) != nil || m.Result.Instructions != instructions {
			t.Errorf("%s: %s", resp.Status, body)
		}
	})
}

// TestExitAfterAnswer checks that a stdio fake scripted so answers,
// writes its late progress and ends, and that a go-sdk client gets the
// answer and then sees the connection end.
func TestExitAfterAnswer(t *testing.T) {
	t.Parallel()
	t.Run("raw", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t)
		s := &Script{Name: "brief", Calls: map[string]Call{"t": {Text: "last words", ExitAfterAnswer: true, LateProgress: []Progress{{Progress: 1}}}}}
		p := startRaw(t, w.recorder, s, false)
		p.initialize()
		id := p.call("tools/call", `{"name":"t","_meta":{"progressToken":"x"}}`)
		if m, b := p.message(); string(m.ID) != fmt.Sprint(id) || !strings.Contains(string(m.Result), "last words") {
			t.Fatalf("the fake wrote %s", b)
		}
		if m, b := p.message(); m.Method != "notifications/progress" {
			t.Fatalf("the fake wrote %s", b)
		}
		_ = p.stdout.SetReadDeadline(time.Now().Add(testDeadline))
		if b, err := p.out.ReadBytes('\n'); err != io.EOF {
			t.Fatalf("after the answer: %q %v", b, err)
		}
		// Its stdout is closed: the process has ended, with code 0.
		if err := p.cmd.Wait(); err != nil || p.cmd.ProcessState.ExitCode() != 0 {
			t.Errorf("the fake ended with %v", err)
		}
		rs := w.wait(t, "the exit", func(rs []record.Record) bool { return len(of(rs, record.KindExit)) == 1 })
		answer := sent(rs, "", fmt.Sprint(id))
		if len(answer) != 1 || answer[0].Seq > of(rs, record.KindExit)[0].Seq {
			t.Errorf("records %s", dump(rs))
		}
	})
	t.Run("http", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t)
		cs := w.connectTo(t, "http", &Script{Name: "brief", Tools: []Tool{{Name: "t"}}, Calls: map[string]Call{"t": {Text: "last words", ExitAfterAnswer: true}}}, "", nil)
		res, err := cs.CallTool(bounded(t), &mcp.CallToolParams{Name: "t"})
		if err != nil || res.Content[0].(*mcp.TextContent).Text != "last words" {
			t.Fatalf("the call: %v %v", res, err)
		}
		if _, err := cs.CallTool(bounded(t), &mcp.CallToolParams{Name: "t"}); err == nil {
			t.Fatal("a second call was answered")
		}
		rs := w.waitResponses(t, "brief", 3) // server/discover, and both calls
		var statuses []string
		for _, r := range responses(rs, "brief") {
			if r.Method == "tools/call" {
				statuses = append(statuses, fmt.Sprint(r.Status))
			}
		}
		// (A response is recorded once it went out: the second call's may
		// be recorded first.)
		slices.Sort(statuses)
		if got := strings.Join(statuses, ", "); got != "200, 404" {
			t.Errorf("responses: %s", got)
		}
	})
	t.Run("go-sdk client", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t)
		cs := w.connectTo(t, "stdio", &Script{Name: "brief", Tools: []Tool{{Name: "t"}}, Calls: map[string]Call{"t": {Text: "last words", ExitAfterAnswer: true}}}, "", nil)
		res, err := cs.CallTool(bounded(t), &mcp.CallToolParams{Name: "t"})
		if err != nil || res.Content[0].(*mcp.TextContent).Text != "last words" {
			t.Fatalf("the call: %v %v", res, err)
		}
		waited := make(chan error, 1)
		go func() { waited <- cs.Wait() }()
		receive(t, "the end of the session", waited)
		if _, err := cs.ListTools(bounded(t), nil); err == nil {
			t.Error("the session still answers")
		}
	})
}

// TestFaultLatchHoldsTheMethod checks a fault's latch, over stdio and
// HTTP: the request waits at the latch, recorded, until the runner
// releases it, and is then served as usual.
func TestFaultLatchHoldsTheMethod(t *testing.T) {
	t.Parallel()
	for _, transport := range transports {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			s := &Script{Name: "gated", Tools: []Tool{{Name: "t"}}, Faults: []Fault{{Method: "tools/list", Latch: "list"}}}
			cs := w.connectTo(t, transport, s, "", nil)
			type outcome struct {
				res *mcp.ListToolsResult
				err error
			}
			done := make(chan outcome, 1)
			go func() {
				res, err := cs.ListTools(bounded(t), nil)
				done <- outcome{res, err}
			}()
			w.wait(t, "the fake at the latch", func(rs []record.Record) bool { return len(kinds(rs, record.KindLatch, "list")) == 1 })
			select {
			case o := <-done:
				t.Fatalf("tools/list was answered at the latch: %v %v", o.res, o.err)
			default:
			}
			w.srv.Release("list")
			o := receive(t, "the answer", done)
			if o.err != nil || len(o.res.Tools) != 1 || o.res.Tools[0].Name != "t" {
				t.Fatalf("tools/list after the release: %v %v", o.res, o.err)
			}
		})
	}
}
