package rpcadapter

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/internal/safetext"
	segjson "github.com/segmentio/encoding/json"
)

// MaxLine is the longest protocol message, newline excluded.
const MaxLine = 16 << 20

// Error codes of the protocol.
const (
	CodeFailed             = -32000 // the operation failed; data.kind says how
	CodeUnsupportedVersion = -32001 // handshake: the protocol version is not spoken
	CodeMethodNotFound     = jsonrpc.CodeMethodNotFound
	CodeInvalidParams      = jsonrpc.CodeInvalidParams
	CodeInvalidRequest     = jsonrpc.CodeInvalidRequest
	CodeParseError         = jsonrpc.CodeParseError
)

// methodCancel is the notification that cancels a request in flight.
const methodCancel = "$/cancelRequest"

// Traffic is one protocol message, as [Conn.Observe] sees it.
type Traffic struct {
	// Sent is true for messages this side wrote, false for messages it read.
	Sent bool
	// Method is the method of a request or notification, or of the request
	// a response answers (empty if unknown).
	Method string
	// Kind is "request", "notification", "result" or "error".
	Kind string
	// Payload is the params, result, or error object.
	Payload json.RawMessage
	// Raw is the whole message as it was on the wire, without the
	// newline that ended it.
	Raw []byte
}

// Handler answers incoming requests and notifications. It returns the
// result, or an error (an [*adapter.Error], a [*jsonrpc.Error] or any other
// error, reported as internal).
type Handler func(ctx context.Context, method string, params json.RawMessage) (any, error)

// Conn is one side of a protocol connection: it sends requests and
// notifications, answers what it receives with a [Handler], and breaks for
// good at the first malformed or unexpected input.
type Conn struct {
	r       *bufio.Reader
	w       io.Writer
	handler Handler
	// Observe, if set before Run, sees every message in both directions.
	Observe func(Traffic)
	// Arrive, if set before Run, sees every request and notification
	// received (but $/cancelRequest) in the goroutine that reads the
	// connection, in the order they arrived, before they are handled; the
	// context it returns is the handler's. Requests are handled
	// concurrently, each in its own goroutine: what must follow the order
	// of arrival (the runner's record of host callbacks) is done here.
	Arrive func(ctx context.Context, method string, params json.RawMessage) context.Context
	// Limits, if set before Run, bound what the peer may send.
	Limits Limits

	wmu sync.Mutex // serializes writes

	mu        sync.Mutex
	next      int64
	pending   map[string]*pending           // our requests awaiting an answer
	cancelled map[string]string             // our cancelled requests: their answers are dropped
	incoming  map[string]context.CancelFunc // their requests being handled
	offset    int64                         // bytes read so far
	notes     int                           // notifications received so far
	countFrom int64                         // the offset where the bounds' count starts
	notesFrom int                           // the notifications before it
	reset     atomic.Bool                   // the count starts again at the next message
	broken    error
	done      chan struct{}
	wg        sync.WaitGroup // handler goroutines
	// queue holds what incoming messages start, in arrival order: a
	// notification's handling, a request's handler goroutine, the
	// delivery of an answer. One goroutine, running while queueBusy,
	// takes them one after the other, so that the handler sees
	// notifications in order (events are ordered) and before whatever
	// came after them, and reading never waits.
	queue     []func()
	queueBusy bool
	queueIdle chan struct{} // closed when the queue goroutine ends
}

// pending is a request awaiting its answer.
type pending struct {
	method string
	ch     chan answer
	then   func() // runs as the answer arrives, in the reading goroutine
}

// answer is a response and where it was in the stream.
type answer struct {
	resp   *jsonrpc.Response
	offset int64
}

// Limits bound what one side accepts from the other over a connection's
// life; the runner gives every adapter process (one scenario) these
// bounds. Past one, the connection breaks with a [*FloodError]. A zero
// field is no bound.
type Limits struct {
	// Notifications bounds the notifications received.
	Notifications int
	// Bytes bounds the bytes of every message received: requests,
	// notifications and answers.
	Bytes int64
	// InFlight bounds the requests received and not yet answered.
	InFlight int
}

// FloodError is a peer that sent more than a [Limits] bound allows.
type FloodError struct {
	// What was counted: "notifications", "bytes of messages" or
	// "requests awaiting an answer at once".
	What string
	// Bound is the limit that was passed.
	Bound int64
	// Offset is the byte offset of the message that passed it.
	Offset int64
}

func (e *FloodError) Error() string {
	return fmt.Sprintf("flooded: more than %d %s (the bound of one connection), at byte offset %d", e.Bound, e.What, e.Offset)
}

// NewConn returns a connection reading r and writing w. Call [Conn.Run] to
// start reading.
func NewConn(r io.Reader, w io.Writer, h Handler) *Conn {
	return &Conn{
		r: bufio.NewReaderSize(r, 64<<10), w: w, handler: h,
		pending: map[string]*pending{}, cancelled: map[string]string{}, incoming: map[string]context.CancelFunc{},
		done: make(chan struct{}),
	}
}

// ResetLimits starts counting towards [Conn.Limits] again from the next
// message received: an adapter process's bounds are per scenario.
func (c *Conn) ResetLimits() { c.reset.Store(true) }

// Done is closed when the connection is broken or its input ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err says why the connection ended, once [Conn.Done] is closed.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.broken
}

// ProtocolError is input that breaks the protocol, at a byte offset of the
// stream.
type ProtocolError struct {
	Offset int64
	Reason string
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("malformed message at byte offset %d: %s", e.Offset, e.Reason)
}

// Run reads and dispatches messages until the input ends or breaks the
// protocol, then fails every request still pending. It returns the reason.
func (c *Conn) Run() error {
	err := c.read()
	c.drainQueue() // what was read before the end is handled first
	c.fail(err)
	c.wg.Wait()
	return err
}

// read is Run's loop.
func (c *Conn) read() error {
	for {
		start := c.offset
		line, big, err := c.readLine()
		if err != nil {
			return err
		}
		err = c.handleLine(line, start)
		if big {
			<-bigLines
		}
		if err != nil {
			return err
		}
	}
}

// handleLine decodes and dispatches one message line, at offset start.
func (c *Conn) handleLine(line []byte, start int64) error {
	if c.reset.Swap(false) {
		c.countFrom, c.notesFrom = start, c.notes
	}
	if b := c.Limits.Bytes; b > 0 && c.offset-c.countFrom > b {
		return &FloodError{What: "bytes of messages", Bound: b, Offset: start}
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	msg, derr := decodeMessage(line)
	if derr != nil {
		return &ProtocolError{Offset: start, Reason: fmt.Sprintf("%v (%s)", derr, excerpt(line))}
	}
	return c.dispatch(msg, bytes.TrimRight(line, "\r\n"), start)
}

// A big message is one past bigLine bytes. A process reads and dispatches
// one big message at a time, whatever the number of its connections (the
// runner has one per scenario running): the copies a message costs until
// it is handled (its line, its decoded params, a host's record of it) are
// then bounded by one big message's, not by the concurrency.
const bigLine = 1 << 20

// bigLines holds the turn to read a big message.
var bigLines = make(chan struct{}, 1)

// readLine reads one message line, refusing lines over [MaxLine]. A line
// that grows big waits for its turn (bigLines), which it holds on return
// (big) and gives back on error.
func (c *Conn) readLine() (line []byte, big bool, err error) {
	defer func() {
		if err != nil && big {
			<-bigLines
			big = false
		}
	}()
	for {
		chunk, err := c.r.ReadSlice('\n')
		c.offset += int64(len(chunk))
		if len(line)+len(chunk) > MaxLine+1 {
			return nil, big, &ProtocolError{Offset: c.offset - int64(len(line)+len(chunk)), Reason: fmt.Sprintf("a message is longer than %d bytes", MaxLine)}
		}
		if !big && len(line)+len(chunk) > bigLine {
			bigLines <- struct{}{}
			big = true
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line, big, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(bytes.TrimSpace(line)) > 0:
			return nil, big, &ProtocolError{Offset: c.offset - int64(len(line)), Reason: "the stream ended in the middle of a message"}
		default:
			return nil, big, err
		}
	}
}

// excerpt quotes the start of a bad message.
func excerpt(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 80 {
		return strconv.Quote(string(b[:80])) + "…"
	}
	return strconv.Quote(string(b))
}

// dispatch handles one decoded message.
func (c *Conn) dispatch(msg jsonrpc.Message, raw []byte, offset int64) error {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		kind := "request"
		if !m.ID.IsValid() {
			kind = "notification"
		}
		c.observe(Traffic{Method: m.Method, Kind: kind, Payload: m.Params, Raw: raw})
		if !m.ID.IsValid() {
			c.notes++
			if n := c.Limits.Notifications; n > 0 && c.notes-c.notesFrom > n {
				return &FloodError{What: "notifications", Bound: int64(n), Offset: offset}
			}
			c.notification(m)
			return nil
		}
		if n := c.Limits.InFlight; n > 0 && c.inFlight() >= n {
			return &FloodError{What: "requests awaiting an answer at once", Bound: int64(n), Offset: offset}
		}
		c.request(m)
	case *jsonrpc.Response:
		key := idKey(m.ID)
		c.mu.Lock()
		p, ok := c.pending[key]
		delete(c.pending, key)
		cancelledMethod, wasCancelled := c.cancelled[key]
		delete(c.cancelled, key)
		c.mu.Unlock()
		if wasCancelled {
			// The late answer to a request we cancelled: expected, dropped.
			c.observe(Traffic{Method: cancelledMethod, Kind: responseKind(m), Payload: responsePayload(m), Raw: raw})
			return nil
		}
		kind, payload := responseKind(m), responsePayload(m)
		method := ""
		if ok {
			method = p.method
		}
		c.observe(Traffic{Method: method, Kind: kind, Payload: payload, Raw: raw})
		if !ok {
			return &ProtocolError{Offset: offset, Reason: fmt.Sprintf("an answer to request id %s, which was never sent or was already answered", key)}
		}
		// In the queue, after what came before it: then runs before
		// anything that came after the answer is handled.
		c.runOrEnqueue(func() {
			if p.then != nil {
				p.then()
			}
			p.ch <- answer{resp: m, offset: offset} // buffered: never blocks
		})
	}
	return nil
}

// inFlight counts the requests received and not yet answered.
func (c *Conn) inFlight() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.incoming)
}

// arrive passes an incoming message to Arrive.
func (c *Conn) arrive(ctx context.Context, m *jsonrpc.Request) context.Context {
	if c.Arrive == nil {
		return ctx
	}
	return c.Arrive(ctx, m.Method, m.Params)
}

// notification handles an incoming notification: a cancellation at once,
// any other queued for the handler, which sees them in arrival order.
func (c *Conn) notification(m *jsonrpc.Request) {
	if m.Method == methodCancel {
		var p struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			if id, err := jsonrpc.MakeID(p.ID); err == nil {
				c.mu.Lock()
				cancel := c.incoming[idKey(id)]
				c.mu.Unlock()
				if cancel != nil {
					cancel()
				}
			}
		}
		return
	}
	// Arrive sees it now, in the reading goroutine; the handler, in the
	// queue, after everything that came before it.
	ctx := c.arrive(context.Background(), m)
	c.enqueue(func() { _, _ = c.handler(ctx, m.Method, m.Params) })
}

// enqueue adds f to the queue of what incoming messages start, starting
// the goroutine that runs the queue when it is idle.
func (c *Conn) enqueue(f func()) {
	c.mu.Lock()
	c.enqueueLocked(f)
}

// runOrEnqueue runs f at once, in the reading goroutine, when nothing is
// queued: what came before it has then been handled, so the order is the
// queue's, without a goroutine to start and wake. f must not block (it
// would stop the reading). Only the reading goroutine adds to the queue,
// so nothing can be queued between the look and f.
func (c *Conn) runOrEnqueue(f func()) {
	c.mu.Lock()
	if !c.queueBusy {
		c.mu.Unlock()
		f()
		return
	}
	c.enqueueLocked(f)
}

// enqueueLocked is enqueue with c.mu held; it unlocks it.
func (c *Conn) enqueueLocked(f func()) {
	c.queue = append(c.queue, f)
	start := !c.queueBusy
	if start {
		c.queueBusy, c.queueIdle = true, make(chan struct{})
	}
	c.mu.Unlock()
	if start {
		c.wg.Add(1)
		go c.runQueue()
	}
}

// runQueue runs the queue in arrival order until it is empty.
func (c *Conn) runQueue() {
	defer c.wg.Done()
	for {
		c.mu.Lock()
		if len(c.queue) == 0 {
			c.queueBusy = false
			close(c.queueIdle)
			c.mu.Unlock()
			return
		}
		f := c.queue[0]
		c.queue = c.queue[1:]
		c.mu.Unlock()
		f()
	}
}

// drainQueue waits until the queue is empty.
func (c *Conn) drainQueue() {
	c.mu.Lock()
	busy, idle := c.queueBusy, c.queueIdle
	c.mu.Unlock()
	if busy {
		<-idle
	}
}

// request handles an incoming request in its own goroutine, started in
// arrival order, and answers it. It can be cancelled from the moment it is
// read.
func (c *Conn) request(m *jsonrpc.Request) {
	ctx, cancel := context.WithCancel(context.Background())
	key := idKey(m.ID)
	c.mu.Lock()
	c.incoming[key] = cancel
	c.mu.Unlock()
	ctx = c.arrive(ctx, m)
	c.wg.Add(1)
	c.runOrEnqueue(func() { go c.serve(ctx, cancel, key, m) })
}

// serve runs the handler of an incoming request and answers it.
func (c *Conn) serve(ctx context.Context, cancel context.CancelFunc, key string, m *jsonrpc.Request) {
	defer c.wg.Done()
	defer func() {
		c.mu.Lock()
		delete(c.incoming, key)
		c.mu.Unlock()
		cancel()
	}()
	result, err := c.handler(ctx, m.Method, m.Params)
	resp := &jsonrpc.Response{ID: m.ID}
	if err != nil {
		resp.Error = wireError(err)
	} else {
		raw, merr := marshal(result)
		if merr != nil {
			resp.Error = wireError(merr)
		} else {
			resp.Result = raw
		}
	}
	_ = c.write(m.Method, resp)
}

// observe reports traffic.
func (c *Conn) observe(t Traffic) {
	if c.Observe != nil {
		c.Observe(t)
	}
}

// write encodes and writes one message.
func (c *Conn) write(method string, msg jsonrpc.Message) error {
	line, err := encodeMessage(msg)
	if err != nil {
		return err
	}
	t := Traffic{Sent: true, Method: method, Raw: line[:len(line)-1]}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		t.Kind, t.Payload = "request", m.Params
		if !m.ID.IsValid() {
			t.Kind = "notification"
		}
	case *jsonrpc.Response:
		t.Kind, t.Payload = "result", m.Result
		if m.Error != nil {
			t.Kind = "error"
			t.Payload, _ = json.Marshal(m.Error)
		}
	}
	c.observe(t)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.w.Write(line)
	return err
}

// Call sends a request and waits for its answer, decoding the result into
// result. When ctx ends first, it sends $/cancelRequest and returns the
// context's error. A failed request is returned as an [*adapter.Error] (or
// a [*jsonrpc.Error] for codes outside the protocol's); a broken connection
// as the reason it broke.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	return c.call(ctx, method, params, result, 0, nil)
}

// CallThen is [Conn.Call] that runs then as the answer arrives, in the
// goroutine that reads the connection: before any message that came after
// the answer is handled. The runner marks an agent closed this way, so
// that a callback the adapter sends after close()'s answer is known to
// have come after it.
func (c *Conn) CallThen(ctx context.Context, method string, params, result any, then func()) error {
	return c.call(ctx, method, params, result, 0, then)
}

// CallThroughCancel is [Conn.Call] for a request whose answer still
// matters after it was cancelled: when ctx ends first, it sends
// $/cancelRequest and then waits up to grace more for the answer the
// receiver must give anyway (host/authorize: a callback that ignores its
// signal, LA-OAU-05). Without an answer by then it returns the context's
// error.
func (c *Conn) CallThroughCancel(ctx context.Context, method string, params, result any, grace time.Duration) error {
	return c.call(ctx, method, params, result, grace, nil)
}

// call is Call, waiting up to grace for the answer after a cancel, and
// running then as the answer arrives.
func (c *Conn) call(ctx context.Context, method string, params, result any, grace time.Duration, then func()) error {
	raw, err := marshal(params)
	if err != nil {
		return err
	}
	c.mu.Lock()
	if c.broken != nil {
		err := c.broken
		c.mu.Unlock()
		return err
	}
	c.next++
	id, _ := jsonrpc.MakeID(float64(c.next))
	p := &pending{method: method, ch: make(chan answer, 1), then: then}
	c.pending[idKey(id)] = p
	c.mu.Unlock()
	if err := c.write(method, &jsonrpc.Request{ID: id, Method: method, Params: raw}); err != nil {
		c.forget(id)
		return fmt.Errorf("writing %s: %w", method, err)
	}
	var ans answer
	select {
	case ans = <-p.ch:
	case <-c.done:
		return c.Err()
	case <-ctx.Done():
		if grace <= 0 {
			c.abandon(id, method)
			_ = c.Notify(methodCancel, map[string]any{"id": id.Raw()})
			return ctx.Err()
		}
		_ = c.Notify(methodCancel, map[string]any{"id": id.Raw()})
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case ans = <-p.ch:
		case <-c.done:
			return c.Err()
		case <-t.C:
			c.abandon(id, method)
			return ctx.Err()
		}
	}
	if ans.resp.Error != nil {
		var we *jsonrpc.Error
		if !errors.As(ans.resp.Error, &we) {
			we = &jsonrpc.Error{Code: CodeFailed, Message: ans.resp.Error.Error()}
		}
		return contractError(we)
	}
	if result != nil {
		if err := segjson.Unmarshal(ans.resp.Result, result); err != nil {
			return &ProtocolError{Offset: ans.offset, Reason: fmt.Sprintf("the result of %s does not decode: %v", method, err)}
		}
	}
	return nil
}

// abandon stops waiting for the answer to a request that was cancelled:
// when it comes, it is dropped as expected.
func (c *Conn) abandon(id jsonrpc.ID, method string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, still := c.pending[idKey(id)]; still {
		delete(c.pending, idKey(id))
		c.cancelled[idKey(id)] = method
	}
}

// responseKind is "error" or "result".
func responseKind(m *jsonrpc.Response) string {
	if m.Error != nil {
		return "error"
	}
	return "result"
}

// responsePayload is a response's result or error object.
func responsePayload(m *jsonrpc.Response) json.RawMessage {
	if m.Error != nil {
		b, _ := json.Marshal(m.Error)
		return b
	}
	return m.Result
}

// forget stops waiting for an answer.
func (c *Conn) forget(id jsonrpc.ID) {
	c.mu.Lock()
	delete(c.pending, idKey(id))
	c.mu.Unlock()
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	raw, err := marshal(params)
	if err != nil {
		return err
	}
	return c.write(method, &jsonrpc.Request{Method: method, Params: raw})
}

// fail breaks the connection with err (io.EOF for a clean end of input).
func (c *Conn) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return
	}
	if err == nil {
		err = io.EOF
	}
	c.broken = err
	for _, cancel := range c.incoming {
		cancel()
	}
	close(c.done)
}

// idKey is a map key for a request ID.
func idKey(id jsonrpc.ID) string {
	if n, ok := id.Raw().(int64); ok {
		return strconv.FormatInt(n, 10) // what json.Marshal writes, without its allocations
	}
	b, _ := json.Marshal(id.Raw())
	return string(b)
}

// errorData is the data of a protocol error.
type errorData struct {
	Kind      adapter.Kind `json:"kind"`
	Rule      string       `json:"rule,omitempty"`
	Supported []string     `json:"supported,omitempty"`
}

// wireError encodes an error for the wire: a contract error, of any kind
// (unsupported included), is -32000 with data.kind; -32601 is only ever
// sent for a method the receiver does not know.
func wireError(err error) *jsonrpc.Error {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we
	}
	var ae *adapter.Error
	if !errors.As(err, &ae) {
		ae = &adapter.Error{Kind: adapter.KindInternal, Message: err.Error()}
	}
	data, _ := json.Marshal(errorData{Kind: ae.Kind, Rule: ae.Rule})
	msg := ae.Message
	if msg == "" {
		msg = string(ae.Kind)
	}
	return &jsonrpc.Error{Code: CodeFailed, Message: msg, Data: data}
}

// RemoteError is an error answer received on the wire: the contract's
// error, plus the JSON-RPC code it came with.
type RemoteError struct {
	Code     int64
	Contract *adapter.Error
}

// Error implements the error interface.
func (e *RemoteError) Error() string { return e.Contract.Error() }

// Unwrap returns the contract error, so that [adapter.KindOf] sees it.
func (e *RemoteError) Unwrap() error { return e.Contract }

// maxMessage bounds the message of an error answer kept from the wire:
// far more than any implementation's message, and far less than a line.
const maxMessage = 64 << 10

// contractError decodes a wire error into the contract's error: -32601 is
// kind unsupported, -32000 carries its kind, anything else is internal.
func contractError(we *jsonrpc.Error) error {
	var d errorData
	_ = json.Unmarshal(we.Data, &d)
	kind := d.Kind
	switch {
	case we.Code == CodeMethodNotFound:
		kind = adapter.KindUnsupported
	case kind == "" || !known(kind):
		kind = adapter.KindInternal
	}
	return &RemoteError{Code: we.Code, Contract: &adapter.Error{Kind: kind, Rule: safetext.Cap(d.Rule, safetext.Field), Message: safetext.Cap(we.Message, maxMessage)}}
}

// known reports whether kind is one of the contract's.
func known(kind adapter.Kind) bool {
	for _, k := range adapter.Kinds {
		if k == kind {
			return true
		}
	}
	return false
}
