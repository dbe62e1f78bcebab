package mcpfake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// stdioWire is the stdio fake's side of the wire, between go-sdk and the
// process's stdin and stdout. Besides recording every message (through
// taps) it lets the fake act below go-sdk:
//
//   - Call.Bytes: the tap on stdin notes the id of each tools/call of a
//     tool scripted with Bytes; when go-sdk writes its answer to that id,
//     the wire pads it to exactly Bytes bytes on its way out. go-sdk thus
//     answers every request exactly once, and the answer is go-sdk's own.
//   - Call.Result, LateProgress, ThenTools and ExitAfterAnswer work the
//     same way: when go-sdk writes the answer to a call scripted so, the
//     wire replaces it by the scripted result, swaps the tools in before
//     it writes it, then writes the late progress lines and has go-sdk
//     notify the tool list change, or ends the process.
//   - Call.AskClient: [stdioWire.ask] writes a request of its own (string
//     ids "mcpconform-ask-N", which go-sdk never uses) between go-sdk's
//     lines, and the tap on stdin hands the client's answer back. go-sdk
//     also sees the answer and drops it: a response to an id it never sent
//     is ignored by its jsonrpc2 connection.
type stdioWire struct {
	script *Script
	sink   record.Sink
	base   record.Record // Server, Instance
	fake   *fakeServer   // set before the server runs

	in  *tap
	out *tap
	w   io.Writer

	// writeMu serializes whole lines on w. It is never taken by the tap on
	// stdin, so that reading never waits for a blocked write.
	writeMu sync.Mutex

	mu      sync.Mutex              // guards the fields below
	pending map[string]*pendingCall // calls whose answer the wire acts on, by id
	asks    map[string]chan *jsonrpc.Response
	nextAsk int
}

// pendingCall is a call whose answer the transport acts on as it goes
// out (see [Call.afterAnswer]).
type pendingCall struct {
	call  Call
	token any // the request's progressToken as go-sdk decodes it; nil for none
}

// callParams reads the tool name and the progressToken of tools/call
// params, the token decoded as go-sdk decodes it (numbers as float64).
func callParams(raw json.RawMessage) (name string, token any) {
	var p struct {
		Name string `json:"name"`
		Meta struct {
			ProgressToken any `json:"progressToken"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(raw, &p)
	return p.Name, p.Meta.ProgressToken
}

// noProgressToken is why progress was not sent.
const noProgressToken = "the request carries no progressToken in params._meta"

// notSent returns a [record.KindNotSent] record of base for a message of
// method about request id.
func notSent(base record.Record, id jsonrpc.ID, method, reason string) record.Record {
	r := base
	r.Kind, r.Dir, r.Method = record.KindNotSent, "", method
	r.ID = json.RawMessage(idKey(id))
	r.Params = marshal(map[string]string{"reason": reason})
	return r
}

// resultMessage is the JSON-RPC response to id with result, compacted. A
// result that is not JSON goes out as it is, on one line.
func resultMessage(id jsonrpc.ID, result json.RawMessage) []byte {
	var body bytes.Buffer
	if json.Compact(&body, result) != nil {
		body.Reset()
		body.WriteString(strings.NewReplacer("\r", " ", "\n", " ").Replace(string(result)))
	}
	out := make([]byte, 0, body.Len()+64)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, idKey(id)...)
	out = append(out, `,"result":`...)
	out = append(out, body.Bytes()...)
	return append(out, '}')
}

// progressMessage is a notifications/progress for token.
func progressMessage(token any, p Progress) []byte {
	return marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/progress", "params": p.params(token)})
}

func newStdioWire(script *Script, sink record.Sink, base record.Record, w io.Writer) *stdioWire {
	in, out := base, base
	in.Dir, out.Dir = "in", "out"
	sw := &stdioWire{
		script: script, sink: sink, base: base, w: w,
		out:     &tap{sink: sink, base: out},
		pending: map[string]*pendingCall{},
		asks:    map[string]chan *jsonrpc.Response{},
	}
	sw.in = &tap{sink: sink, base: in, seen: sw.received}
	return sw
}

// reader wraps the fake's stdin.
func (sw *stdioWire) reader(r io.Reader) io.ReadCloser { return &tapReader{r: r, t: sw.in} }

// writer is what go-sdk writes to.
func (sw *stdioWire) writer() io.WriteCloser { return stdioWriter{sw} }

// idKey is the canonical JSON of a JSON-RPC id.
func idKey(id jsonrpc.ID) string {
	b, _ := json.Marshal(id.Raw())
	return string(b)
}

// received looks at each message the client sent, after its record.
func (sw *stdioWire) received(msg jsonrpc.Message) {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		switch {
		case m.Method == "tools/call" && m.ID.IsValid():
			name, token := callParams(m.Params)
			c, ok := sw.script.call(name)
			if !ok {
				break
			}
			if c.sendsProgress() && token == nil {
				_ = sw.sink.Record(notSent(sw.base, m.ID, "notifications/progress", noProgressToken))
			}
			if c.afterAnswer() {
				sw.mu.Lock()
				sw.pending[idKey(m.ID)] = &pendingCall{call: c, token: token}
				sw.mu.Unlock()
			}
		case m.Method == "notifications/cancelled":
			// A cancelled call may never be answered; its id may be reused.
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(m.Params, &p) == nil && p.RequestID != nil {
				var raw any
				if json.Unmarshal(p.RequestID, &raw) == nil {
					if id, err := jsonrpc.MakeID(raw); err == nil {
						sw.mu.Lock()
						delete(sw.pending, idKey(id))
						sw.mu.Unlock()
					}
				}
			}
		}
	case *jsonrpc.Response:
		sw.mu.Lock()
		ch, ok := sw.asks[idKey(m.ID)]
		delete(sw.asks, idKey(m.ID))
		sw.mu.Unlock()
		if ok {
			ch <- m
		}
	}
}

// stdioWriter is the writer go-sdk writes its lines to: one whole line
// per Write.
type stdioWriter struct{ sw *stdioWire }

func (w stdioWriter) Write(p []byte) (int, error) {
	sw := w.sw
	sw.writeMu.Lock()
	defer sw.writeMu.Unlock()
	line, pc := sw.answering(p)
	if pc == nil {
		if err := sw.writeLocked(line); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	c := pc.call
	if c.ThenTools != nil {
		// Before the answer is out, so that a client that lists the tools
		// once it has the answer sees the new ones.
		sw.fake.replaceTools(*c.ThenTools)
	}
	if err := sw.writeLocked(line); err != nil {
		return 0, err
	}
	if pc.token != nil {
		for _, pr := range c.LateProgress {
			if err := sw.writeLocked(append(progressMessage(pc.token, pr), '\n')); err != nil {
				return len(p), nil // the answer is out; go-sdk sees the broken pipe next
			}
		}
	}
	if c.ThenTools != nil {
		// Not under writeMu: go-sdk writes the notification through it.
		go sw.fake.notifyToolsChanged()
	}
	if c.ExitAfterAnswer && sw.fake.env.quit != nil {
		sw.fake.env.quit()
	}
	return len(p), nil
}

func (stdioWriter) Close() error { return nil }

// answering looks at a line go-sdk writes. When it answers a call the
// wire acts on, it returns the line to write instead (the scripted
// Result, or the answer padded to Bytes) and the call.
func (sw *stdioWire) answering(p []byte) ([]byte, *pendingCall) {
	sw.mu.Lock()
	pending := len(sw.pending) > 0
	sw.mu.Unlock()
	if !pending {
		return p, nil
	}
	msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(p))
	if err != nil {
		return p, nil
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return p, nil
	}
	sw.mu.Lock()
	pc := sw.pending[idKey(resp.ID)]
	delete(sw.pending, idKey(resp.ID))
	sw.mu.Unlock()
	if pc == nil {
		return p, nil
	}
	switch c := pc.call; {
	case c.Result != nil && resp.Error == nil:
		return append(resultMessage(resp.ID, c.Result), '\n'), pc
	case c.Bytes > 0:
		padded, err := padResponse(bytes.TrimSpace(p), "tools/call", c.Bytes)
		if err != nil {
			return p, pc // the records show the size that went out instead
		}
		return append(padded, '\n'), pc
	}
	return p, pc
}

// writeLocked records and writes whole lines; sw.writeMu is held.
func (sw *stdioWire) writeLocked(p []byte) error {
	sw.out.feed(p)
	_, err := sw.w.Write(p)
	return err
}

// askParams are the params of the requests the fake sends the client.
var askParams = map[string]string{
	"sampling/createMessage": `{"messages":[{"role":"user","content":{"type":"text","text":"mcpconform fake asks for a sample"}}],"maxTokens":16}`,
	"roots/list":             `{}`,
	"elicitation/create":     `{"message":"mcpconform fake asks for input","requestedSchema":{"type":"object","properties":{"answer":{"type":"string"}}}}`,
}

// ask sends the client a request for method, waits at most timeout (or
// until ctx ends) for its answer and records the answer.
func (sw *stdioWire) ask(ctx context.Context, method string, timeout time.Duration) error {
	params, ok := askParams[method]
	if !ok {
		params = `{}`
	}
	ch := make(chan *jsonrpc.Response, 1)
	sw.mu.Lock()
	sw.nextAsk++
	id, _ := jsonrpc.MakeID(fmt.Sprintf("mcpconform-ask-%d", sw.nextAsk))
	key := idKey(id)
	sw.asks[key] = ch
	sw.mu.Unlock()
	line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id.Raw(), "method": method, "params": json.RawMessage(params)})
	if err == nil {
		sw.writeMu.Lock()
		err = sw.writeLocked(append(line, '\n'))
		sw.writeMu.Unlock()
	}
	rec := sw.base
	rec.Kind, rec.Method, rec.ID = record.KindAnswer, method, json.RawMessage(key)
	if err != nil {
		sw.forget(key)
		rec.Aborted = true
		_ = sw.sink.Record(rec)
		return err
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case resp := <-ch:
		if resp.Error != nil {
			rec.Error = rpcError(resp.Error)
		} else {
			rec.Result = resp.Result
			if rec.Result == nil {
				rec.Result = json.RawMessage("null")
			}
		}
	case <-t.C:
		sw.forget(key)
		rec.Aborted = true
	case <-ctx.Done():
		sw.forget(key)
		rec.Aborted = true
	}
	return sw.sink.Record(rec)
}

func (sw *stdioWire) forget(key string) {
	sw.mu.Lock()
	delete(sw.asks, key)
	sw.mu.Unlock()
}

// rpcError converts an error of a JSON-RPC response.
func rpcError(err error) *record.RPCError {
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		return &record.RPCError{Message: err.Error()}
	}
	return &record.RPCError{Code: we.Code, Message: we.Message}
}
