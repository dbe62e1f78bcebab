package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mcpconform/mcpconform/internal/jsondepth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineTransport is the MCP transport of a stdio stream: newline-delimited
// JSON-RPC messages, as go-sdk's [mcp.IOTransport] frames them, read by
// [lineConn].
type lineTransport struct {
	r io.ReadCloser
	w io.WriteCloser
}

// Connect starts reading the stream; the connection owns both its ends.
func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	return newLineConn(t.r, t.w), nil
}

// lineConn is go-sdk's stdio connection (mcp.IOTransport's) without its
// second decoding: go-sdk decodes every incoming message as a JSON-RPC
// batch first, and when that fails (it always does for a single message)
// decodes it again as one, each time through a decoder with buffers of
// its own; lineConn looks at the first byte instead. It accepts and
// refuses what go-sdk does: one JSON value at a time from a stream
// decoder, followed by a newline or the end; an array is a batch, whose
// messages are read in turn and whose requests are answered together.
// Like go-sdk's, its reads run in a goroutine, so that Close unblocks a
// Read whatever the stream.
type lineConn struct {
	r io.ReadCloser
	w io.WriteCloser

	incoming chan incomingMsg
	queue    []jsonrpc.Message // the rest of the last batch; reads are serialized

	writeMu sync.Mutex
	batchMu sync.Mutex
	batches map[jsonrpc.ID]*msgBatch // the batch each unanswered request came in

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

// incomingMsg is one value read off the stream, or why reading stopped.
type incomingMsg struct {
	msgs  []jsonrpc.Message
	batch *msgBatch // its requests, when msgs came as a batch with some
	err   error
}

// msgBatch collects the answers to the requests of one incoming batch,
// which are written together once all are known (JSON-RPC 2.0 §6).
type msgBatch struct {
	unanswered map[jsonrpc.ID]int
	responses  []*jsonrpc.Response
}

// newLineConn starts the goroutine that reads r: it ends when r does, or
// at Close.
func newLineConn(r io.ReadCloser, w io.WriteCloser) *lineConn {
	c := &lineConn{r: r, w: w, incoming: make(chan incomingMsg), closed: make(chan struct{})}
	go c.readLoop()
	return c
}

// readLoop reads and decodes one value at a time until the stream ends,
// fails or holds something that is not a message.
func (c *lineConn) readLoop() {
	dec := json.NewDecoder(c.r)
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == nil {
			// Trailing data on the line is an error (go-sdk's rule).
			var tr [1]byte
			if n, rerr := dec.Buffered().Read(tr[:]); n > 0 && tr[0] != '\n' && tr[0] != '\r' {
				err = errors.New("invalid trailing data at the end of stream")
			} else if n == 0 && rerr != nil && rerr != io.EOF {
				err = rerr
			}
		}
		var in incomingMsg
		if err == nil {
			in = decodeValue(raw)
		} else {
			in.err = err
		}
		select {
		case c.incoming <- in:
		case <-c.closed:
			return
		}
		if in.err != nil {
			return
		}
	}
}

// maxDepth is how deep go-sdk lets a message's arrays and objects nest.
const maxDepth = 1000

// decodeValue decodes one value read off the stream: a message, or a batch
// of them.
func decodeValue(raw json.RawMessage) incomingMsg {
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) == 0 || t[0] != '[' {
		msg, err := jsonrpc.DecodeMessage(raw)
		return incomingMsg{msgs: []jsonrpc.Message{msg}, err: err}
	}
	// go-sdk decodes a batch through its bounded decoder, the whole of it.
	if jsondepth.Exceeds(raw, maxDepth) {
		return incomingMsg{err: fmt.Errorf("a batch nested more than %d deep", maxDepth)}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(raw, &raws); err != nil {
		return incomingMsg{err: err}
	}
	if len(raws) == 0 {
		return incomingMsg{err: errors.New("empty batch")}
	}
	in := incomingMsg{msgs: make([]jsonrpc.Message, 0, len(raws))}
	for _, r := range raws {
		msg, err := jsonrpc.DecodeMessage(r)
		if err != nil {
			return incomingMsg{err: err}
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			if in.batch == nil {
				in.batch = &msgBatch{unanswered: map[jsonrpc.ID]int{}}
			}
			if _, dup := in.batch.unanswered[req.ID]; dup {
				return incomingMsg{err: fmt.Errorf("duplicate message ID %v in a batch", req.ID.Raw())}
			}
			in.batch.unanswered[req.ID] = len(in.batch.responses)
			in.batch.responses = append(in.batch.responses, nil)
		}
		in.msgs = append(in.msgs, msg)
	}
	return in
}

// Read returns the next message.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(c.queue) > 0 {
		next := c.queue[0]
		c.queue = c.queue[1:]
		return next, nil
	}
	var in incomingMsg
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case in = <-c.incoming:
	case <-c.closed:
		return nil, io.EOF
	}
	if in.err != nil {
		return nil, in.err
	}
	if in.batch != nil {
		if err := c.addBatch(in.batch); err != nil {
			return nil, err
		}
	}
	c.queue = in.msgs[1:]
	return in.msgs[0], nil
}

// addBatch remembers which batch each of its requests came in.
func (c *lineConn) addBatch(b *msgBatch) error {
	c.batchMu.Lock()
	defer c.batchMu.Unlock()
	for id := range b.unanswered {
		if _, ok := c.batches[id]; ok {
			return fmt.Errorf("a batch holds request %v, which is still unanswered", id.Raw())
		}
	}
	if c.batches == nil {
		c.batches = map[jsonrpc.ID]*msgBatch{}
	}
	for id := range b.unanswered {
		c.batches[id] = b
	}
	return nil
}

// answered records the answer to a request that came in a batch: it
// reports whether it did, and the batch's answers once they are all known.
func (c *lineConn) answered(resp *jsonrpc.Response) ([]*jsonrpc.Response, bool) {
	c.batchMu.Lock()
	defer c.batchMu.Unlock()
	b, ok := c.batches[resp.ID]
	if !ok {
		return nil, false
	}
	b.responses[b.unanswered[resp.ID]] = resp
	delete(b.unanswered, resp.ID)
	delete(c.batches, resp.ID)
	if len(b.unanswered) > 0 {
		return nil, true
	}
	return b.responses, true
}

// Write writes one message, or a batch's answers once they are complete.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	data, err := c.encode(msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %v", err)
	}
	if data == nil {
		return nil // an answer its batch holds until the others are known
	}
	_, err = c.w.Write(append(data, '\n'))
	return err
}

// encode is msg's line, without its newline; for the answer to a request
// of a batch, the array of the batch's answers once they are all known,
// and nil until then.
func (c *lineConn) encode(msg jsonrpc.Message) ([]byte, error) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return jsonrpc.EncodeMessage(msg)
	}
	all, inBatch := c.answered(resp)
	switch {
	case !inBatch:
		return jsonrpc.EncodeMessage(msg)
	case all == nil:
		return nil, nil
	}
	raws := make([]json.RawMessage, len(all))
	for i, r := range all {
		var err error
		if raws[i], err = jsonrpc.EncodeMessage(r); err != nil {
			return nil, err
		}
	}
	return json.Marshal(raws)
}

// Close closes both sides of the stream and unblocks a waiting Read.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = errors.Join(c.r.Close(), c.w.Close())
		close(c.closed)
	})
	return c.closeErr
}

// SessionID is empty: a stdio connection has no session ID.
func (c *lineConn) SessionID() string { return "" }
