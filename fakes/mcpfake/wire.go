package mcpfake

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxTapLine is the longest line a tap keeps whole for its record; longer
// lines are recorded by size only.
const maxTapLine = 8 << 20

// tap splits a newline-delimited JSON-RPC stream into messages and records
// each one as it completes, before the bytes that complete it are passed on.
type tap struct {
	sink record.Sink
	base record.Record // Server, Instance, Dir
	// seen, if set, is called with each decoded message after its record.
	seen func(jsonrpc.Message)

	mu   sync.Mutex
	line bytes.Buffer
	size int // bytes of the current line, kept or not
}

// feed consumes bytes of the stream, recording every completed line.
func (t *tap) feed(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		t.size += len(chunk)
		if t.line.Len()+len(chunk) <= maxTapLine {
			t.line.Write(chunk)
		}
		if i < 0 {
			return
		}
		t.emit()
		p = p[i+1:]
	}
}

// emit records the current line.
func (t *tap) emit() {
	r := t.base
	r.Kind = record.KindMessage
	r.Bytes = t.size
	var msg jsonrpc.Message
	if t.size <= maxTapLine {
		msg = describeMessage(&r, t.line.Bytes())
	}
	t.line.Reset()
	t.size = 0
	_ = t.sink.Record(r)
	if msg != nil && t.seen != nil {
		t.seen(msg)
	}
}

// describeMessage fills a record from one JSON-RPC message and returns the
// message, or nil when raw is not one.
func describeMessage(r *record.Record, raw []byte) jsonrpc.Message {
	msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(raw))
	if err != nil {
		r.Params = invalid(raw)
		return nil
	}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		r.Method = m.Method
		r.Params = m.Params
		if m.ID.IsValid() {
			r.ID, _ = json.Marshal(m.ID.Raw())
		}
	case *jsonrpc.Response:
		r.ID, _ = json.Marshal(m.ID.Raw())
		var we *jsonrpc.Error
		if errors.As(m.Error, &we) {
			r.Error = &record.RPCError{Code: we.Code, Message: we.Message}
		} else if m.Error != nil {
			r.Error = &record.RPCError{Code: jsonrpc.CodeInternalError, Message: m.Error.Error()}
		}
	}
	return msg
}

// invalid wraps a message that is not JSON-RPC so that it can still be
// recorded as JSON.
func invalid(raw []byte) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"invalid": string(raw)})
	return b
}

// tapReader records what is read through it.
type tapReader struct {
	r io.Reader
	t *tap
}

func (r *tapReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.t.feed(p[:n])
	return n, err
}

func (r *tapReader) Close() error { return nil }
