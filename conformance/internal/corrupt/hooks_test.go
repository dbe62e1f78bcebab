package corrupt

import (
	"bytes"
	"strings"
	"testing"
)

// sink collects what a queue writes.
type sink struct{ bytes.Buffer }

func (*sink) Close() error { return nil }

// in is one line fed to a session, travelling dir.
type in struct {
	dir  Dir
	line string
}

// feed runs lines through a session with hook and returns what went to
// the adapter and to the runner, one line each.
func feed(hook Hook, lines ...in) (toAdapter, toRunner []string) {
	a, r := &sink{}, &sink{}
	s := newSession(hook, a, r)
	for _, l := range lines {
		s.handle(decode([]byte(l.line), l.dir))
	}
	for _, q := range s.queues {
		q.close()
		_ = q.wait()
	}
	split := func(b *sink) []string {
		return strings.FieldsFunc(b.String(), func(r rune) bool { return r == '\n' })
	}
	return split(a), split(r)
}

func TestHooks(t *testing.T) {
	const create = `{"jsonrpc":"2.0","id":1,"method":"agent/create","params":{"agentId":"a","options":{"system":"blade","mcpServers":{"zeta":{"command":"z"},"alpha":{"command":"a","disabled":true}},"approval":true}}}`
	tests := []struct {
		name          string
		hook          Hook
		lines         []in
		adapter, host []string
	}{
		{
			name:    "an edit keeps the order of the keys it does not touch",
			hook:    eachEntry(func(_ string, e Object) { delete(e, "disabled") }),
			lines:   []in{{ToAdapter, create}},
			adapter: []string{`{"jsonrpc":"2.0","id":1,"method":"agent/create","params":{"agentId":"a","options":{"system":"blade","mcpServers":{"zeta":{"command":"z"},"alpha":{"command":"a"}},"approval":true}}}`},
		},
		{
			name: "an error's kind is retyped, the answer keeps its id and message",
			hook: retypeError("name", "config"),
			lines: []in{
				{ToAdapter, `{"jsonrpc":"2.0","id":2,"method":"agent/register","params":{"agentId":"a","name":"a.b","entry":{}}}`},
				{ToRunner, `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"LA-NAME-03: bad","data":{"kind":"name","rule":"LA-NAME-03"}}}`},
			},
			adapter: []string{`{"jsonrpc":"2.0","id":2,"method":"agent/register","params":{"agentId":"a","name":"a.b","entry":{}}}`},
			host:    []string{`{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"LA-NAME-03: bad","data":{"kind":"config","rule":"LA-NAME-03"}}}`},
		},
		{
			name: "only the cancellation of the named method is dropped",
			hook: dropCancel(ToRunner, "host/approve"),
			lines: []in{
				{ToRunner, `{"jsonrpc":"2.0","id":1,"method":"host/approve","params":{}}`},
				{ToRunner, `{"jsonrpc":"2.0","id":2,"method":"host/model","params":{}}`},
				{ToRunner, `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}`},
				{ToRunner, `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}`},
			},
			host: []string{
				`{"jsonrpc":"2.0","id":1,"method":"host/approve","params":{}}`,
				`{"jsonrpc":"2.0","id":2,"method":"host/model","params":{}}`,
				`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}`,
			},
		},
		{
			name: "a failed call is replayed once, and its second failure goes to the model",
			hook: failedCallReplayed(),
			lines: []in{
				{ToRunner, `{"jsonrpc":"2.0","id":5,"method":"host/model","params":{"agentId":"a","request":{"messages":[{"role":"assistant","toolCalls":[{"id":"c1","name":"mcp__p__act","arguments":{"n":1}}]},{"role":"tool","toolCallId":"c1","isError":true,"text":"boom"}]}}}`},
				{ToRunner, `{"jsonrpc":"2.0","id":6,"method":"host/model","params":{"agentId":"a","request":{"messages":[{"role":"tool","toolCallId":"c1-again","isError":true,"text":"boom"}]}}}`},
			},
			adapter: []string{`{"jsonrpc":"2.0","id":5,"result":{"toolCalls":[{"arguments":{"n":1},"id":"c1-again","name":"mcp__p__act"}]}}`},
			host:    []string{`{"jsonrpc":"2.0","id":6,"method":"host/model","params":{"agentId":"a","request":{"messages":[{"role":"tool","toolCallId":"c1-again","isError":true,"text":"boom"}]}}}`},
		},
		{
			name: "a timeout becomes a success in tool:end, in its raw payload too",
			hook: outcomeAsSuccess("timeout"),
			lines: []in{
				{ToRunner, `{"jsonrpc":"2.0","id":3,"method":"host/hook","params":{"hook":{"type":"tool:end","id":"c","outcome":"timeout","isError":true,"raw":{"outcome":"timeout","isError":true}}}}`},
				{ToRunner, `{"jsonrpc":"2.0","id":4,"method":"host/hook","params":{"hook":{"type":"tool:end","id":"d","outcome":"error","isError":true}}}`},
			},
			host: []string{
				`{"jsonrpc":"2.0","id":3,"method":"host/hook","params":{"hook":{"type":"tool:end","id":"c","outcome":"success","raw":{"outcome":"success"}}}}`,
				`{"jsonrpc":"2.0","id":4,"method":"host/hook","params":{"hook":{"type":"tool:end","id":"d","outcome":"error","isError":true}}}`,
			},
		},
		{
			name: "the answer to the proxy's own request goes to its then, which releases what waited",
			hook: toolInfosCached(),
			lines: []in{
				{ToAdapter, create},
				{ToRunner, `{"jsonrpc":"2.0","id":1,"result":{}}`},
				{ToRunner, `{"jsonrpc":"2.0","id":"corrupt-1","result":{"tools":[{"name":"t","serverName":"zeta"}]}}`},
				{ToAdapter, `{"jsonrpc":"2.0","id":2,"method":"agent/mcpListTools","params":{"agentId":"a"}}`},
				{ToRunner, `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`},
			},
			adapter: []string{
				create,
				`{"jsonrpc":"2.0","id":"corrupt-1","method":"agent/mcpListTools","params":{"agentId":"a"}}`,
				`{"jsonrpc":"2.0","id":2,"method":"agent/mcpListTools","params":{"agentId":"a"}}`,
			},
			host: []string{
				`{"jsonrpc":"2.0","id":1,"result":{}}`,
				`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"t","serverName":"zeta"}]}}`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, h := feed(tt.hook, tt.lines...)
			for _, c := range []struct {
				side      string
				got, want []string
			}{{"adapter", a, tt.adapter}, {"runner", h, tt.host}} {
				if strings.Join(c.got, "\n") != strings.Join(c.want, "\n") {
					t.Errorf("to the %s\n  Expected: %s\n  Actual:   %s", c.side, strings.Join(c.want, "\n            "), strings.Join(c.got, "\n            "))
				}
			}
		})
	}
}

func TestEveryCorruptionPassesWhatItDoesNotConcern(t *testing.T) {
	// A message of a method no corruption concerns goes on unchanged.
	const line = `{"jsonrpc":"2.0","id":7,"method":"x/unrelated","params":{"b":1,"a":[2,"<&>"]}}`
	for _, c := range All() {
		a, _ := feed(c.New(), in{ToAdapter, line})
		if len(a) != 1 || a[0] != line {
			t.Errorf("%s: an unrelated request became %q", c.Name, a)
		}
	}
}
