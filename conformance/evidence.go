package conformance

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpconform/mcpconform/fakes/record"
)

// Queries over the fakes' records, shared by the steps.

// handshakeMethods are the requests that open an MCP session: the
// 2026-07-28 server/discover, or initialize of older protocols.
var handshakeMethods = []string{"server/discover", "initialize"}

// requestsOf returns the JSON-RPC requests server received, optionally
// only those of one of methods.
func requestsOf(rs []record.Record, server string, methods ...string) []record.Record {
	var out []record.Record
	for _, r := range rs {
		if r.Server != server || !r.IsRequest() {
			continue
		}
		if len(methods) == 0 || contains(methods, r.Method) {
			out = append(out, r)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// connections counts the sessions of server that reached discovery: a
// handshake followed by tools/list from the same instance.
func connections(rs []record.Record, server string) int {
	open := map[string]bool{} // instance → a handshake not yet followed by tools/list
	n := 0
	for _, r := range requestsOf(rs, server) {
		switch {
		case contains(handshakeMethods, r.Method):
			open[r.Instance] = true
		case r.Method == "tools/list" && open[r.Instance]:
			open[r.Instance] = false
			n++
		}
	}
	return n
}

// startsOf returns the process starts of server.
func startsOf(rs []record.Record, server string) []record.Record {
	var out []record.Record
	for _, r := range rs {
		if r.Server == server && r.Kind == record.KindStart {
			out = append(out, r)
		}
	}
	return out
}

// contactsOf returns every record that shows server was reached: a process
// start, an HTTP request or a message. The fakes' own bookkeeping (exits,
// the ends of HTTP responses) is not contact.
func contactsOf(rs []record.Record, server string) []record.Record {
	var out []record.Record
	for _, r := range rs {
		if r.Server == server && r.Kind != record.KindHost && r.Kind != record.KindExit && r.Kind != record.KindHTTPResponse {
			out = append(out, r)
		}
	}
	return out
}

// toolCalls returns the tools/call requests of server for tool (any tool
// when empty).
func toolCalls(rs []record.Record, server, tool string) []record.Record {
	var out []record.Record
	for _, r := range requestsOf(rs, server, "tools/call") {
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(r.Params, &p)
		if tool == "" || p.Name == tool {
			out = append(out, r)
		}
	}
	return out
}

// describe summarizes records for failure messages and evidence.
func describe(r record.Record) string {
	switch r.Kind {
	case record.KindStart:
		return fmt.Sprintf("#%d %s: process started (pid %d)", r.Seq, r.Server, r.PID)
	case record.KindExit:
		return fmt.Sprintf("#%d %s: process exited (pid %d)", r.Seq, r.Server, r.PID)
	case record.KindHTTP:
		return fmt.Sprintf("#%d %s: HTTP %s %s (%d bytes)", r.Seq, r.Server, r.HTTP.Method, r.HTTP.Path, r.Bytes)
	case record.KindHTTPResponse:
		end := "complete"
		if r.Aborted {
			end = "cut short"
		}
		return fmt.Sprintf("#%d %s: answered %s with HTTP %d, %d bytes written, %s", r.Seq, r.Server, r.Method, r.Status, r.Written, end)
	case record.KindSandbox:
		return fmt.Sprintf("#%d sandbox (pid %d): %s", r.Seq, r.PID, strings.Join(r.Argv, " "))
	case record.KindStdinClosed:
		return fmt.Sprintf("#%d %s: stdin closed; the process runs on until a signal ends it", r.Seq, r.Server)
	case record.KindAnswer:
		answer := "result"
		switch {
		case r.Aborted:
			answer = "no answer"
		case r.Error != nil:
			answer = fmt.Sprintf("error %d", r.Error.Code)
		}
		return fmt.Sprintf("#%d %s: the client answered its %s with %s", r.Seq, r.Server, r.Method, answer)
	case record.KindHost:
		p := string(r.Params)
		if len(p) > 160 {
			p = p[:160] + "…"
		}
		return fmt.Sprintf("#%d host: %s %s", r.Seq, r.Method, p)
	}
	what := r.Method
	if what == "" {
		what = "response"
	}
	if len(r.ID) > 0 {
		what += " id=" + string(r.ID)
	}
	return fmt.Sprintf("#%d %s: %s %s (%d bytes)", r.Seq, r.Server, r.Dir, what, r.Bytes)
}

// summarize describes a list of records in one line.
func summarize(rs []record.Record) string {
	if len(rs) == 0 {
		return "nothing"
	}
	var parts []string
	for i, r := range rs {
		if i == 6 {
			parts = append(parts, fmt.Sprintf("… %d more", len(rs)-i))
			break
		}
		parts = append(parts, describe(r))
	}
	return strings.Join(parts, "; ")
}

// recordText is everything a record carries, as text, for canary searches.
func recordText(r record.Record) string {
	b, _ := json.Marshal(r)
	return string(b)
}
