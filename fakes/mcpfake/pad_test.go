package mcpfake

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestPadResponse(t *testing.T) {
	for _, tc := range []struct {
		name, method, raw string
		size              int64
		where             string // a JSON fragment the padded response holds
		err               string
	}{
		{"call text", "tools/call", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"image","data":"", "mimeType":"image/png"},{"type":"text","text":"a<b"}]}}`, 300, `"text":"a<bxxx`, ""},
		{"call without text", "tools/call", `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`, 100, `"content":[{"text":"xxx`, ""},
		{"list", "tools/list", `{"jsonrpc":"2.0","id":"a","result":{"tools":[{"name":"x","description":"d1"},{"name":"y","inputSchema":{}}]}}`, 1000, `"description":"xxx`, ""},
		{"empty list", "tools/list", `{"jsonrpc":"2.0","id":"a","result":{"tools":[]}}`, 1000, `"mcpconform/padding":"xxx`, ""},
		{"other", "ping", `{"jsonrpc":"2.0","id":2,"result":{}}`, 77, `"_meta":{"mcpconform/padding":"xxx`, ""},
		{"error", "tools/call", `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"boom"}}`, 500, `"message":"boomxxx`, ""},
		{"exact already", "ping", `{"id":2,"jsonrpc":"2.0","result":{"_meta":{"mcpconform/padding":""}}}`, 69, `"mcpconform/padding":""`, ""},
		{"too small", "ping", `{"jsonrpc":"2.0","id":2,"result":{}}`, 10, "", "more than the 10 scripted"},
		{"no result", "ping", `{"jsonrpc":"2.0","id":2}`, 100, "", "without a result"},
		{"not JSON", "ping", `nope`, 100, "", "padding a response"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := padResponse([]byte(tc.raw), tc.method, tc.size)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(out)) != tc.size || !json.Valid(out) || !bytes.Contains(out, []byte(tc.where)) {
				t.Errorf("%d bytes: %.200s", len(out), out)
			}
			var orig, padded map[string]json.RawMessage
			_ = json.Unmarshal([]byte(tc.raw), &orig)
			_ = json.Unmarshal(out, &padded)
			if string(orig["id"]) != string(padded["id"]) {
				t.Errorf("id %s became %s", orig["id"], padded["id"])
			}
		})
	}
}

func TestWriteStderr(t *testing.T) {
	for _, n := range []int64{0, 1, 1023, 64 << 10, 64<<10 + 1, 1 << 20} {
		var buf chunkRecorder
		if err := writeStderr(&buf, n, "CANARY"); err != nil {
			t.Fatal(err)
		}
		if int64(buf.Len()) != n {
			t.Errorf("%d: wrote %d bytes", n, buf.Len())
		}
		for _, c := range buf.chunks {
			if c > 64<<10 {
				t.Errorf("%d: a write of %d bytes", n, c)
			}
		}
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		for i, l := range lines {
			if len(l) > len("CANARY") && !strings.Contains(l, "CANARY") {
				t.Errorf("%d: line %d has no canary: %.40q", n, i, l)
			}
		}
		if n > 0 && !strings.HasSuffix(buf.String(), "\n") {
			t.Errorf("%d: the last line does not end", n)
		}
	}
}

type chunkRecorder struct {
	bytes.Buffer
	chunks []int
}

func (c *chunkRecorder) Write(p []byte) (int, error) {
	c.chunks = append(c.chunks, len(p))
	return c.Buffer.Write(p)
}
