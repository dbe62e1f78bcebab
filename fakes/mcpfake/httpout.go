package mcpfake

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// What go-sdk's Streamable HTTP handler writes, seen by the HTTP fake: it
// writes each SSE event, or a whole application/json body, in one Write.
// The fake records every message going out (as the stdio wire does), and
// acts on the answer to a scripted call as it goes out: it replaces it by
// Call.Result, swaps in Call.ThenTools before it and then has go-sdk
// notify the change, writes Call.LateProgress as further events of the
// same stream after it, and for Call.ExitAfterAnswer makes the mount
// forget every session: every later request to it answers 404.
//
// go-sdk's HTTP+SSE handler writes each event of its stream in one Write
// too: the messages of the stream of an HTTP+SSE mount are recorded the
// same way (but the answers of its calls are not acted on).

// writeMCP writes p, bytes of go-sdk's handler.
func (c *countingWriter) writeMCP(p []byte) (int, error) {
	x := c.x
	ct := c.w.Header().Get("Content-Type")
	sse := strings.HasPrefix(ct, "text/event-stream")
	if !sse && !strings.HasPrefix(ct, "application/json") {
		// Not JSON-RPC: go-sdk's plain-text refusals (http.Error).
		return c.write(p)
	}
	if sse && bytes.HasPrefix(p, []byte("event: endpoint\n")) {
		// Not JSON-RPC either: the first event of an HTTP+SSE stream,
		// naming the message URL.
		return c.write(p)
	}
	out, isAnswer, pc := x.outgoing(p, sse)
	present := x.r.Context().Err() == nil
	if pc != nil && pc.call.ThenTools != nil {
		// Before the answer is out, so that a client that lists the tools
		// once it has the answer sees the new ones.
		x.m.fake.replaceTools(*pc.call.ThenTools)
	}
	if pc != nil && pc.call.ExitAfterAnswer {
		// Before the answer is out too: a client that has it may send its
		// next request at once, and that one must find the sessions
		// forgotten (this request is past the check).
		x.m.gone.Store(true)
	}
	_, err := c.write(out)
	if err == nil && isAnswer {
		c.answer = true
		c.answerOut(present)
	}
	if err == nil && pc != nil {
		err = c.lateProgress(pc, sse)
	}
	if pc != nil && pc.call.ThenTools != nil {
		// Counted as in flight (this request still is), so that Close
		// waits for it.
		x.h.inflight.Add(1)
		go func() {
			defer x.h.inflight.Done()
			x.m.fake.notifyToolsChanged()
		}()
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// write writes p, counting it and remembering the first failure.
func (c *countingWriter) write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.written += int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// lateProgress writes the call's LateProgress after its answer, as events
// of the same stream; an application/json body cannot carry them.
func (c *countingWriter) lateProgress(pc *pendingCall, sse bool) error {
	x := c.x
	if len(pc.call.LateProgress) == 0 || pc.token == nil {
		return nil // recorded when the request came
	}
	if !sse {
		if !x.m.jsonResponse() { // otherwise recorded when the request came
			x.h.log.Append(notSent(x.rec, x.id, "notifications/progress", jsonCarriesNoProgress))
		}
		return nil
	}
	for _, pr := range pc.call.LateProgress {
		msg := progressMessage(pc.token, pr)
		x.recordOut(msg)
		event := append(append([]byte("event: message\ndata: "), msg...), "\n\n"...)
		if _, err := c.write(event); err != nil {
			return err
		}
	}
	return nil
}

// recordOut records a message the fake sends.
func (x *exchange) recordOut(msg []byte) jsonrpc.Message {
	r := x.rec
	r.Kind, r.Dir, r.Bytes = record.KindMessage, "out", len(msg)
	m := describeMessage(&r, msg)
	x.h.log.Append(r)
	return m
}

// outgoing records the messages of p, SSE events or a JSON body, and
// returns the bytes to write instead: p, or p with the answer to the
// scripted call replaced by its Call.Result. isAnswer says that p holds
// the answer to the request; pc is the scripted call it answers, the
// first time only.
func (x *exchange) outgoing(p []byte, sse bool) (out []byte, isAnswer bool, pc *pendingCall) {
	// look records msg and decides what goes out instead of it (nil: msg).
	look := func(msg []byte) []byte {
		instead := x.instead(msg, &isAnswer, &pc)
		if instead != nil {
			x.recordOut(instead)
		} else {
			x.recordOut(msg)
		}
		return instead
	}
	if sse {
		var b bytes.Buffer
		replaced := false
		for line := range bytes.Lines(p) {
			if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
				if instead := look(bytes.TrimSpace(data)); instead != nil {
					b.WriteString("data: ")
					b.Write(instead)
					b.WriteByte('\n')
					replaced = true
					continue
				}
			}
			b.Write(line)
		}
		if !replaced {
			return p, isAnswer, pc
		}
		return b.Bytes(), isAnswer, pc
	}
	body := bytes.TrimSpace(p)
	var batch []json.RawMessage
	if len(body) == 0 || body[0] != '[' || json.Unmarshal(body, &batch) != nil {
		if instead := look(body); instead != nil {
			return instead, isAnswer, pc
		}
		return p, isAnswer, pc
	}
	replaced := false
	for i, msg := range batch {
		if instead := look(msg); instead != nil {
			batch[i], replaced = instead, true
		}
	}
	if !replaced {
		return p, isAnswer, pc
	}
	out = []byte{'['}
	for i, msg := range batch {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, msg...)
	}
	return append(out, ']'), isAnswer, pc
}

// instead decides what goes out instead of msg: the scripted result when
// msg is the answer to the scripted call, or nil for msg itself. It notes
// whether msg answers the request, and hands over the scripted call the
// first time.
func (x *exchange) instead(msg []byte, isAnswer *bool, pc **pendingCall) []byte {
	m, err := jsonrpc.DecodeMessage(msg)
	resp, ok := m.(*jsonrpc.Response)
	if err != nil || !ok || !x.id.IsValid() || resp.ID != x.id {
		return nil
	}
	*isAnswer = true
	if x.call == nil {
		return nil
	}
	*pc, x.call = x.call, nil
	if (*pc).call.Result == nil || resp.Error != nil {
		return nil
	}
	return resultMessage(resp.ID, (*pc).call.Result)
}
