package record

import (
	"encoding/json"
	"time"
)

// Kind says what a [Record] is about.
type Kind string

// The kinds of records.
const (
	// KindStart: a fake process started. PID, PPID, Argv, Env and Cwd are
	// set.
	KindStart Kind = "start"
	// KindExit: a fake process ended (its record connection closed).
	KindExit Kind = "exit"
	// KindMessage: a JSON-RPC message received by a fake (Dir "in") or
	// sent by it (Dir "out"), recorded before it is handled or written.
	// Params is set for requests and notifications, not for responses.
	KindMessage Kind = "message"
	// KindHTTP: an HTTP request received by an HTTP fake.
	KindHTTP Kind = "http"
	// KindHost: a call the implementation made into its host (the runner):
	// Method is "model" or "approval", Params the request. Recorded in the
	// same log so that it is ordered with what the fakes saw.
	KindHost Kind = "host"
	// KindHTTPResponse: an HTTP response of an HTTP fake, recorded after it
	// ended: possibly after the client already read it and sent its next
	// request, so wait for it on the log. HTTP carries the request's
	// method, path, query and host (no header), Method and ID the JSON-RPC
	// method and id of the request body (of its first message; empty for
	// none or a notification), Status
	// the HTTP status, Written the body bytes the fake managed to write
	// (into its connection: bytes in the client's receive buffer count)
	// and Aborted whether the body was cut short (the client went away, a
	// write failed or stalled, or the fake closed, before the body was
	// complete).
	KindHTTPResponse Kind = "http-response"
	// KindSandbox: the fake sandbox wrapper ran. Argv is the wrapped
	// command line, Env, Cwd, PID and PPID the wrapper's (the PID is the
	// wrapped process's too: the wrapper execs it). Reported on a
	// connection of its own that carries no start and leaves no exit.
	KindSandbox Kind = "sandbox"
	// KindAnswer: the answer a stdio fake got to a request it sent the
	// client (Call.AskClient). Method and ID are the request's; Result or
	// Error is the answer; Aborted is set when no answer came (timeout, or
	// the connection ended).
	KindAnswer Kind = "answer"
	// KindLatch: a fake is waiting at the latch named Method (Call.Latch)
	// before it answers a call, until the runner releases it
	// ([Server.Release], [Log.Release]). A stdio fake reports it on a
	// connection of its own, whose acknowledgement the server withholds
	// until the release; it is appended as soon as it arrives. A second
	// record of the same instance and latch with Aborted set says that the
	// fake stopped waiting before the release (the call was cancelled, or
	// its client went away).
	KindLatch Kind = "latch"
	// KindRelease: the runner released the latch named Method; every fake
	// waiting at it, now or later, goes on. Appended once per latch, by the
	// first release. Server and Instance are empty.
	KindRelease Kind = "release"
	// KindNotSent: a fake was scripted to send a message and did not, for
	// the reason in Params ({"reason": "..."}). Method is the message's
	// method (notifications/progress), ID the id of the request it was
	// about. Recorded when the fake learns it cannot send it: for progress,
	// when the request arrives without a progressToken, or on an HTTP
	// response that is a single application/json message.
	KindNotSent Kind = "not-sent"
	// KindStdinClosed: the stdin of a stdio fake that keeps running when
	// it closes (Script.IgnoreStdinClose) closed: the client began to shut
	// it down. Recorded before the fake waits for a signal.
	KindStdinClosed Kind = "stdin-closed"
)

// Record is one thing a fake observed.
type Record struct {
	// Seq orders records within a [Log]; it is assigned on append.
	Seq int64 `json:"seq"`
	// Time is when the record was appended.
	Time time.Time `json:"time"`
	// Server is the name of the fake's script.
	Server string `json:"server"`
	// Instance identifies one run of a fake: one process, or one HTTP
	// mount. Records of a restarted server have a new instance.
	Instance string `json:"instance"`
	Kind     Kind   `json:"kind"`

	// PID, PPID, Argv, Env and Cwd describe a started process.
	PID  int      `json:"pid,omitempty"`
	PPID int      `json:"ppid,omitempty"`
	Argv []string `json:"argv,omitempty"`
	Env  []string `json:"env,omitempty"`
	Cwd  string   `json:"cwd,omitempty"`

	// Dir is "in" for a message the fake received, "out" for one it sent.
	Dir string `json:"dir,omitempty"`
	// Method, ID and Params describe a JSON-RPC message; ID is empty for
	// notifications and responses carry no method.
	Method string          `json:"method,omitempty"`
	ID     json.RawMessage `json:"id,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	// Bytes is the size of the message or body on the wire.
	Bytes int `json:"bytes,omitempty"`

	// HTTP describes an HTTP request.
	HTTP *HTTPRequest `json:"http,omitempty"`

	// Status is the HTTP status of a [KindHTTPResponse].
	Status int `json:"status,omitempty"`
	// Written is the number of body bytes a fake wrote ([KindHTTPResponse]).
	Written int64 `json:"written,omitempty"`
	// Aborted says that a response was cut short ([KindHTTPResponse]),
	// that no answer came ([KindAnswer]) or that a fake stopped waiting
	// at a latch before its release ([KindLatch]).
	Aborted bool `json:"aborted,omitempty"`

	// Result and Error are a JSON-RPC answer ([KindAnswer]); Error is also
	// set on an error response a fake sent ([KindMessage], Dir "out").
	Result json.RawMessage `json:"result,omitempty"`
	Error  *RPCError       `json:"error,omitempty"`
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

// HTTPRequest describes an HTTP request a fake received.
type HTTPRequest struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Query is the raw query string, if any.
	Query  string              `json:"query,omitempty"`
	Host   string              `json:"host"`
	Header map[string][]string `json:"header,omitempty"`
}

// IsRequest reports whether r is a JSON-RPC request (or notification) the
// fake received, as opposed to a response or a message it sent.
func (r Record) IsRequest() bool {
	return r.Kind == KindMessage && r.Dir == "in" && r.Method != ""
}
