package record

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

// TestEncodeIsJSONMarshal checks that encode writes exactly the bytes of
// json.Marshal, for records of every field and strings of every kind of
// character json.Marshal escapes.
func TestEncodeIsJSONMarshal(t *testing.T) {
	records := []Record{
		{},
		{Kind: KindStart, Server: "s", Instance: "s/pid-1", PID: 12, PPID: 3, Argv: []string{"a", "b c"}, Env: []string{"A=1", "B=<&>"}, Cwd: "/tmp/x"},
		{Kind: KindMessage, Dir: "in", Method: "tools/call", ID: json.RawMessage(`7`), Params: json.RawMessage(" {\"a\" : [1, 2],\n \"b\":\"<x>&\u2028\"} "), Bytes: 99},
		{Kind: KindMessage, Dir: "out", ID: json.RawMessage(`"id-1"`), Error: &RPCError{Code: -32601, Message: "no \"such\" method\n"}},
		{Kind: KindAnswer, Method: "roots/list", ID: json.RawMessage(`"mcpconform-ask-1"`), Result: json.RawMessage(`{"roots":[]}`), Aborted: true},
		{Kind: KindHTTPResponse, Status: 200, Written: 1 << 40, Aborted: true},
		{Kind: KindNotSent, Params: json.RawMessage(`{"reason":"none"}`), Argv: []string{}, Env: nil},
		{Seq: -5, Time: time.Date(2026, 12, 3, 9, 30, 0, 123456789, time.FixedZone("x", 3600)), Kind: KindExit},
		{Kind: KindHTTP, HTTP: &HTTPRequest{Method: "POST", Path: "/mcp", Host: "127.0.0.1:1", Header: map[string][]string{"B": {"2"}, "A": nil}}},
		{Kind: KindMessage, Params: json.RawMessage(`{"broken"`)},                             // not JSON: json.Marshal's error
		{Kind: KindMessage, Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},               // a time json.Marshal refuses
		{Kind: KindSandbox, Argv: []string{"\x00\x01\x1f\x7f", "\xff\xfe", "é\u2029😀", `\"`}}, // controls, invalid UTF-8, separators
	}
	alphabet := []string{"a", " ", "\"", "\\", "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "<", ">", "&", "\u2028", "\u2029", "é", "😀", "\xff", "\xe2\x80", "/", "\x7f"}
	rng := rand.New(rand.NewPCG(1, 2))
	str := func() string {
		var b bytes.Buffer
		for range rng.IntN(12) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 500 {
		r := Record{Seq: rng.Int64N(1000), Server: str(), Instance: str(), Kind: Kind(str()), PID: rng.IntN(3), Cwd: str(), Dir: str(), Method: str(), Bytes: rng.IntN(2)}
		for range rng.IntN(3) {
			r.Argv = append(r.Argv, str())
		}
		if rng.IntN(2) == 0 {
			r.Params, _ = json.Marshal(map[string]string{str(): str()})
			r.Error = &RPCError{Code: rng.Int64N(5) - 2, Message: str()}
		}
		records = append(records, r)
	}
	for _, r := range records {
		want, wantErr := json.Marshal(r)
		got, err := encode(r)
		if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
			t.Errorf("encode(%#v)\n = %s, %v\nwant %s, %v (json.Marshal)", r, got, err, want, wantErr)
		}
	}
}

// BenchmarkEncode compares encode with json.Marshal on a stdio fake's
// start record.
func BenchmarkEncode(b *testing.B) {
	r := Record{Kind: KindStart, Server: "s", Instance: "s/pid-1", PID: 12, PPID: 3, Argv: []string{"/bin/mcpconform-fake", "__mcpconform-fake-stdio", "--script", "/tmp/x/s.json"}, Env: []string{"PATH=/usr/bin:/bin", "HOME=/tmp/x", "LANG=C.UTF-8"}, Cwd: "/tmp/x"}
	b.Run("encode", func(b *testing.B) {
		for b.Loop() {
			_, _ = encode(r)
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		for b.Loop() {
			_, _ = json.Marshal(r)
		}
	})
}
