package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// readAll reads every message the transport t yields from a connection
// over input, until an error: each message as its encoding, then the end
// ("EOF") or "error".
func readAll(t *testing.T, tr func(r io.ReadCloser, w io.WriteCloser) mcp.Transport, input string) []string {
	t.Helper()
	conn, err := tr(io.NopCloser(strings.NewReader(input)), nopWriteCloser{io.Discard}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var out []string
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for range 100 {
		msg, err := conn.Read(ctx)
		switch {
		case errors.Is(err, io.EOF):
			return append(out, "EOF")
		case err != nil:
			if ctx.Err() != nil {
				t.Fatalf("no message nor end within 10s of reading %q", input)
			}
			return append(out, "error")
		}
		b, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	t.Fatalf("more than 100 messages from %q", input)
	return nil
}

// deepParams is a request line whose params nest n arrays deep: the
// message, n+1.
func deepParams(n int) string {
	return `{"jsonrpc":"2.0","method":"m","params":` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}\n"
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// TestLineConnReadsWhatGoSDKReads feeds the same streams to go-sdk's
// IOTransport and to lineTransport: both must yield the same messages and
// stop the same way, so that decoding each message once changes nothing
// a server can see.
func TestLineConnReadsWhatGoSDKReads(t *testing.T) {
	goSDK := func(r io.ReadCloser, w io.WriteCloser) mcp.Transport {
		return &mcp.IOTransport{Reader: r, Writer: w, MaxLineLength: -1}
	}
	ours := func(r io.ReadCloser, w io.WriteCloser) mcp.Transport { return &lineTransport{r: r, w: w} }
	req := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	resp := `{"jsonrpc":"2.0","id":"a","result":{"tools":[]}}`
	note := `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`
	errResp := `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no"}}`
	for _, tc := range []struct{ name, input string }{
		{"one of each", req + "\n" + resp + "\n" + note + "\n" + errResp + "\n"},
		{"crlf", req + "\r\n" + resp + "\r\n"},
		{"no final newline", req},
		{"blank lines", "\n\n" + req + "\n\n" + resp + "\n"},
		{"leading spaces", "   " + req + "\n"},
		{"a message over lines", "{\"jsonrpc\":\"2.0\",\n\"id\":1,\n\"result\":{}}\n"},
		{"trailing data", req + " x\n"},
		{"two on a line", req + resp + "\n"},
		{"not JSON", "hello\n"},
		{"not JSON after a message", req + "\nhello\n"},
		{"a number", "42\n"},
		{"a string", `"x"` + "\n"},
		{"null", "null\n"},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"m"}` + "\n"},
		{"no version", `{"id":1,"method":"m"}` + "\n"},
		{"a response without id", `{"jsonrpc":"2.0","result":{}}` + "\n"},
		{"an object id", `{"jsonrpc":"2.0","id":{},"method":"m"}` + "\n"},
		{"a batch", "[" + resp + "," + note + "]\n" + req + "\n"},
		{"a batch with spaces", " [ " + resp + " ]\n"},
		{"an empty batch", "[]\n"},
		{"a batch with a bad message", "[" + resp + ",1]\n"},
		{"a batch of requests", "[" + req + "," + strings.Replace(req, `"id":1`, `"id":2`, 1) + "]\n"},
		{"a batch with a duplicate id", "[" + req + "," + req + "]\n"},
		{"a batch reusing an unanswered request's id", "[" + req + "]\n[" + req + "]\n"},
		{"a cut message", `{"jsonrpc":"2.0","id":1,`},
		{"empty", ""},
		{"deep", strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + "\n"},
		{"a message at the depth bound", deepParams(999)},
		{"a message past the depth bound", deepParams(1000)},
		{"a batch at the depth bound", "[" + strings.TrimSuffix(deepParams(998), "\n") + "]\n"},
		{"a batch past the depth bound", "[" + strings.TrimSuffix(deepParams(999), "\n") + "]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := readAll(t, goSDK, tc.input)
			got := readAll(t, ours, tc.input)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("lineTransport read %q otherwise than go-sdk (-go-sdk +lineTransport):\n%s", tc.input, d)
			}
		})
	}
}

// TestLineConnAnswersABatchTogether checks that the answers to the
// requests of an incoming batch are written as one array, once the last
// is known, and every other message on a line of its own.
func TestLineConnAnswersABatchTogether(t *testing.T) {
	pr, pw := io.Pipe()
	var out strings.Builder
	conn := newLineConn(pr, nopWriteCloser{&out})
	defer conn.Close()
	go func() {
		fmt.Fprintln(pw, `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"b"}]`)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var ids []jsonrpc.ID
	for range 3 {
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) != 2 {
		t.Fatalf("the batch held %d requests, want 2", len(ids))
	}
	mustWrite := func(msg jsonrpc.Message) {
		t.Helper()
		if err := conn.Write(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(&jsonrpc.Request{Method: "notifications/x"})
	mustWrite(&jsonrpc.Response{ID: ids[1], Result: []byte(`{"b":true}`)})
	if got, want := out.String(), `{"jsonrpc":"2.0","method":"notifications/x"}`+"\n"; got != want {
		t.Fatalf("before the batch's last answer, wrote %q, want %q", got, want)
	}
	mustWrite(&jsonrpc.Response{ID: ids[0], Result: []byte(`{"a":true}`)})
	want := `{"jsonrpc":"2.0","method":"notifications/x"}` + "\n" +
		`[{"jsonrpc":"2.0","id":1,"result":{"a":true}},{"jsonrpc":"2.0","id":2,"result":{"b":true}}]` + "\n"
	if got := out.String(); got != want {
		t.Fatalf("wrote %q, want %q", got, want)
	}
	mustWrite(&jsonrpc.Response{ID: ids[0], Result: []byte(`{}`)}) // no longer in a batch
	if got := out.String(); !strings.HasSuffix(got, `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n") {
		t.Fatalf("a second answer to a batch's request was not written alone: %q", got)
	}
}

// TestLineConnCloseUnblocksRead checks that Close ends a Read waiting on a
// stream that never writes, and that Read and Write then fail.
func TestLineConnCloseUnblocksRead(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	conn := newLineConn(pr, nopWriteCloser{io.Discard})
	read := make(chan error, 1)
	go func() {
		_, err := conn.Read(context.Background())
		read <- err
	}()
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-read:
		if err == nil {
			t.Fatal("Read returned a message after Close")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read still waits 10s after Close")
	}
	if _, err := conn.Read(context.Background()); err == nil {
		t.Fatal("Read after Close succeeded")
	}
	if err := conn.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}
