package corrupt

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcpconform/mcpconform/internal/jsontext"
)

// Dir is the way a message travels through the proxy.
type Dir int

const (
	// ToAdapter is from the runner to the adapter: agent/* requests and the
	// runner's answers to host/* requests.
	ToAdapter Dir = iota
	// ToRunner is from the adapter to the runner: host/* requests and
	// events, and the adapter's answers to agent/* requests.
	ToRunner
)

// String names the direction.
func (d Dir) String() string {
	if d == ToAdapter {
		return "runner→adapter"
	}
	return "adapter→runner"
}

// reverse is the direction an answer to a request travelling d takes.
func (d Dir) reverse() Dir { return 1 - d }

// Kind is the kind of a JSON-RPC message.
type Kind string

// The kinds of messages.
const (
	Request      Kind = "request"
	Notification Kind = "notification"
	Result       Kind = "result"
	Error        Kind = "error"
)

// Msg is one protocol message crossing the proxy. Hooks change it through
// its fields and the Edit methods; the proxy encodes it again when it goes
// on.
type Msg struct {
	Dir  Dir
	Kind Kind
	// ID is the request id (requests and responses), verbatim.
	ID json.RawMessage
	// Method is the method of a request or notification, or of the request
	// a response answers ("" when the proxy never saw that request).
	Method string
	// Params are the params of a request or notification.
	Params json.RawMessage
	// Result and Error are a response's result or error object.
	Result json.RawMessage
	Error  json.RawMessage
	// Request is, for a response, the request it answers (nil when
	// unknown).
	Request *Msg

	// own marks a request the proxy sent itself: its answer does not go
	// on, but to then, when set.
	own  bool
	then func(s *State, answer *Msg) []*Msg
	// opaque is a line that is not a JSON-RPC message, forwarded verbatim
	// (the receiver judges it).
	opaque []byte
	// line is the message as it was read, and read its fields then: a
	// message no hook changed goes on byte for byte.
	line []byte
	read fields
	// encoded is the message as it goes on, once encoded.
	encoded []byte
}

// fields are what a message says, as it was read.
type fields struct {
	kind                      Kind
	method                    string
	id, params, result, error json.RawMessage
}

// envelope is a JSON-RPC 2.0 message on the wire.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

// decode reads one line into a message travelling d. A line that is not a
// JSON-RPC message becomes an opaque message.
func decode(line []byte, d Dir) *Msg {
	var e envelope
	if err := json.Unmarshal(line, &e); err != nil || e.JSONRPC != "2.0" {
		return &Msg{Dir: d, opaque: bytes.Clone(line)}
	}
	m := &Msg{Dir: d, ID: e.ID, Method: e.Method, Params: e.Params, Result: e.Result, Error: e.Error, line: line}
	hasID := len(e.ID) > 0 && string(e.ID) != "null"
	switch {
	case e.Method != "" && hasID:
		m.Kind = Request
	case e.Method != "":
		m.Kind = Notification
	case e.Error != nil:
		m.Kind = Error
	case e.Result != nil:
		m.Kind = Result
	default:
		return &Msg{Dir: d, opaque: bytes.Clone(line)}
	}
	m.read = fields{m.Kind, m.Method, m.ID, m.Params, m.Result, m.Error}
	return m
}

// unchanged reports whether no hook changed what the message says since it
// was read.
func (m *Msg) unchanged() bool {
	r := &m.read
	if m.line == nil || m.Kind != r.kind || (!m.IsResponse() && m.Method != r.method) {
		return false
	}
	return same(m.ID, r.id) && same(m.Params, r.params) && same(m.Result, r.result) && same(m.Error, r.error)
}

// same reports whether a and b are the same bytes in memory: a hook that
// changes a field stores new bytes.
func same(a, b json.RawMessage) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// changed reports whether the message goes on other than it was read: a
// hook changed what it says (not merely how it is written).
func (m *Msg) changed() bool {
	if m.opaque != nil || m.unchanged() {
		return false
	}
	b, err := m.encode()
	return err != nil || !bytes.Equal(b, m.line)
}

// encode writes the message as one line, without its newline.
func (m *Msg) encode() ([]byte, error) {
	if m.opaque != nil {
		return m.opaque, nil
	}
	if m.unchanged() {
		return m.line, nil
	}
	if m.encoded != nil {
		return m.encoded, nil
	}
	b, err := m.encodeFields()
	if err == nil {
		m.encoded = b
	}
	return b, err
}

// encodeFields encodes the message from its fields.
func (m *Msg) encodeFields() ([]byte, error) {
	e := envelope{JSONRPC: "2.0", ID: m.ID}
	switch m.Kind {
	case Request, Notification:
		e.Method, e.Params = m.Method, m.Params
	case Result:
		e.Result = m.Result
		if len(e.Result) == 0 {
			e.Result = json.RawMessage("null")
		}
	case Error:
		e.Error = m.Error
	default:
		return nil, fmt.Errorf("a message of no kind")
	}
	return jsontext.Marshal(e)
}

// IsResponse reports whether the message answers a request.
func (m *Msg) IsResponse() bool { return m.Kind == Result || m.Kind == Error }

// Is reports whether the message is a request or notification of method,
// or a response to one.
func (m *Msg) Is(method string) bool { return m.opaque == nil && m.Method == method }

// Copy returns a copy of the message that can be changed on its own.
func (m *Msg) Copy() *Msg {
	c := *m
	c.Params, c.Result, c.Error = bytes.Clone(m.Params), bytes.Clone(m.Result), bytes.Clone(m.Error)
	c.line, c.encoded = nil, nil
	return &c
}

// EditParams decodes the params as a JSON object, lets f change it, and
// stores it again. Params that are not an object are left alone.
func (m *Msg) EditParams(f func(p Object)) { m.Params = editObject(m.Params, f) }

// EditResult is [Msg.EditParams] for a result.
func (m *Msg) EditResult(f func(r Object)) { m.Result = editObject(m.Result, f) }

// ParamsObject returns the params decoded as a JSON object (empty when
// they are not one).
func (m *Msg) ParamsObject() Object { return objectOf(m.Params) }

// ResultObject returns the result decoded as a JSON object.
func (m *Msg) ResultObject() Object { return objectOf(m.Result) }

// ErrorKind returns data.kind of an error response.
func (m *Msg) ErrorKind() string {
	return objectOf(m.Error).Object("data").String("kind")
}
