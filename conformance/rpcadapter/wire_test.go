package rpcadapter

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestDecodeMessageAsGoSDK: decodeMessage reads every message as go-sdk's
// jsonrpc.DecodeMessage does (the same kind, id, method, params, result
// and error), and refuses what it refuses.
func TestDecodeMessageAsGoSDK(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"agent/list","params":{"agentId":"a1"}}`,
		`{"jsonrpc":"2.0","id":"x","method":"","params":[1,2]}`,
		`{"jsonrpc":"2.0","method":"host/event","params":{"e":"\u00e9\"}"}}`,
		`{"jsonrpc":"2.0","id":7,"result":{"ok":true}}`,
		`{"jsonrpc":"2.0","id":7,"result":null}`,
		`{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"bad","data":{"rule":"LA-CFG-01"}}}`,
		` {"jsonrpc":"2.0","id":2.0,"method":"m"} `,
	} {
		want, err := jsonrpc.DecodeMessage([]byte(line))
		if err != nil {
			t.Fatalf("go-sdk refuses %s: %v", line, err)
		}
		got, err := decodeMessage([]byte(line))
		if err != nil {
			t.Errorf("decodeMessage(%s): %v; go-sdk decodes it", line, err)
			continue
		}
		if d := cmp.Diff(describe(want), describe(got)); d != "" {
			t.Errorf("decodeMessage(%s) differs from go-sdk (-go-sdk +ours):\n%s", line, d)
		}
	}
	for _, line := range []string{
		`{"jsonrpc":"1.0","id":1,"method":"m"}`,
		`{"id":1,"method":"m"}`,
		`{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"2.0","id":true,"method":"m"}`,
		`{"jsonrpc":"2.0","id":1,"method":3}`,
		`{"Jsonrpc":"2.0","id":1,"method":"m"}`,
		`{"jsonrpc":"2.0","id":1,"method":"m"`,
		`[1]`,
		`{"jsonrpc":"2.0","id":1,"method":"m","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`,
	} {
		if _, err := jsonrpc.DecodeMessage([]byte(line)); err == nil {
			t.Fatalf("go-sdk decodes %s", line)
		}
		if m, err := decodeMessage([]byte(line)); err == nil {
			t.Errorf("decodeMessage(%.60s) = %v; want an error, as go-sdk's", line, describe(m))
		}
	}
	// Stricter than go-sdk, whose stream decoder stops after the first
	// value: a line holds one message and nothing else.
	if _, err := decodeMessage([]byte(`{"jsonrpc":"2.0","id":1,"method":"m"} {"x":1}`)); err == nil {
		t.Error("decodeMessage accepted bytes after the message")
	}
	// Nesting within the bound decodes; inside strings, brackets are text.
	deep := `{"jsonrpc":"2.0","id":1,"method":"m","params":` + strings.Repeat("[", 998) + `"` + strings.Repeat("[", 5000) + `"` + strings.Repeat("]", 998) + `}`
	if _, err := decodeMessage([]byte(deep)); err != nil {
		t.Errorf("decodeMessage refused a message nested 999 deep: %v", err)
	}
	// At the bound, with no bracket in a string: the count alone lets it
	// through (jsondepth.Exceeds's quick path), as the scan would.
	atBound := `{"jsonrpc":"2.0","id":1,"method":"m","params":` + strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1) + `}`
	if _, err := decodeMessage([]byte(atBound)); err != nil {
		t.Errorf("decodeMessage refused a message nested %d deep: %v", maxDepth, err)
	}
}

// describe is what a message says, for comparison.
func describe(m jsonrpc.Message) map[string]any {
	out := map[string]any{}
	switch m := m.(type) {
	case *jsonrpc.Request:
		out["kind"], out["id"], out["method"], out["params"] = "request", m.ID.Raw(), m.Method, string(m.Params)
	case *jsonrpc.Response:
		out["kind"], out["id"], out["result"] = "response", m.ID.Raw(), string(m.Result)
		if m.Error != nil {
			b, _ := json.Marshal(m.Error)
			out["error"] = string(b)
		}
	}
	return out
}

// TestEncodeMessageAsGoSDK: encodeMessage writes every message go-sdk's
// jsonrpc.EncodeMessage writes, byte for byte, and a newline; an error
// goes out as the protocol's wire error of it ([wireError]).
func TestEncodeMessageAsGoSDK(t *testing.T) {
	id1, _ := jsonrpc.MakeID(float64(1))
	idx, _ := jsonrpc.MakeID("x<y>")
	for _, m := range []jsonrpc.Message{
		&jsonrpc.Request{ID: id1, Method: "agent/list", Params: json.RawMessage(`{"agentId":"a1"}`)},
		&jsonrpc.Request{ID: idx, Method: "host/<model>"},
		&jsonrpc.Request{Method: "host/event", Params: json.RawMessage(`{"e":"é"}`)},
		&jsonrpc.Response{ID: id1, Result: json.RawMessage(`{"ok":true}`)},
		&jsonrpc.Response{ID: idx, Error: &jsonrpc.Error{Code: -32602, Message: "bad <params>", Data: json.RawMessage(`{"rule":"LA-CFG-01"}`)}},
		&jsonrpc.Response{ID: id1, Error: fmt.Errorf("wrapped: %w", &jsonrpc.Error{Code: -32001, Message: "inner"})},
		&jsonrpc.Response{ID: id1, Error: errors.New("plain")},
	} {
		// An error that is not a wire error is written as the protocol
		// has it (wireError), as go-sdk would write that one.
		sdk := m
		if r, ok := m.(*jsonrpc.Response); ok && r.Error != nil {
			sdk = &jsonrpc.Response{ID: r.ID, Error: wireError(r.Error)}
		}
		want, err := jsonrpc.EncodeMessage(sdk)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeMessage(m)
		if err != nil {
			t.Fatalf("encodeMessage(%s): %v", want, err)
		}
		if string(got) != string(want)+"\n" {
			t.Errorf("encodeMessage:\n got %s\nwant %s", got, want)
		}
	}
}

// TestMarshalAsEncodingJSON: marshal writes what json.Marshal writes,
// byte for byte, and refuses what it refuses: HTML characters escaped,
// U+2028 and U+2029 escaped, invalid UTF-8 replaced, raw messages
// compacted, floats, maps in key order, the protocol's params.
func TestMarshalAsEncodingJSON(t *testing.T) {
	for _, v := range []any{
		ProjectParams{AgentID: "agent-1<&>", Result: json.RawMessage(`{"a": "<b>&c", "x" : [1, 2 ,3]}`)},
		ProjectParams{AgentID: "a", Result: json.RawMessage("{\n \"k\": \"\xff\u2028\u2029\",\n \"e\": \"\\u003c\\ud83d\\ude00\"\n}")},
		ProjectParams{AgentID: "a", Result: json.RawMessage(`  [ 1.0e10, -0.0, 1e-7 ]  `)},
		ProjectParams{AgentID: "a", Result: json.RawMessage(`{"content":[{"type":"text","text":"` + strings.Repeat("héllo <world> & ", 5000) + `"}]}`)},
		ProjectParams{AgentID: "a", Result: json.RawMessage(`{"unterminated": `)},
		ProjectParams{AgentID: "a"},
		map[string]any{"z": 1.5, "a": []any{nil, true, "\x00\x1f\x7f", 1e21, 123456789.0}, "m": map[string]int{"b": 2, "a": 1}},
		SendParams{AgentID: "a", Prompt: "say <hi> & \"bye\"\t\u00e9"},
		AdvanceParams{AgentID: "a", Ms: -1},
		empty{},
		math.Inf(1),
		make(chan int),
	} {
		want, werr := json.Marshal(v)
		got, gerr := marshal(v)
		if (werr == nil) != (gerr == nil) || string(got) != string(want) {
			t.Errorf("marshal(%T):\n got %.200s (error %v)\nwant %.200s (error %v)", v, got, gerr, want, werr)
		}
	}
}
