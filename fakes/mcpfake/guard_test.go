package mcpfake

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcpconform/mcpconform/fakes/record"
)

// stubGuard lets through requests carrying X-Pass: yes, and remembers the
// resource URLs it was given.
type stubGuard struct {
	mu   sync.Mutex
	urls []string
}

func (g *stubGuard) seen(u string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.urls = append(g.urls, u)
}

func (g *stubGuard) Metadata(w http.ResponseWriter, r *http.Request, resourceURL string) {
	g.seen(resourceURL)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"resource": resourceURL})
}

func (g *stubGuard) Check(w http.ResponseWriter, r *http.Request, resourceURL string) bool {
	g.seen(resourceURL)
	if r.Header.Get("X-Pass") == "yes" {
		return true
	}
	w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="x"`)
	w.WriteHeader(http.StatusUnauthorized)
	return false
}

// selfRecording is a handler that says it records its requests.
type selfRecording struct{ http.Handler }

func (selfRecording) RecordsRequests() bool { return true }

// TestGuardAndHandle checks the routing of a guarded mount (its protected
// resource metadata, the check before the MCP server) and of the handlers
// added with Handle, and what each records.
func TestGuardAndHandle(t *testing.T) {
	h, rc := httpFake(t)
	g := &stubGuard{}
	guarded := h.Mount(&Script{Name: "g", Tools: []Tool{{Name: "t"}}, HTTP: &HTTPBehaviour{Guard: g}})
	h.Mount(&Script{Name: "open", Tools: []Tool{{Name: "t"}}})
	hello := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "hello "+r.URL.Path) })
	h.Handle("/plain/", hello)
	h.Handle("/self", selfRecording{hello})
	for _, pattern := range []string{"/mcp/x", "GET /mcp/", "/.well-known/oauth-protected-resource/mcp/g"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Handle(%q) did not panic", pattern)
				}
			}()
			h.Handle(pattern, hello)
		}()
	}

	base := h.BaseURL()
	for _, tc := range []struct {
		name, method, path string
		pass               bool
		status             int
		body               string // a substring of the body
		server             string // the Server of the request's record; "" for none
	}{
		{"metadata", "GET", ProtectedResourceMetadataPrefix + "/mcp/g", false, 200, `"resource":"` + guarded + `"`, "g"},
		{"metadata of an open mount", "GET", ProtectedResourceMetadataPrefix + "/mcp/open", false, 404, "", "open"},
		{"refused", "POST", "/mcp/g", false, 401, "", "g"},
		{"passed", "POST", "/mcp/g", true, 200, `"result"`, "g"},
		{"open", "POST", "/mcp/open", false, 200, `"result"`, "open"},
		{"handled", "GET", "/plain/x?q=1", false, 200, "hello /plain/x", "/plain/"},
		{"self-recording", "GET", "/self", false, 200, "hello /self", ""},
		{"unhandled", "GET", "/elsewhere", false, 404, "", "/elsewhere"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := rc.log.Len()
			var body io.Reader
			if tc.method == "POST" {
				body = strings.NewReader(callMsg)
			}
			req, _ := http.NewRequest(tc.method, base+tc.path, body)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
			if tc.pass {
				req.Header.Set("X-Pass", "yes")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.body) {
				t.Fatalf("%s: %s", resp.Status, b)
			}
			if tc.status == 401 && resp.Header.Get("WWW-Authenticate") == "" {
				t.Error("no challenge")
			}
			var reqs []record.Record
			for _, r := range rc.log.Records()[before:] {
				if r.Kind == record.KindHTTP {
					reqs = append(reqs, r)
				}
			}
			if tc.server == "" {
				if len(reqs) != 0 {
					t.Errorf("records %s", dump(reqs))
				}
				return
			}
			if len(reqs) != 1 || reqs[0].Server != tc.server || reqs[0].HTTP.Path != strings.SplitN(tc.path, "?", 2)[0] {
				t.Errorf("records %s", dump(reqs))
			}
			if strings.HasPrefix(tc.path, "/mcp/") || strings.HasPrefix(tc.path, ProtectedResourceMetadataPrefix) {
				var n int
				for _, r := range of(rc.log.Records(), record.KindHTTP) {
					if r.Server == tc.server {
						n++
					}
				}
				if r := rc.waitResponses(t, tc.server, n); r[n-1].Status != tc.status {
					t.Errorf("response record %s", dump(r))
				}
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
