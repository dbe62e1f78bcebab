package rpcadapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/mcpconform/mcpconform/internal/jsondepth"
	"github.com/mcpconform/mcpconform/internal/jsontext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	segjson "github.com/segmentio/encoding/json"
)

// wireMessage is a protocol message as it is read: the members of a
// request and of a response. Method is raw so that a present "method"
// (even "") makes a request and an absent one a response.
type wireMessage struct {
	Version string          `json:"jsonrpc"`
	ID      any             `json:"id,omitempty"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *jsonrpc.Error  `json:"error,omitempty"`
}

// maxDepth bounds the nesting of a message's arrays and objects: the
// decoder recurses once per level, and a line of [MaxLine] brackets would
// otherwise grow a goroutine's stack past what the runtime allows, which
// no recover catches. The bound is go-sdk's.
const maxDepth = 1000

// errTooDeep is the error of a message nested past [maxDepth].
var errTooDeep = fmt.Errorf("arrays and objects nested more than %d deep", maxDepth)

// decodeMessage decodes one protocol message as go-sdk's
// jsonrpc.DecodeMessage does (the same codec, member names matched
// exactly, the same checks of the version, the id and a response's id),
// except that it refuses bytes after the message, and that it decodes the
// line in place: jsonrpc.DecodeMessage reads it through a stream decoder
// that allocates two 32 KiB buffers per message, which made most of the
// runner's garbage through the protocol.
func decodeMessage(line []byte) (jsonrpc.Message, error) {
	if jsondepth.Exceeds(line, maxDepth) {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", errTooDeep)
	}
	var m wireMessage
	rest, err := segjson.Parse(line, &m, segjson.DontMatchCaseInsensitiveStructFields)
	if err == nil && len(bytes.TrimLeft(rest, " \t\r\n")) > 0 {
		err = errors.New("bytes after the message")
	}
	if err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	if m.Version != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected %q", m.Version, "2.0")
	}
	id, err := jsonrpc.MakeID(m.ID)
	if err != nil {
		return nil, err
	}
	if len(m.Method) > 0 {
		var method string
		if err := segjson.Unmarshal(m.Method, &method); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: the method: %w", err)
		}
		return &jsonrpc.Request{ID: id, Method: method, Params: m.Params}, nil
	}
	if !id.IsValid() {
		return nil, errors.New("invalid request: a message with neither a method nor an id")
	}
	resp := &jsonrpc.Response{ID: id, Result: m.Result}
	if m.Error != nil { // not a typed nil in the error interface
		resp.Error = m.Error
	}
	return resp, nil
}

// marshal is json.Marshal, byte for byte (HTML characters escaped, a
// json.RawMessage compacted and checked), through segmentio's encoder:
// the params and results of the protocol are written with it. The
// result of a tool call projected through agent/project may be MiBs,
// which json.Marshal compacts through its scanner about three times
// slower (and the runner pays it for every one).
func marshal(v any) ([]byte, error) { return segjson.Marshal(v) }

// encodeMessage encodes msg as go-sdk's jsonrpc.EncodeMessage does, with
// the newline that ends a line of the protocol. Params and results are
// copied as they are: they come from json.Marshal, which made them
// compact and valid, where jsonrpc.EncodeMessage compacts and checks them
// again (a pass over every byte of a message, whose params may be MiBs).
// A response's error goes out as the protocol's wire error of it
// ([wireError]).
func encodeMessage(msg jsonrpc.Message) ([]byte, error) {
	var id jsonrpc.ID
	var tail [][]byte
	switch m := msg.(type) {
	case *jsonrpc.Request:
		id = m.ID
		method, err := jsontext.Marshal(m.Method)
		if err != nil {
			return nil, err
		}
		tail = append(tail, []byte(`,"method":`), method)
		if len(m.Params) > 0 {
			tail = append(tail, []byte(`,"params":`), m.Params)
		}
	case *jsonrpc.Response:
		id = m.ID
		switch {
		case m.Error != nil:
			e, err := jsontext.Marshal(wireError(m.Error))
			if err != nil {
				return nil, err
			}
			tail = append(tail, []byte(`,"error":`), e)
		case len(m.Result) > 0:
			tail = append(tail, []byte(`,"result":`), m.Result)
		default:
			tail = append(tail, []byte(`,"result":null`))
		}
	default:
		return nil, fmt.Errorf("encoding a message of type %T", msg)
	}
	n := 64
	for _, t := range tail {
		n += len(t)
	}
	b := make([]byte, 0, n)
	b = append(b, `{"jsonrpc":"2.0"`...)
	switch v := id.Raw().(type) {
	case int64:
		b = strconv.AppendInt(append(b, `,"id":`...), v, 10)
	case string:
		s, err := jsontext.Marshal(v)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"id":`...), s...)
	}
	for _, t := range tail {
		b = append(b, t...)
	}
	return append(b, '}', '\n'), nil
}
