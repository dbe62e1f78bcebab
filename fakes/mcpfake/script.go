package mcpfake

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/mcpconform/mcpconform/internal/jsontext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Script describes one fake MCP server.
type Script struct {
	// Name labels the server's records.
	Name string `json:"name"`
	// ProtocolVersions, when set, are the only protocol versions the
	// server speaks (e.g. ["2025-11-25"] for an old server).
	ProtocolVersions []string `json:"protocolVersions,omitempty"`
	// Instructions are the server's instructions to the client.
	Instructions string `json:"instructions,omitempty"`
	// Tools are offered by tools/list, verbatim and in order: duplicates,
	// invalid names and invalid schemas are served as they are.
	Tools []Tool `json:"tools,omitempty"`
	// PageSize is the number of tools per tools/list page; 0 serves all of
	// them on one page.
	PageSize int `json:"pageSize,omitempty"`
	// EndlessCursor keeps answering with a next cursor after the last page,
	// each further page offering one fresh tool, forever.
	EndlessCursor bool `json:"endlessCursor,omitempty"`
	// Calls scripts tools/call per tool name; a tool without an entry
	// answers with the text "ok".
	Calls map[string]Call `json:"calls,omitempty"`
	// ListChanged makes the server advertise tools.listChanged. A script
	// with a Call.ThenTools advertises it anyway: go-sdk sends
	// notifications/tools/list_changed only when the server advertises it,
	// and a 2026-07-28 client subscribes (subscriptions/listen) only then.
	ListChanged bool `json:"listChanged,omitempty"`
	// Faults break the server when it receives a method.
	Faults []Fault `json:"faults,omitempty"`

	// Resources and Prompts, when set, make the server advertise the
	// resources and prompts capabilities with one item per name (resource
	// URIs are fake://<script>/<name>), so that scenarios can check that a
	// client never lists or reads them.
	Resources []string `json:"resources,omitempty"`
	Prompts   []string `json:"prompts,omitempty"`

	// StderrOnStart is a number of bytes a stdio fake writes to stderr
	// when it starts, before it serves anything.
	StderrOnStart int64 `json:"stderrOnStart,omitempty"`
	// StderrText is in every line a stdio fake writes to stderr (a canary);
	// empty means "fake stderr".
	StderrText string `json:"stderrText,omitempty"`
	// Grandchild makes a stdio fake spawn, when it starts, a grandchild
	// process in its own process group: the same executable run with
	// [GrandchildSubcommand], which reports a start record (Server
	// "<name>/grandchild") and then blocks until it is killed. The fake
	// serves nothing before the grandchild's start is recorded.
	Grandchild bool `json:"grandchild,omitempty"`

	// IgnoreStdinClose keeps a stdio fake running when its stdin closes
	// (it says so in a line on stderr), until a signal (SIGTERM, SIGINT,
	// SIGHUP or SIGKILL) ends it, so that scenarios see whether a client
	// escalates to signals.
	IgnoreStdinClose bool `json:"ignoreStdinClose,omitempty"`

	// HTTP scripts HTTP-level behaviour; only the HTTP fake reads it.
	HTTP *HTTPBehaviour `json:"http,omitempty"`
}

// Tool is one tool the server offers. A nil InputSchema is served as
// {"type":"object"}.
type Tool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
}

// Call scripts the answer to tools/call of one tool.
type Call struct {
	// Text is the text content of the result.
	Text string `json:"text,omitempty"`
	// IsError marks the result as a tool error.
	IsError bool `json:"isError,omitempty"`
	// Structured is the result's structuredContent.
	Structured json.RawMessage `json:"structured,omitempty"`
	// DelayMs delays the answer; a cancelled call stops waiting.
	DelayMs int `json:"delayMs,omitempty"`
	// Hang never answers; the call ends only when it is cancelled or the
	// connection closes.
	Hang bool `json:"hang,omitempty"`
	// Exit ends the server process (stdio) or drops the connection (HTTP)
	// instead of answering.
	Exit bool `json:"exit,omitempty"`
	// Crash kills the server process with SIGKILL (stdio) or drops the
	// connection (HTTP) instead of answering: a crash, not an exit.
	Crash bool `json:"crash,omitempty"`

	// Bytes, when positive, makes a stdio fake answer with a JSON-RPC
	// response line of exactly Bytes bytes (the newline excluded): the
	// server's own answer with its first text content padded. A Bytes
	// smaller than the unpadded answer leaves the answer as it is. The
	// HTTP fake ignores it (see [HTTPBehaviour.Bodies]).
	Bytes int64 `json:"bytes,omitempty"`
	// StderrBytes is a number of bytes a stdio fake writes to stderr
	// before it answers.
	StderrBytes int64 `json:"stderrBytes,omitempty"`
	// AskClient lists requests ("sampling/createMessage", "roots/list",
	// "elicitation/create", or any other method, sent with empty params)
	// that a stdio fake sends the client, one after the other, while it
	// handles the call; it waits for each answer (at most AskTimeoutMs),
	// records it ([record.KindAnswer]) and then answers the call. The HTTP
	// fake ignores it.
	AskClient []string `json:"askClient,omitempty"`
	// AskTimeoutMs bounds the wait for each answer; 0 means 10 s.
	AskTimeoutMs int `json:"askTimeoutMs,omitempty"`

	// Result, when set, is the JSON-RPC result of the answer, sent as it
	// is (only its insignificant whitespace removed) instead of the result
	// go-sdk would send, which is never re-encoded through go-sdk's types:
	// content of unknown types, image and audio content, resource links,
	// embedded resources, a scalar structuredContent, anything. The id is
	// the request's. It replaces a result, not an error (a Fault's), and
	// overrides Text, IsError, Structured and Bytes. Everything else (the
	// progress, the latch, delays) happens as scripted before the answer.
	// Over HTTP it replaces the answer in go-sdk's response (an event of
	// the stream, or the JSON body); an HTTPBehaviour.Bodies entry that
	// answers the call sends go-sdk's answer padded instead.
	Result json.RawMessage `json:"result,omitempty"`
	// Progress is sent, in order, as notifications/progress carrying the
	// progressToken of the request's params._meta, before the answer (after
	// AskClient, before Latch and DelayMs). A request without a
	// progressToken gets none, and a [record.KindNotSent] record says so.
	// Over HTTP it travels in the call's event stream; a mount answering
	// application/json (HTTPBehaviour.JSONResponse) cannot carry it, and a
	// KindNotSent record says so.
	Progress []Progress `json:"progress,omitempty"`
	// LateProgress is sent the same way just after the answer: on stdio the
	// lines that follow the answer's, over HTTP the events that follow the
	// answer's in the same stream.
	LateProgress []Progress `json:"lateProgress,omitempty"`
	// Latch makes the fake wait, after Progress and before it answers,
	// until the runner releases the latch of this name
	// ([record.Server.Release]), which the fake's [record.KindLatch] record
	// announces. A cancelled call, a client that goes away and a fake that
	// closes stop the wait, without answering (a second KindLatch record,
	// Aborted, says so). Over stateless HTTP go-sdk cancels the handler
	// only of a 2026-07-28 call: an older client's cancellation reaches no
	// handler, and the wait lasts until the release or the fake's Close.
	Latch string `json:"latch,omitempty"`
	// ThenTools, when set (even to an empty list), replaces the tools the
	// server offers as the answer goes out, and the server then sends
	// notifications/tools/list_changed (through go-sdk: to a 2026-07-28
	// client only while it has a subscriptions/listen open, which a go-sdk
	// client opens when it has a ToolListChangedHandler).
	ThenTools *[]Tool `json:"thenTools,omitempty"`
	// ExitAfterAnswer ends a stdio fake's process, with exit code 0, right
	// after the answer (and LateProgress) is written: the connection is
	// lost after the call.
	// Over HTTP the mount forgets every session instead: once the answer
	// is written, every later request to it (any method, any HTTP method)
	// answers 404 Not Found, for as long as the HTTP fake runs.
	ExitAfterAnswer bool `json:"exitAfterAnswer,omitempty"`
}

// Progress is one scripted notifications/progress. go-sdk sends no total
// of 0: Total nil and Total 0 both send none.
type Progress struct {
	Progress float64  `json:"progress"`
	Total    *float64 `json:"total,omitempty"`
	Message  string   `json:"message,omitempty"`
}

// params returns the notification's params for token.
func (p Progress) params(token any) *mcp.ProgressNotificationParams {
	np := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: p.Progress, Message: p.Message}
	if p.Total != nil {
		np.Total = *p.Total
	}
	return np
}

// sendsProgress reports whether the call sends progress before or after
// its answer.
func (c Call) sendsProgress() bool { return len(c.Progress) > 0 || len(c.LateProgress) > 0 }

// afterAnswer reports whether the transport has work to do when the
// call's answer goes out.
func (c Call) afterAnswer() bool {
	return c.Result != nil || c.Bytes > 0 || len(c.LateProgress) > 0 || c.ThenTools != nil || c.ExitAfterAnswer
}

// Fault breaks the server when it receives Method.
type Fault struct {
	Method string `json:"method"`
	// DelayMs delays handling.
	DelayMs int `json:"delayMs,omitempty"`
	// Hang never answers.
	Hang bool `json:"hang,omitempty"`
	// Exit ends the process (stdio) instead of answering.
	Exit bool `json:"exit,omitempty"`
	// Error answers with a JSON-RPC error with this message.
	Error string `json:"error,omitempty"`
	// StderrBytes is a number of bytes a stdio fake writes to stderr
	// before it handles the method.
	StderrBytes int64 `json:"stderrBytes,omitempty"`
	// Latch makes the fake wait before it handles the method until the
	// runner releases the latch of this name, as [Call.Latch] does for a
	// call: a handshake held there is in progress for as long as the
	// scenario needs, without a delay to guess.
	Latch string `json:"latch,omitempty"`
}

// HTTPBehaviour scripts how the HTTP fake answers at the HTTP level, per
// mount. For a request, the first matching [StatusReply] wins, then the
// first matching [Redirect], then the first matching [Body]; a request none
// of them matches is served by the MCP server.
type HTTPBehaviour struct {
	// LegacyOnly makes the mount a legacy HTTP+SSE (2024-11-05) server: a
	// POST to the mount answers 405 Method Not Allowed; a GET answers
	// text/event-stream with an "endpoint" event naming the message URL
	// (the mount with ?sessionid=...), and keeps the stream open until the
	// client goes away; POSTs to the message URL are served.
	LegacyOnly bool `json:"legacyOnly,omitempty"`
	// JSONResponse makes the MCP server answer POSTs with an
	// application/json body instead of a text/event-stream (go-sdk's
	// StreamableHTTPOptions.JSONResponse).
	JSONResponse bool `json:"jsonResponse,omitempty"`
	// Stateful serves the mount with go-sdk's stateful Streamable HTTP
	// handler, which answers server/discover offering only the protocol
	// versions before 2026-07-28 (and speaks them after initialize): a
	// real server of an older protocol, not a scripted one.
	Stateful bool `json:"stateful,omitempty"`
	// Redirects answer POSTs with an HTTP redirect.
	Redirects []Redirect `json:"redirects,omitempty"`
	// Bodies answer POSTs with bodies of scripted sizes and framing.
	Bodies []Body `json:"bodies,omitempty"`
	// Status answers requests with a scripted HTTP status.
	Status []StatusReply `json:"status,omitempty"`
	// Guard, when set, makes the mount an OAuth protected resource (RFC
	// 9728): every request to the mount passes [ResourceGuard.Check]
	// first, and GET /.well-known/oauth-protected-resource/mcp/<name> serves
	// the guard's metadata. A request the guard refuses is recorded like
	// any other (its JSON-RPC messages and its response included). Go only
	// (package oauth provides one): a script file cannot carry it, and a
	// stdio fake ignores it.
	Guard ResourceGuard `json:"-"`
}

// Redirect answers a POST whose JSON-RPC method is Method ("" = any POST)
// with Status (301, 302, 303, 307 or 308) and a Location header: an
// absolute URL, or a path on the same server such as "/mcp/elsewhere".
type Redirect struct {
	Method   string `json:"method,omitempty"`
	Status   int    `json:"status"`
	Location string `json:"location"`
}

// The modes of a [Body].
const (
	// BodyExact: an application/json body of exactly Bytes bytes, with a
	// correct Content-Length, that is the server's own JSON-RPC response
	// padded: in the first text content of a tools/call result, in the
	// last tool's description of a tools/list result, in the message of an
	// error, and in result._meta["mcpconform/padding"] otherwise.
	BodyExact = "exact"
	// BodySSEEvent: a text/event-stream body holding one "message" event
	// whose data line is such a response of exactly Bytes bytes.
	BodySSEEvent = "sse-event"
	// BodyUnbounded: a chunked application/json body (no Content-Length)
	// that starts like a JSON-RPC response to the request and then streams
	// padding until the client goes away or the server closes.
	BodyUnbounded = "unbounded"
	// BodyLyingLength: a raw HTTP/1.1 response declaring Content-Length: 10
	// followed by Bytes body bytes (a padded response as for BodyExact), or
	// by padding forever when Bytes is 0; the connection is closed after.
	BodyLyingLength = "lying-length"
)

// Body answers a POST whose JSON-RPC method is Method ("" = any request)
// with a body of mode Mode (one of BodyExact, BodySSEEvent, BodyUnbounded
// and BodyLyingLength). A POST holding no JSON-RPC request is never
// answered by a Body.
type Body struct {
	Method string `json:"method,omitempty"`
	// Tool, when set, limits a tools/call Body to the calls of that tool.
	Tool  string `json:"tool,omitempty"`
	Mode  string `json:"mode"`
	Bytes int64  `json:"bytes,omitempty"`
	// StallMs bounds how long one write of a BodyUnbounded or
	// BodyLyingLength body may block before the fake decides that the
	// client stopped reading and drops the connection; 0 means 5 s.
	StallMs int `json:"stallMs,omitempty"`
}

// StatusReply answers with an HTTP status: Status, with the headers in
// Header (e.g. WWW-Authenticate) and Body as a text/plain body unless
// Header sets a Content-Type. Method "" matches every request (any HTTP
// method); otherwise it matches a POST whose JSON-RPC method is Method.
// Times is how many requests it answers; 0 means all of them.
type StatusReply struct {
	Method string            `json:"method,omitempty"`
	Status int               `json:"status"`
	Header map[string]string `json:"header,omitempty"`
	Body   string            `json:"body,omitempty"`
	Times  int               `json:"times,omitempty"`
}

// stderrText is the canary of the script's stderr lines.
func (s *Script) stderrText() string {
	if s.StderrText == "" {
		return "fake stderr"
	}
	return s.StderrText
}

// ReadScript reads a script from a JSON file.
func ReadScript(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Script
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	return &s, nil
}

// WriteFile writes the script as JSON to path. Raw JSON (Call.Result,
// schemas) is compacted but not escaped for HTML.
func (s *Script) WriteFile(path string) error {
	data, err := jsontext.Marshal(s)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// listChanged reports whether the server advertises tools.listChanged.
func (s *Script) listChanged() bool {
	if s.ListChanged {
		return true
	}
	for _, c := range s.Calls {
		if c.ThenTools != nil {
			return true
		}
	}
	return false
}

// call returns the script of tools/call of tool, and whether there is one.
func (s *Script) call(tool string) (Call, bool) {
	c, ok := s.Calls[tool]
	return c, ok
}

// fault returns the fault scripted for method, if any.
func (s *Script) fault(method string) (Fault, bool) {
	for _, f := range s.Faults {
		if f.Method == method {
			return f, true
		}
	}
	return Fault{}, false
}
