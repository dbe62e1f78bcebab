package mcpfake

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/fakes/tlsca"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpFake starts an HTTP fake for a test.
func httpFake(t *testing.T, opts ...HTTPOptions) (*HTTPServer, *recorder) {
	t.Helper()
	rc := &recorder{log: record.NewLog()}
	h, err := NewHTTPServer(rc.log, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.Close(); err != nil {
			t.Error(err)
		}
	})
	return h, rc
}

// post sends one JSON-RPC message as an MCP client would.
func post(t *testing.T, c *http.Client, u, msg string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// noRedirects is a client that shows redirects instead of following them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

const callMsg = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{}}}`

// responses returns the http-response records of server.
func responses(rs []record.Record, server string) []record.Record {
	var out []record.Record
	for _, r := range of(rs, record.KindHTTPResponse) {
		if r.Server == server {
			out = append(out, r)
		}
	}
	return out
}

// waitResponses waits for n http-response records of server.
func (rc *recorder) waitResponses(t *testing.T, server string, n int) []record.Record {
	t.Helper()
	rs := rc.wait(t, fmt.Sprintf("%d responses of %s", n, server), func(rs []record.Record) bool { return len(responses(rs, server)) >= n })
	return responses(rs, server)
}

// TestHTTPSOnEveryLoopbackName reaches one HTTPS fake, with a client that
// trusts only the scenario's CA, through 127.0.0.1, localhost and [::1].
func TestHTTPSOnEveryLoopbackName(t *testing.T) {
	ca, err := tlsca.New("mcpfake test")
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Issue("localhost", "127.0.0.1", "::1")
	if err != nil {
		t.Fatal(err)
	}
	h, rc := httpFake(t, HTTPOptions{TLS: &cert, IPv6: true})
	if u := h.Mount(&Script{Name: "x", Tools: []Tool{{Name: "hello"}}}); !strings.HasPrefix(u, "https://127.0.0.1:") {
		t.Errorf("Mount returned %s", u)
	}
	trusting := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}}}
	for _, host := range []string{"127.0.0.1", "localhost", "[::1]"} {
		t.Run(host, func(t *testing.T) {
			if host == "[::1]" && h.IPv6() != nil {
				t.Skipf("no IPv6: %v", h.IPv6())
			}
			u, err := h.URL("x", host)
			if err != nil {
				t.Fatal(err)
			}
			pu, _ := url.Parse(u)
			if pu.Scheme != "https" || pu.Hostname() != strings.Trim(host, "[]") || pu.Path != "/mcp/x" {
				t.Fatalf("URL %s", u)
			}
			c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
			cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: u, HTTPClient: trusting, DisableStandaloneSSE: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			tools, err := cs.ListTools(context.Background(), nil)
			if err != nil || len(tools.Tools) != 1 {
				t.Fatalf("tools %v %v", tools, err)
			}
			var hosts []string
			for _, r := range of(rc.log.Records(), record.KindHTTP) {
				hosts = append(hosts, r.HTTP.Host)
			}
			if !containsString(hosts, pu.Host) {
				t.Errorf("no request recorded for host %s: %v", pu.Host, hosts)
			}
			// Nothing but the CA makes the certificate trusted, and the port
			// speaks nothing but TLS.
			if _, err := http.Get(u); err == nil {
				t.Error("a client without the CA trusted the fake")
			}
			plain := "http://" + pu.Host + pu.Path
			if resp, err := http.Post(plain, "application/json", strings.NewReader(callMsg)); err == nil {
				resp.Body.Close()
				if resp.StatusCode != http.StatusBadRequest {
					t.Errorf("plain HTTP on the HTTPS port answered %s", resp.Status)
				}
			}
		})
	}
	if h.IPv6() == nil {
		u4, _ := h.URL("x", "127.0.0.1")
		u6, _ := h.URL("x", "::1")
		if p4, p6 := port(u4), port(u6); p4 != p6 {
			t.Logf("IPv6 listens on port %s, IPv4 on %s: localhost reaches IPv4 only", p6, p4)
		}
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func port(u string) string {
	pu, _ := url.Parse(u)
	return pu.Port()
}

// TestURL checks the endpoints of a plain fake and its errors.
func TestURL(t *testing.T) {
	h, _ := httpFake(t)
	mounted := h.Mount(&Script{Name: "m"})
	for _, tc := range []struct {
		name, mount, host string
		want              string // URL, or error text
		noIPv6            bool
	}{
		{"ipv4", "m", "127.0.0.1", mounted, false},
		{"localhost", "m", "localhost", strings.Replace(mounted, "127.0.0.1", "localhost", 1), false},
		{"ipv6 not asked for", "m", "[::1]", "does not listen on [::1]", true},
		{"unknown mount", "nope", "127.0.0.1", `no mount "nope"`, false},
		{"unknown host", "m", "example.com", `no URL for host "example.com"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := h.URL(tc.mount, tc.host)
			got := u
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, tc.want) || errors.Is(err, ErrNoIPv6) != tc.noIPv6 {
				t.Errorf("URL(%q, %q) = %q, want %q", tc.mount, tc.host, got, tc.want)
			}
		})
	}
	if !strings.HasPrefix(h.BaseURL(), "http://127.0.0.1:") {
		t.Errorf("BaseURL %s", h.BaseURL())
	}
}

// TestOrdinaryExchangesAreRecordedWithTheirResponses checks that every
// request of a go-sdk client gets a response record after it ended.
func TestOrdinaryExchangesAreRecordedWithTheirResponses(t *testing.T) {
	h, rc := httpFake(t)
	u := h.Mount(&Script{Name: "plain", Tools: []Tool{{Name: "t"}}})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: u, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "t"}); err != nil {
		t.Fatal(err)
	}
	cs.Close()
	reqs := of(rc.log.Records(), record.KindHTTP)
	rc.waitResponses(t, "plain", len(reqs))
	rs := rc.log.Records()
	resps := responses(rs, "plain")
	if len(reqs) == 0 || len(resps) != len(reqs) {
		t.Fatalf("%d requests, %d responses: %s", len(reqs), len(resps), dump(rs))
	}
	var methods []string
	for _, r := range resps {
		if r.Aborted || r.Status/100 != 2 || (r.HTTP.Method == http.MethodPost && r.Written == 0) || r.HTTP.Path != "/mcp/plain" {
			t.Errorf("response record %s", dump([]record.Record{r}))
		}
		methods = append(methods, r.Method)
	}
	if !containsString(methods, "server/discover") || !containsString(methods, "tools/call") {
		t.Errorf("methods of the responses: %v", methods)
	}
	// A request to no mount is answered and recorded too.
	if resp := post(t, http.DefaultClient, h.BaseURL()+"/mcp/nowhere", callMsg); resp.StatusCode != 404 {
		t.Errorf("no mount: %s", resp.Status)
	}
	if r := rc.waitResponses(t, "nowhere", 1)[0]; r.Status != 404 || r.Method != "tools/call" {
		t.Errorf("record %s", dump([]record.Record{r}))
	}
	// Each response is recorded after its request's messages.
	last := map[string]int64{}
	for _, r := range rs {
		if r.Kind == record.KindMessage && r.Dir == "in" {
			last[r.Method] = r.Seq
		}
		if r.Kind == record.KindHTTPResponse && r.Method != "" && r.Seq < last[r.Method] {
			t.Errorf("response #%d recorded before its request #%d", r.Seq, last[r.Method])
		}
	}
}

// TestLegacyOnly checks the legacy HTTP+SSE server: POST answers 405, GET
// opens an event stream naming the message URL and keeps it open, and a
// legacy go-sdk client can actually use it.
func TestLegacyOnly(t *testing.T) {
	h, rc := httpFake(t)
	u := h.Mount(&Script{Name: "old", Tools: []Tool{{Name: "t"}}, HTTP: &HTTPBehaviour{LegacyOnly: true}})

	resp := post(t, http.DefaultClient, u, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET" {
		t.Errorf("POST answered %s, Allow %q", resp.Status, resp.Header.Get("Allow"))
	}

	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	req.Header.Set("Accept", "text/event-stream")
	get, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := get.Header.Get("Content-Type"); get.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("GET answered %s, %s", get.Status, ct)
	}
	br := bufio.NewReader(get.Body)
	ev, _ := br.ReadString('\n')
	data, _ := br.ReadString('\n')
	if ev != "event: endpoint\n" || !strings.HasPrefix(data, "data: /mcp/old?sessionid=") {
		t.Errorf("the stream starts with %q %q", ev, data)
	}
	// The stream stays open until the client goes away.
	if n := len(rc.waitResponses(t, "old", 1)); n != 1 {
		t.Errorf("%d responses recorded while the stream is open", n)
	}
	cancel()
	get.Body.Close()
	rs := rc.waitResponses(t, "old", 2)
	if r := rs[0]; r.Status != 405 || r.Method != "initialize" || r.Aborted {
		t.Errorf("POST response record %s", dump(rs[:1]))
	}
	if r := rs[1]; r.Status != 200 || r.HTTP.Method != http.MethodGet || !r.Aborted || r.Written == 0 {
		t.Errorf("GET response record %s", dump(rs[1:]))
	}

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "legacy", Version: "1"}, nil).Connect(context.Background(), &mcp.SSEClientTransport{Endpoint: u}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if tools, err := cs.ListTools(context.Background(), nil); err != nil || len(tools.Tools) != 1 {
		t.Errorf("a legacy client lists %v %v", tools, err)
	}
}

// TestRedirects checks each redirect status, with a relative and an
// absolute Location, as a client that does not follow sees it, and that a
// client that follows reaches the other mount, whose records show it.
func TestRedirects(t *testing.T) {
	for _, status := range []int{301, 302, 303, 307, 308} {
		for _, absolute := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d absolute=%v", status, absolute), func(t *testing.T) {
				h, rc := httpFake(t)
				h.Mount(&Script{Name: "target", Tools: []Tool{{Name: "t"}}})
				loc := "/mcp/target"
				if absolute {
					loc = h.BaseURL() + loc
				}
				u := h.Mount(&Script{Name: "src", HTTP: &HTTPBehaviour{Redirects: []Redirect{{Method: "tools/call", Status: status, Location: loc}}}})

				resp := post(t, noRedirects, u, callMsg)
				if resp.StatusCode != status || resp.Header.Get("Location") != loc {
					t.Fatalf("answered %s, Location %q", resp.Status, resp.Header.Get("Location"))
				}
				// Another method is not redirected.
				if resp := post(t, noRedirects, u, `{"jsonrpc":"2.0","id":1,"method":"ping"}`); resp.StatusCode/100 == 3 {
					t.Errorf("ping was redirected: %s", resp.Status)
				}

				resp = post(t, http.DefaultClient, u, callMsg)
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				rs := rc.waitResponses(t, "target", 1)
				reached := of(rc.log.Records(), record.KindHTTP)
				last := reached[len(reached)-1]
				if last.Server != "target" {
					t.Fatalf("the followed request is not recorded on the target: %s", dump(reached))
				}
				// Go's client re-sends the POST for 307 and 308 and turns
				// it into a GET for the others, as browsers do.
				wantMethod := http.MethodGet
				if status == 307 || status == 308 {
					wantMethod = http.MethodPost
				}
				if last.HTTP.Method != wantMethod {
					t.Errorf("the target got a %s", last.HTTP.Method)
				}
				if wantMethod == http.MethodPost && (rs[0].Method != "tools/call" || rs[0].Status != 200) {
					t.Errorf("the target's response %s", dump(rs))
				}
				// A response is recorded once it ended, which may be after
				// the client's next request.
				src := rc.waitResponses(t, "src", 3)
				for _, r := range src {
					if (r.Method == "tools/call") != (r.Status == status) {
						t.Errorf("the source's responses %s", dump(src))
					}
				}
			})
		}
	}
}

// TestStatusReplies checks scripted statuses: headers and body, Times, and
// Method "" matching every request.
func TestStatusReplies(t *testing.T) {
	h, rc := httpFake(t)
	u := h.Mount(&Script{Name: "auth", HTTP: &HTTPBehaviour{Status: []StatusReply{
		{Method: "tools/call", Status: 401, Header: map[string]string{"WWW-Authenticate": `Bearer resource_metadata="https://x/.well-known/oauth-protected-resource"`}, Body: "log in", Times: 1},
		{Method: "tools/list", Status: 404},
		{Status: 418, Times: 1},
	}}})
	for i, tc := range []struct {
		method string // "" for a GET
		status int
		header string
		body   string
	}{
		{"tools/call", 401, `Bearer resource_metadata="https://x/.well-known/oauth-protected-resource"`, "log in"},
		{"tools/call", 418, "", ""}, // the 401 is spent; the catch-all answers once
		{"tools/call", 200, "", ""},
		{"tools/list", 404, "", ""},
		{"tools/list", 404, "", ""},
		{"", 405, "", ""}, // go-sdk's stateless server refuses GET
	} {
		var resp *http.Response
		if tc.method == "" {
			var err error
			if resp, err = http.Get(u); err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
		} else {
			resp = post(t, http.DefaultClient, u, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"name":"t"}}`, i+1, tc.method))
		}
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != tc.status || resp.Header.Get("WWW-Authenticate") != tc.header || (tc.body != "" && string(body) != tc.body) {
			t.Errorf("request %d (%s): %s %q %q", i, tc.method, resp.Status, resp.Header.Get("WWW-Authenticate"), body)
		}
	}
	rs := rc.waitResponses(t, "auth", 6)
	if rs[0].Status != 401 || rs[0].Written != int64(len("log in")) || rs[0].Method != "tools/call" {
		t.Errorf("records %s", dump(rs))
	}
}

// TestScriptMistakesAnswer500 checks that impossible statuses and modes
// answer 500 with the reason rather than panicking.
func TestScriptMistakesAnswer500(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    HTTPBehaviour
		want string
	}{
		{"status 0", HTTPBehaviour{Status: []StatusReply{{}}}, "status 0"},
		{"redirect 200", HTTPBehaviour{Redirects: []Redirect{{Status: 200, Location: "/"}}}, "redirects with status 200"},
		{"unknown mode", HTTPBehaviour{Bodies: []Body{{Mode: "huge"}}}, `unknown body mode "huge"`},
		{"exact without bytes", HTTPBehaviour{Bodies: []Body{{Mode: BodyExact}}}, "more than the 0 scripted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, rc := httpFake(t)
			u := h.Mount(&Script{Name: "bad", HTTP: &tc.b})
			resp := post(t, http.DefaultClient, u, callMsg)
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 500 || !strings.Contains(string(b), tc.want) {
				t.Errorf("%s %s", resp.Status, b)
			}
			if rs := rc.waitResponses(t, "bad", 1); rs[0].Status != 500 {
				t.Errorf("record %s", dump(rs))
			}
		})
	}
}

// exactCase is one scripted body size.
type exactCase struct {
	method string
	msg    string
	size   int64
}

var exactCases = []exactCase{
	{"tools/call", callMsg, 1000},
	{"tools/call", callMsg, 4 << 20},
	{"tools/call", callMsg, 4<<20 + 1},
	{"tools/list", `{"jsonrpc":"2.0","id":"list-1","method":"tools/list","params":{}}`, 64 << 10},
	{"ping", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, 500},
	{"initialize", `{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, 2000},
}

// checkPadded checks that b is a response to the request msg of exactly
// size bytes.
func checkPadded(t *testing.T, c exactCase, b []byte) {
	t.Helper()
	if int64(len(b)) != c.size {
		t.Errorf("%d bytes, want %d", len(b), c.size)
	}
	var req, resp struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	_ = json.Unmarshal([]byte(c.msg), &req)
	if err := json.Unmarshal(b, &resp); err != nil || string(resp.ID) != string(req.ID) || resp.Result == nil {
		t.Fatalf("not a result for id %s: %v: %.200s", req.ID, err, b)
	}
	switch c.method {
	case "tools/call":
		var r mcp.CallToolResult
		if err := json.Unmarshal(resp.Result, &r); err != nil || !strings.HasPrefix(r.Content[0].(*mcp.TextContent).Text, "okxxx") {
			t.Errorf("not a padded CallToolResult: %v", err)
		}
	case "tools/list":
		var r mcp.ListToolsResult
		if err := json.Unmarshal(resp.Result, &r); err != nil || len(r.Tools) != 2 || r.Tools[0].Description != "first" || !strings.HasPrefix(r.Tools[1].Description, "secondxxx") {
			t.Errorf("not a padded ListToolsResult: %v", err)
		}
	}
}

var twoTools = []Tool{{Name: "one", Description: "first"}, {Name: "two", Description: "second"}}

// TestExactBodies checks application/json bodies of exactly the scripted
// size, with their Content-Length, as a raw client reads them.
func TestExactBodies(t *testing.T) {
	for _, c := range exactCases {
		t.Run(fmt.Sprintf("%s %d", c.method, c.size), func(t *testing.T) {
			h, rc := httpFake(t)
			u := h.Mount(&Script{Name: "exact", Tools: twoTools, HTTP: &HTTPBehaviour{Bodies: []Body{{Method: c.method, Mode: BodyExact, Bytes: c.size}}}})
			resp := post(t, http.DefaultClient, u, c.msg)
			b, err := io.ReadAll(resp.Body)
			if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || resp.ContentLength != c.size {
				t.Fatalf("%s %s, Content-Length %d, %v", resp.Status, resp.Header.Get("Content-Type"), resp.ContentLength, err)
			}
			checkPadded(t, c, b)
			rs := rc.waitResponses(t, "exact", 1)
			if rs[0].Written != c.size || rs[0].Aborted || rs[0].Method != c.method {
				t.Errorf("record %s", dump(rs))
			}
		})
	}
}

// TestSSEEventBodies checks one message event whose data line has exactly
// the scripted size.
func TestSSEEventBodies(t *testing.T) {
	for _, c := range exactCases {
		t.Run(fmt.Sprintf("%s %d", c.method, c.size), func(t *testing.T) {
			h, _ := httpFake(t)
			u := h.Mount(&Script{Name: "sse", Tools: twoTools, HTTP: &HTTPBehaviour{Bodies: []Body{{Method: c.method, Mode: BodySSEEvent, Bytes: c.size}}}})
			resp := post(t, http.DefaultClient, u, c.msg)
			b, err := io.ReadAll(resp.Body)
			if err != nil || resp.Header.Get("Content-Type") != "text/event-stream" {
				t.Fatalf("%s %v", resp.Header.Get("Content-Type"), err)
			}
			data, ok := strings.CutPrefix(string(b), "event: message\ndata: ")
			if !ok || !strings.HasSuffix(data, "\n\n") || strings.Count(data, "\n") != 2 {
				t.Fatalf("not one message event: %.100q", b)
			}
			checkPadded(t, c, []byte(strings.TrimSuffix(data, "\n\n")))
		})
	}
}

// TestPaddedBodiesThroughAGoSDKClient checks that a go-sdk client at
// 2026-07-28 takes exact and SSE bodies as valid results.
func TestPaddedBodiesThroughAGoSDKClient(t *testing.T) {
	for _, mode := range []string{BodyExact, BodySSEEvent} {
		t.Run(mode, func(t *testing.T) {
			h, _ := httpFake(t)
			u := h.Mount(&Script{Name: "sdk", Tools: twoTools, HTTP: &HTTPBehaviour{Bodies: []Body{
				{Method: "tools/call", Mode: mode, Bytes: 300_000},
				{Method: "tools/list", Mode: mode, Bytes: 200_000},
			}}})
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: u, DisableStandaloneSSE: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "one"})
			if err != nil || len(res.Content[0].(*mcp.TextContent).Text) < 299_000 {
				t.Fatalf("call: %v", err)
			}
			tools, err := cs.ListTools(context.Background(), nil)
			if err != nil || len(tools.Tools) != 2 || len(tools.Tools[1].Description) < 199_000 {
				t.Fatalf("list: %v", err)
			}
		})
	}
}

// TestBodyTooSmall checks that a size below the smallest response is a
// 500 that says so, not a wrong size.
func TestBodyTooSmall(t *testing.T) {
	h, _ := httpFake(t)
	u := h.Mount(&Script{Name: "small", HTTP: &HTTPBehaviour{Bodies: []Body{{Mode: BodyExact, Bytes: 20}}}})
	resp := post(t, http.DefaultClient, u, callMsg)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 500 || !strings.Contains(string(b), "more than the 20 scripted") {
		t.Errorf("%s %s", resp.Status, b)
	}
}

// TestUnboundedBody reads 4 MiB of an endless chunked body and closes it:
// the fake records that it stopped, after at most 5 MiB.
func TestUnboundedBody(t *testing.T) {
	for _, tlsOn := range []bool{false, true} {
		t.Run(fmt.Sprintf("tls=%v", tlsOn), func(t *testing.T) {
			client, opts := http.DefaultClient, HTTPOptions{}
			if tlsOn {
				client, opts = tlsClient(t)
			}
			h, rc := httpFake(t, opts)
			u := h.Mount(&Script{Name: "endless", HTTP: &HTTPBehaviour{Bodies: []Body{{Method: "tools/call", Mode: BodyUnbounded}}}})
			resp := post(t, client, u, callMsg)
			if resp.ContentLength != -1 || !containsString(resp.TransferEncoding, "chunked") {
				t.Errorf("Content-Length %d, Transfer-Encoding %v", resp.ContentLength, resp.TransferEncoding)
			}
			head := make([]byte, 80)
			if _, err := io.ReadFull(resp.Body, head); err != nil || !strings.HasPrefix(string(head), `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"xxx`) {
				t.Fatalf("the body starts with %q (%v)", head, err)
			}
			n, err := io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<20-80))
			if err != nil || n != 4<<20-80 {
				t.Fatalf("read %d: %v", n, err)
			}
			resp.Body.Close()
			rs := rc.waitResponses(t, "endless", 1)
			if r := rs[0]; !r.Aborted || r.Written < 4<<20 || r.Written > 5<<20 || r.Status != 200 {
				t.Errorf("record %s", dump(rs))
			}
		})
	}
}

// tlsClient returns a client trusting a fresh CA, and options serving a
// certificate of it.
func tlsClient(t *testing.T) (*http.Client, HTTPOptions) {
	t.Helper()
	ca, err := tlsca.New("t")
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Issue("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}}}, HTTPOptions{TLS: &cert}
}

// TestEndlessBodyOfAClientThatStopsReading checks both ends of an endless
// body whose client stops reading without closing the connection: the
// fake gives up once a write stalls, and Close ends it at once.
func TestEndlessBodyOfAClientThatStopsReading(t *testing.T) {
	for _, tc := range []struct {
		mode    string
		stallMs int
	}{
		{BodyUnbounded, 100},
		{BodyLyingLength, 100},
		{BodyUnbounded, 0},
		{BodyLyingLength, 0},
	} {
		t.Run(fmt.Sprintf("%s stall=%d", tc.mode, tc.stallMs), func(t *testing.T) {
			log := record.NewLog()
			h, err := NewHTTPServer(log)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			u := h.Mount(&Script{Name: "e", HTTP: &HTTPBehaviour{Bodies: []Body{{Mode: tc.mode, StallMs: tc.stallMs}}}})
			conn, br := rawPost(t, u, callMsg, nil)
			defer conn.Close()
			resp, err := http.ReadResponse(br, nil)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("%v %v", resp, err)
			}
			rc := &recorder{log: log}
			if tc.stallMs == 0 {
				// The default stall is 5 s: Close ends the body first.
				if err := h.Close(); err != nil {
					t.Fatal(err)
				}
			}
			// Close may come before any body byte; a stall, after some.
			rs := rc.waitResponses(t, "e", 1)
			if !rs[0].Aborted || (tc.stallMs > 0 && rs[0].Written == 0) {
				t.Errorf("record %s", dump(rs))
			}
		})
	}
}

// rawPost sends msg to u over a connection of its own (TLS with cfg) and
// returns it, with a reader for the response.
func rawPost(t *testing.T, u, msg string, cfg *tls.Config) (net.Conn, *bufio.Reader) {
	t.Helper()
	pu, _ := url.Parse(u)
	var conn net.Conn
	var err error
	if cfg != nil {
		conn, err = tls.Dial("tcp", pu.Host, cfg)
	} else {
		conn, err = net.Dial("tcp", pu.Host)
	}
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", pu.Path, pu.Host, len(msg), msg)
	return conn, bufio.NewReader(conn)
}

// TestLyingLength reads the raw bytes of responses that declare a
// Content-Length of 10 and write more, over TCP and TLS.
func TestLyingLength(t *testing.T) {
	for _, tc := range []struct {
		bytes int64
		tls   bool
	}{{5000, false}, {1 << 20, false}, {0, false}, {5000, true}, {0, true}} {
		t.Run(fmt.Sprintf("bytes=%d tls=%v", tc.bytes, tc.tls), func(t *testing.T) {
			var opts HTTPOptions
			var client *http.Client
			if tc.tls {
				client, opts = tlsClient(t)
			}
			h, rc := httpFake(t, opts)
			u := h.Mount(&Script{Name: "liar", HTTP: &HTTPBehaviour{Bodies: []Body{{Method: "tools/call", Mode: BodyLyingLength, Bytes: tc.bytes}}}})
			var cfg *tls.Config
			if tc.tls {
				cfg = client.Transport.(*http.Transport).TLSClientConfig
			}
			conn, br := rawPost(t, u, callMsg, cfg)
			defer conn.Close()
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 200 || resp.ContentLength != 10 || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%s, Content-Length %d", resp.Status, resp.ContentLength)
			}
			// Read the raw body past the declared length.
			limit := tc.bytes
			if limit == 0 {
				limit = 3 << 20
			}
			var body bytes.Buffer
			n, err := io.Copy(&body, io.LimitReader(br, limit+1))
			if tc.bytes > 0 {
				if err != nil || n != tc.bytes {
					t.Errorf("read %d body bytes up to the end (%v), want %d", n, err, tc.bytes)
				}
				checkPadded(t, exactCase{"tools/call", callMsg, tc.bytes}, body.Bytes())
			} else if n != limit+1 {
				t.Errorf("an endless lying body ended after %d bytes: %v", n, err)
			}
			conn.Close()
			rs := rc.waitResponses(t, "liar", 1)
			r := rs[0]
			if r.Status != 200 || r.Method != "tools/call" || r.Aborted != (tc.bytes == 0) || (tc.bytes > 0 && r.Written != tc.bytes) || r.Written < n {
				t.Errorf("record %s", dump(rs))
			}
		})
	}
}

// TestCloseWithHangingCall checks that Close ends requests in flight: a
// hanging call is aborted and recorded.
func TestCloseWithHangingCall(t *testing.T) {
	log := record.NewLog()
	h, err := NewHTTPServer(log)
	if err != nil {
		t.Fatal(err)
	}
	u := h.Mount(&Script{Name: "hang", Calls: map[string]Call{"t": {Hang: true}}})
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(callMsg))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		done <- err
	}()
	rc := &recorder{log: log}
	rc.wait(t, "the call", func(rs []record.Record) bool {
		for _, r := range rs {
			if r.Method == "tools/call" {
				return true
			}
		}
		return false
	})
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	<-done
	rs := rc.waitResponses(t, "hang", 1)
	if !rs[0].Aborted {
		t.Errorf("record %s", dump(rs))
	}
}

// TestHangingCallOfAClientThatGoesAway checks that the handler of a
// 2026-07-28 call ends when its client goes away, so that the response is
// recorded (aborted) then, not only when the fake closes.
func TestHangingCallOfAClientThatGoesAway(t *testing.T) {
	h, rc := httpFake(t)
	u := h.Mount(&Script{Name: "hang", Calls: map[string]Call{"t": {Hang: true}}})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: u, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
		done <- err
	}()
	rc.wait(t, "the call", func(rs []record.Record) bool {
		for _, r := range rs {
			if r.Method == "tools/call" {
				return true
			}
		}
		return false
	})
	cancel()
	if err := <-done; err == nil {
		t.Fatal("a cancelled hanging call returned a result")
	}
	rs := rc.wait(t, "the call's response", func(rs []record.Record) bool {
		for _, r := range responses(rs, "hang") {
			if r.Method == "tools/call" {
				return true
			}
		}
		return false
	})
	for _, r := range responses(rs, "hang") {
		if r.Method == "tools/call" && !r.Aborted {
			t.Errorf("record %s", dump([]record.Record{r}))
		}
	}
}

// TestJSONResponse checks that a mount scripted so answers with plain JSON
// where go-sdk answers with an event stream by default.
func TestJSONResponse(t *testing.T) {
	for _, tc := range []struct {
		b    *HTTPBehaviour
		want string
	}{
		{nil, "text/event-stream"},
		{&HTTPBehaviour{}, "text/event-stream"},
		{&HTTPBehaviour{JSONResponse: true}, "application/json"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			h, _ := httpFake(t)
			u := h.Mount(&Script{Name: "j", Tools: []Tool{{Name: "t"}}, HTTP: tc.b})
			resp := post(t, http.DefaultClient, u, callMsg)
			b, _ := io.ReadAll(resp.Body)
			if ct := resp.Header.Get("Content-Type"); ct != tc.want || !strings.Contains(string(b), `"id":7`) {
				t.Errorf("%s %s: %.200s", resp.Status, ct, b)
			}
		})
	}
}

// TestResponseRecordedWhenTheAnswerIsFlushed checks that the response is
// recorded as soon as a flush sends the JSON-RPC answer to the request,
// not when the handler returns: a client acts on the answer at once.
func TestResponseRecordedWhenTheAnswerIsFlushed(t *testing.T) {
	id7, _ := jsonrpc.MakeID(float64(7))
	for _, tc := range []struct {
		name   string
		writes []string
		want   bool
	}{
		{"sse answer", []string{"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":7}}\n\n", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n"}, true},
		{"json answer", []string{`{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"m"}}`}, true},
		{"notification only", []string{"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"id\":7}}\n\n"}, false},
		{"another id", []string{"data: {\"jsonrpc\":\"2.0\",\"id\":70,\"result\":{}}\n\n"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := record.NewLog()
			r := httptest.NewRequest(http.MethodPost, "/mcp/x", nil)
			x := &exchange{h: &HTTPServer{log: log}, r: r, id: id7, method: "tools/call", rec: record.Record{Server: "x"}}
			x.w = &countingWriter{w: httptest.NewRecorder(), x: x, watch: []byte(`"id":7`)}
			for _, w := range tc.writes {
				if _, err := x.w.Write([]byte(w)); err != nil {
					t.Fatal(err)
				}
				x.w.Flush()
			}
			if got := len(responses(log.Records(), "x")) == 1; got != tc.want {
				t.Fatalf("recorded at the flush: %v", got)
			}
			x.finish()
			if rs := responses(log.Records(), "x"); len(rs) != 1 || rs[0].Aborted || rs[0].Written == 0 {
				t.Errorf("records %s", dump(rs))
			}
		})
	}
}
