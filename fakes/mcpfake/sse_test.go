package mcpfake

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// headerTransport adds header to every request, as a host configured with
// headers for a server does.
type headerTransport struct {
	base   http.RoundTripper
	header http.Header
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.header {
		r.Header[k] = v
	}
	return t.base.RoundTrip(r)
}

// ofServer returns the records of kind k of the mount server.
func ofServer(rs []record.Record, k record.Kind, server string) []record.Record {
	var out []record.Record
	for _, r := range of(rs, k) {
		if r.Server == server {
			out = append(out, r)
		}
	}
	return out
}

// TestSSEThroughAGoSDKClient connects go-sdk's legacy client to an HTTP+SSE
// mount, over HTTP and HTTPS, lists the tools and calls one, and checks
// what was recorded: the GET of the stream and every POST with the
// client's headers, the messages both ways, and the responses.
func TestSSEThroughAGoSDKClient(t *testing.T) {
	for _, useTLS := range []bool{false, true} {
		t.Run(fmt.Sprintf("tls=%v", useTLS), func(t *testing.T) {
			var opts HTTPOptions
			base := http.RoundTripper(&http.Transport{})
			if useTLS {
				var c *http.Client
				c, opts = tlsClient(t)
				base = c.Transport
			}
			defer base.(*http.Transport).CloseIdleConnections()
			h, rc := httpFake(t, opts)
			u := h.MountSSE(&Script{
				Name:  "old",
				Tools: []Tool{{Name: "echo", Description: "says hi"}, {Name: "other"}},
				Calls: map[string]Call{"echo": {Text: "hi over sse"}},
			})
			if want := h.BaseURL() + "/sse/old"; u != want {
				t.Fatalf("MountSSE returned %s, want %s", u, want)
			}
			header := http.Header{"Authorization": {"Bearer sse-secret"}, "X-Conform": {"yes"}}
			client := &http.Client{Transport: headerTransport{base: base, header: header}}

			ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
			defer cancel()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "legacy", Version: "1"}, nil).Connect(ctx, &mcp.SSEClientTransport{Endpoint: u, HTTPClient: client}, nil)
			if err != nil {
				t.Fatal(err)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) != 2 || tools.Tools[0].Name != "echo" || tools.Tools[0].Description != "says hi" {
				t.Fatalf("tools %v %v", tools, err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo"})
			if err != nil || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "hi over sse" {
				t.Fatalf("call %v %v", res, err)
			}
			cs.Close()

			// Every request has its response, the stream's once it ended.
			rs := rc.wait(t, "a response to every request", func(rs []record.Record) bool {
				reqs := ofServer(rs, record.KindHTTP, "old")
				return len(reqs) >= 5 && len(responses(rs, "old")) == len(reqs)
			})
			reqs := ofServer(rs, record.KindHTTP, "old")
			if get := reqs[0]; get.HTTP.Method != http.MethodGet || get.HTTP.Path != "/sse/old" || get.HTTP.Query != "" || get.Instance != "old@sse" ||
				http.Header(get.HTTP.Header).Get("Accept") != "text/event-stream" {
				t.Errorf("the GET of the stream: %s", dump(reqs[:1]))
			}
			query := reqs[1].HTTP.Query
			if !strings.HasPrefix(query, "sessionid=") {
				t.Errorf("the first POST has the query %q", query)
			}
			for i, r := range reqs {
				for k := range header {
					if got := http.Header(r.HTTP.Header).Get(k); got != header.Get(k) {
						t.Errorf("request %d (%s) has %s %q, want %q", i, r.HTTP.Method, k, got, header.Get(k))
					}
				}
				if i > 0 && (r.HTTP.Method != http.MethodPost || r.HTTP.Path != "/sse/old" || r.HTTP.Query != query || r.Bytes == 0 || r.Instance != "old@sse") {
					t.Errorf("POST %d: %s", i, dump([]record.Record{r}))
				}
			}

			// go-sdk's client first tries server/discover (2026-07-28),
			// which the HTTP+SSE transport does not serve, then initializes.
			var in, out, asked []string
			for _, r := range ofServer(rs, record.KindMessage, "old") {
				if r.Instance != "old@sse" {
					t.Errorf("message of another instance: %s", dump([]record.Record{r}))
				}
				switch {
				case r.Dir == "in":
					in = append(in, r.Method)
					if r.ID != nil {
						asked = append(asked, string(r.ID))
					}
				case r.Method != "":
					out = append(out, r.Method)
				default:
					out = append(out, string(r.ID))
				}
			}
			if want := "initialize notifications/initialized tools/list tools/call"; !strings.HasSuffix(strings.Join(in, " "), want) {
				t.Errorf("messages in: %v, want them to end with %s", in, want)
			}
			if strings.Join(out, " ") != strings.Join(asked, " ") {
				t.Errorf("messages out: %v, want the answers to %v", out, asked)
			}
			if len(reqs) != 1+len(in) {
				t.Errorf("%d requests for %d messages: %s", len(reqs), len(in), dump(reqs))
			}

			// A POST's response is recorded when its handler returned,
			// which may be after the answer went out on the stream and the
			// client sent its next POST: they are in no particular order.
			var posted []string
			for _, r := range responses(rs, "old") {
				switch r.HTTP.Method {
				case http.MethodGet:
					if r.Status != 200 || !r.Aborted || r.Written == 0 || r.Method != "" {
						t.Errorf("the stream's response: %s", dump([]record.Record{r}))
					}
				case http.MethodPost:
					posted = append(posted, r.Method)
					if r.Status != http.StatusAccepted || r.Aborted || r.Written != 0 {
						t.Errorf("POST response: %s", dump([]record.Record{r}))
					}
				}
			}
			slices.Sort(posted)
			if sorted := slices.Sorted(slices.Values(in)); !slices.Equal(posted, sorted) {
				t.Errorf("POST responses for %v, want one for each of %v", posted, sorted)
			}
		})
	}
}

// TestSSERequests sends single requests to HTTP+SSE mounts (open, guarded,
// scripted to fail) and checks the answer and what was recorded.
func TestSSERequests(t *testing.T) {
	h, rc := httpFake(t)
	g := &stubGuard{}
	h.MountSSE(&Script{Name: "open", Tools: []Tool{{Name: "t"}}})
	h.Mount(&Script{Name: "open", Tools: []Tool{{Name: "t"}}})
	guarded := h.MountSSE(&Script{Name: "g", HTTP: &HTTPBehaviour{Guard: g}})
	h.MountSSE(&Script{Name: "down", HTTP: &HTTPBehaviour{Status: []StatusReply{{Status: 503, Body: "scripted", Times: 1}}}})
	for _, pattern := range []string{"/sse/x", "GET /sse/", ProtectedResourceMetadataPrefix + "/sse/g"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Handle(%q) did not panic", pattern)
				}
			}()
			h.Handle(pattern, http.NotFoundHandler())
		}()
	}

	client := &http.Client{Transport: &http.Transport{}}
	defer client.Transport.(*http.Transport).CloseIdleConnections()
	for _, tc := range []struct {
		name, method, path string
		pass               bool
		status             int
		body               string // a substring of the body; of a stream, its first event
		server, instance   string // of the request's record
	}{
		{"stream", "GET", "/sse/open", false, 200, "event: endpoint\ndata: /sse/open?sessionid=", "open", "open@sse"},
		{"POST without a session", "POST", "/sse/open", false, 400, "sessionid must be provided", "open", "open@sse"},
		{"POST to no session", "POST", "/sse/open?sessionid=nope", false, 404, "session not found", "open", "open@sse"},
		{"the Streamable mount of the same name", "POST", "/mcp/open", false, 200, `"result"`, "open", "open@http"},
		{"scripted status", "GET", "/sse/down", false, 503, "scripted", "down", "down@sse"},
		{"scripted status spent", "GET", "/sse/down", false, 200, "event: endpoint\ndata: /sse/down?sessionid=", "down", "down@sse"},
		{"refused by the guard", "GET", "/sse/g", false, 401, "", "g", "g@sse"},
		{"passed by the guard", "GET", "/sse/g", true, 200, "event: endpoint\ndata: /sse/g?sessionid=", "g", "g@sse"},
		{"metadata", "GET", ProtectedResourceMetadataPrefix + "/sse/g", false, 200, `"resource":"` + guarded + `"`, "g", "g@sse"},
		{"metadata of an open mount", "GET", ProtectedResourceMetadataPrefix + "/sse/open", false, 404, "", "open", "open@sse"},
		{"no mount", "GET", "/sse/nowhere", false, 404, "", "nowhere", "nowhere@sse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := rc.log.Len()
			ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
			defer cancel()
			var body io.Reader
			if tc.method == "POST" {
				body = strings.NewReader(callMsg)
			}
			req, _ := http.NewRequestWithContext(ctx, tc.method, h.BaseURL()+tc.path, body)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.pass {
				req.Header.Set("X-Pass", "yes")
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var b []byte
			if resp.Header.Get("Content-Type") == "text/event-stream" && tc.method == "GET" {
				// The stream stays open: read its first event, then go away.
				br := bufio.NewReader(resp.Body)
				ev, _ := br.ReadString('\n')
				data, _ := br.ReadString('\n')
				b = []byte(ev + data)
			} else {
				b, _ = io.ReadAll(resp.Body)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.body) {
				t.Fatalf("%s: %q", resp.Status, b)
			}
			rs := rc.wait(t, "the response", func(rs []record.Record) bool {
				return len(of(rs[before:], record.KindHTTPResponse)) == 1
			})[before:]
			reqs, resps := of(rs, record.KindHTTP), of(rs, record.KindHTTPResponse)
			path, query, _ := strings.Cut(tc.path, "?")
			if len(reqs) != 1 || reqs[0].Server != tc.server || reqs[0].Instance != tc.instance || reqs[0].HTTP.Path != path || reqs[0].HTTP.Query != query {
				t.Errorf("request records %s", dump(reqs))
			}
			if r := resps[0]; r.Server != tc.server || r.Instance != tc.instance || r.Status != tc.status {
				t.Errorf("response record %s", dump(resps))
			}
		})
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, u := range g.urls {
		if u != guarded {
			t.Errorf("the guard got the resource URL %q, want %q", u, guarded)
		}
	}
	if len(g.urls) != 3 {
		t.Errorf("the guard was called %d times", len(g.urls))
	}
}

// TestCloseEndsSSEStreams checks that Close ends the open streams of an
// HTTP+SSE mount at once (not after closeWait): a raw GET, an idle go-sdk
// client, and one whose call hangs. The stream's response is recorded
// aborted, and no goroutine the test started outlives Close.
func TestCloseEndsSSEStreams(t *testing.T) {
	for _, tc := range []struct {
		name   string
		sdk    bool // a go-sdk client rather than a raw GET
		hangOn bool // the client has a hanging call in flight
	}{
		{"raw GET", false, false},
		{"idle go-sdk client", true, false},
		{"go-sdk client with a hanging call", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := goroutines()
			rc := &recorder{log: record.NewLog()}
			h, err := NewHTTPServer(rc.log)
			if err != nil {
				t.Fatal(err)
			}
			u := h.MountSSE(&Script{Name: "s", Tools: []Tool{{Name: "t"}}, Calls: map[string]Call{"t": {Hang: true}}})
			transport := &http.Transport{}
			client := &http.Client{Transport: transport}
			ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
			defer cancel()

			// ended gets what the client saw once its stream ended.
			ended := make(chan error, 1)
			var cs *mcp.ClientSession
			if tc.sdk {
				cs, err = mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, &mcp.SSEClientTransport{Endpoint: u, HTTPClient: client}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if tc.hangOn {
					go func() {
						_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
						ended <- err
					}()
					// Its POST answered: the call is go-sdk's.
					rc.wait(t, "the call", func(rs []record.Record) bool {
						for _, r := range responses(rs, "s") {
							if r.Method == "tools/call" {
								return true
							}
						}
						return false
					})
				} else {
					go func() { ended <- cs.Wait() }()
				}
			} else {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				br := bufio.NewReader(resp.Body)
				if ev, _ := br.ReadString('\n'); ev != "event: endpoint\n" {
					t.Fatalf("the stream starts with %q", ev)
				}
				go func() {
					_, err := io.Copy(io.Discard, br)
					ended <- fmt.Errorf("the stream ended: %v", err)
				}()
			}

			closed := make(chan error, 1)
			start := time.Now()
			go func() { closed <- h.Close() }()
			select {
			case err := <-closed:
				if err != nil {
					t.Fatal(err)
				}
				if d := time.Since(start); d > closeWait/2 {
					t.Errorf("Close took %v", d)
				}
			case <-ctx.Done():
				t.Fatal("Close did not return")
			}
			select {
			case err := <-ended:
				if tc.hangOn && err == nil {
					t.Error("the hanging call got an answer")
				}
			case <-ctx.Done():
				t.Fatal("the client's stream did not end")
			}
			if cs != nil {
				cs.Close()
			}
			transport.CloseIdleConnections()

			for _, r := range responses(rc.log.Records(), "s") {
				if r.HTTP.Method == http.MethodGet && (!r.Aborted || r.Status != 200 || r.Instance != "s@sse") {
					t.Errorf("the stream's response: %s", dump([]record.Record{r}))
				}
			}
			noLeaks(t, before)
		})
	}
}

// goroutines returns the stacks of the goroutines running now, by id.
func goroutines() map[string]string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := map[string]string{}
	for i, g := range strings.Split(string(buf), "\n\n") {
		if i == 0 {
			continue // the caller's
		}
		id, _, _ := strings.Cut(strings.TrimPrefix(g, "goroutine "), " ")
		out[id] = g
	}
	return out
}

// noLeaks waits, at most testDeadline, for every goroutine that is not in
// before (a snapshot of goroutines) to end, but the caller; goroutines end
// a little after what ended them, so it polls.
func noLeaks(t *testing.T, before map[string]string) {
	t.Helper()
	deadline := time.NewTimer(testDeadline)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		var left []string
		for id, g := range goroutines() {
			if _, ok := before[id]; !ok {
				left = append(left, g)
			}
		}
		if len(left) == 0 {
			return
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			t.Fatalf("%d goroutines outlived the test:\n%s", len(left), strings.Join(left, "\n\n"))
		}
	}
}
