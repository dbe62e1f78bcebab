package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// ProtocolVersion is the only MCP protocol version the reference speaks
// (LA-TRN-01). A server that cannot speak it is refused; there is no
// fallback to an older version (LA-TRN-02).
const ProtocolVersion = "2026-07-28"

// clientInfo identifies the reference to MCP servers.
var clientInfo = &mcp.Implementation{Name: "mcpconform-reference", Version: "0.1.0"}

// connection is a live session with one server and the tools it offered.
type connection struct {
	session *mcp.ClientSession
	proc    *process     // the stdio server, nil for http
	http    *http.Client // the http client, nil for stdio
	// sse marks the legacy HTTP+SSE transport (Blade profile): its event
	// stream is long-lived, so only each event is capped, not the stream.
	sse     bool
	tools   []*tool
	timeout time.Duration // bounds each call (LA-TMO-02)

	mu          sync.Mutex
	discoverErr error    // the server/discover failure, if any
	offered     []string // the versions a server/discover answer offered
	lastRaw     int      // tools in the last raw tools/list page
	closing     bool     // close was called
	lostFlag    bool     // the session ended
	failed      error    // the fatal error that ended it during a call (lose)
	onLost      func()   // called when the session ends by itself
	capHit      atomic.Bool
	redirect    atomic.Pointer[redirectError] // the redirect refused, if any
	// httpFailures counts the HTTP exchanges that failed (a network error
	// or a status outside 2xx); httpFailure describes the last one.
	httpFailures atomic.Int64
	httpFailure  atomic.Pointer[string]
	// authFailure is why the server's last refusal (401 or 403) stayed:
	// a connection or discovery that fails after it fails with it
	// (kind auth, or the refresh's own failure), never as a transport
	// or protocol failure.
	authFailure atomic.Pointer[Error]

	faults fault.Set
	// rules are the host profile's; transport is the entry's.
	rules     Rules
	transport string

	progress progressRoutes // tool_progress routing (progress.go)
	auth     *oauthSession  // the server's OAuth, nil without a binding
	ownsAuth bool           // releases auth's provider when closed
	onChange func()         // called on notifications/tools/list_changed
	// stopHealth ends the connection's health checks (Blade profile).
	stopHealth context.CancelFunc
	// stopInProcess ends the server side of an in-process server's
	// session (Blade profile), nil for the others.
	stopInProcess func()
	// connectedAt is when the connection joined the registry.
	connectedAt time.Time

	// notices counts cancellation notices written to the server; expected
	// counts the calls cancelled, each of which go-sdk follows with a
	// notice sent in the background.
	notices  chan struct{}
	expected int

	closeOnce sync.Once
	closeErr  error
}

// connect asks for the mcp_connect permission, connects the server and
// discovers its tools, all within the entry's timeout, the stdio probe
// included (LA-SEC-02, LA-TMO-04, interpretation A-36). On failure nothing
// stays open.
func (a *Host) connect(ctx context.Context, s *server) (*connection, error) {
	req := ApprovalRequest{Capability: ConnectCapability, Server: s.name, Transport: s.cfg.transport(), URL: target(s.cfg)}
	if s.cfg.transport() == TransportStdio {
		req.URL, req.Command, req.Args = "", s.cfg.Command, s.cfg.Args
	}
	m := a.faults
	skip := !a.profile.ConnectApproval || m.Has(fault.ConnectWithoutApproval) || // LA-SEC-02: mcp_connect is asked before every connection
		(m.Has(fault.TrustProjectFiles) && s.source == SourceProject) || // LA-SEC-10: project files grant nothing
		(m.Has(fault.DryRunSkipsConnect) && a.opts.DryRun) || // LA-SEC-13: dry-run still asks to connect
		(m.Has(fault.RefreshWithoutApproval) && s.refreshing) || // LA-CAT-06: a refresh asks again
		(m.Has(fault.DefaultAllowsConnect) && a.opts.Permission == nil) // LA-SEC-04: the default policy asks
	if !skip {
		if err := a.authorize(ctx, ConnectCapability, req); err != nil {
			return nil, err
		}
	}
	if b, ok := a.opts.MCPOAuth[s.name]; ok && s.cfg.transport() == TransportHTTP &&
		!(a.faults.Has(fault.OAuthOnlyOption) && s.source != SourceOption) && // LA-OAU-01: mcpOAuth binds servers of every source
		!(a.faults.Has(fault.CCIgnored) && b.ClientCredentials != nil) { // LA-CC-01: client credentials authenticate the agent itself
		return a.connectOAuth(ctx, s, b)
	}
	return a.connectTimed(ctx, s, nil)
}

// connectTimed connects and discovers within the entry's timeout,
// authenticating with auth when it is not nil.
func (a *Host) connectTimed(ctx context.Context, s *server, auth *oauthSession) (*connection, error) {
	timeout := s.cfg.timeout()
	switch {
	case a.faults.Has(fault.IgnoreTimeoutMs): // LA-TMO-04: the entry's timeoutMs bounds connecting
		timeout = DefaultTimeout
	case a.faults.Has(fault.ConnectTimeout20) && s.cfg.Timeout == 0: // LA-TMO-01: 30 s by default
		timeout = 20 * time.Second
	case a.faults.Has(fault.ConnectTimeout60) && s.cfg.Timeout == 0: // LA-TMO-01: 30 s by default
		timeout = 60 * time.Second
	}
	ctx, cancel := a.opts.Clock.WithTimeout(ctx, timeout)
	defer cancel()
	// LA-TRN-10: a stdio server is first started as a probe process.
	if s.cfg.transport() == TransportStdio && a.profile.Probe && !a.faults.Has(fault.NoProbe) {
		if err := a.probe(ctx, s); err != nil {
			return nil, err
		}
	}
	conn, err := a.dialWith(ctx, s, true, auth)
	if err != nil {
		return nil, err
	}
	if err := conn.discover(ctx, s.name, a.faults); err != nil {
		conn.close()
		return nil, err
	}
	return conn, nil
}

// probe runs a stdio server once as a temporary probe process: it opens a
// session (server/discover) and closes it again, reaping the process,
// before the actual process starts. This is what the official client that
// lite-agent ships with does at the pinned protocol version, and both
// processes run the same (sandboxed) command; servers must therefore start
// without business side effects (LA-TRN-10, LA-TRN-11, LA-SEC-14).
func (a *Host) probe(ctx context.Context, s *server) error {
	conn, err := a.dialWith(ctx, s, !a.faults.Has(fault.ProbeOutsideSandbox), nil)
	if err != nil {
		return err
	}
	return conn.close()
}

// dialWith opens an MCP session with the server of s, pinned to
// [ProtocolVersion], through the sandbox unless sandboxed is false (only
// under [fault.ProbeOutsideSandbox]), authenticated by auth when not nil.
func (a *Host) dialWith(ctx context.Context, s *server, sandboxed bool, auth *oauthSession) (*connection, error) {
	conn := &connection{timeout: s.cfg.timeout(), notices: make(chan struct{}, 64), faults: a.faults, auth: auth,
		rules: a.profile.Rules, transport: s.cfg.transport()}
	// LA-EVT-01: each progress notification is one tool_progress event.
	conn.progress.twice = a.faults.Has(fault.ProgressTwice)
	opts := &mcp.ClientOptions{
		Logger: a.opts.Logger,
		// No roots, sampling or elicitation (LA-TRN-08).
		Capabilities: &mcp.ClientCapabilities{},
		// No automatic input_required handling (LA-TRN-09).
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		// Progress goes to the call that asked for it (LA-EVT-01).
		ProgressNotificationHandler: conn.progress.handle,
		// A changed tool list makes the server stale; the run in
		// progress keeps its catalog (LA-CAT-01, LA-CAT-02).
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { conn.listChanged() },
	}
	// LA-TRN-08: no sampling, roots or elicitation are offered.
	if a.faults.Has(fault.OfferSampling) {
		opts.Capabilities = nil // go-sdk's default: roots
		opts.CreateMessageHandler = func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return nil, errors.New("no sampling")
		}
	}
	client := mcp.NewClient(clientInfo, opts)
	// LA-TRN-08: what a server asks of the client is refused.
	if !a.faults.Has(fault.OfferSampling) {
		client.AddReceivingMiddleware(refuseServerRequests)
	}
	// lite-agent pins one protocol version (LA-TRN-01, LA-TRN-02); Blade
	// names none, so its profile lets go-sdk negotiate (interpretation
	//
	pinned := a.profile.PinProtocol && !a.faults.Has(fault.Downgrade) && !a.faults.Has(fault.OldProtocol)
	if pinned {
		client.AddSendingMiddleware(conn.pinProtocol)
	}
	client.AddSendingMiddleware(conn.countTools)
	sandbox := a.opts.Sandbox
	if !sandboxed {
		sandbox = nil
	}

	var transport mcp.Transport
	switch {
	case a.dial != nil:
		rwc, err := a.dial(s.name)
		if err != nil {
			return nil, &Error{Kind: KindTransport, Rule: conn.rules.transport(s.cfg.transport()), Source: s.name, Msg: "cannot reach the server", Err: err}
		}
		transport = conn.stream(rwc, rwc)
	case s.cfg.transport() == TransportInProcess && s.blade != nil && s.blade.InProcess != nil:
		// BL-INP-05: an in-process server is reached in memory, in this process.
		t, stop, err := s.blade.InProcess.transport(ctx, a.opts.Environ)
		if err != nil {
			return nil, &Error{Kind: KindTransport, Rule: conn.rules.transport(TransportInProcess), Source: s.name, Msg: "cannot connect the in-process server", Err: err}
		}
		transport, conn.stopInProcess = t, stop
	case s.cfg.transport() == TransportStdio:
		p, err := a.startProcess(s.cfg, sandbox)
		if err != nil {
			return nil, &Error{Kind: KindTransport, Rule: conn.rules.transport(TransportStdio), Source: s.name, Msg: "cannot start the stdio server", Err: err}
		}
		conn.proc = p
		transport = conn.stream(p.reader(), p)
	case s.cfg.transport() == TransportHTTP:
		conn.http = a.newHTTPClient(s.cfg, conn)
		// No retries and no standalone GET stream: a request is sent once.
		// One server-sent event is bounded like a whole response.
		transport = &mcp.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: conn.http, MaxRetries: -1,
			DisableStandaloneSSE: true, MaxEventSize: MaxMessageBytes}
	case s.cfg.transport() == TransportSSE:
		// The legacy HTTP+SSE transport: the Blade profile only
		// (BL-TRN-03).
		conn.http, conn.sse = a.newHTTPClient(s.cfg, conn), true
		transport = sseTransport{&mcp.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: conn.http, MaxEventSize: MaxMessageBytes}}
	}
	var sessionOpts *mcp.ClientSessionOptions
	// LA-TRN-01: the session speaks MCP 2026-07-28.
	if a.faults.Has(fault.OldProtocol) {
		sessionOpts = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
	}
	session, err := client.Connect(ctx, transport, sessionOpts)
	if err != nil {
		// LA-TRN-05: there is no fallback to the legacy HTTP+SSE transport.
		if a.faults.Has(fault.LegacyFallback) && s.cfg.transport() == TransportHTTP {
			if resp, gerr := conn.http.Get(s.cfg.URL); gerr == nil {
				resp.Body.Close()
			}
		}
		conn.close()
		return nil, conn.connectError(ctx, s.name, err)
	}
	conn.session = session
	// LA-TRN-07: only tools are discovered; resources and prompts are not listed.
	if a.faults.Has(fault.ListResources) {
		_, _ = session.ListResources(ctx, nil)
		_, _ = session.ListPrompts(ctx, nil)
	}
	if v := session.InitializeResult().ProtocolVersion; v != ProtocolVersion && pinned {
		conn.close()
		return nil, &Error{Kind: KindProtocol, Rule: "LA-TRN-02", Source: s.name, Msg: fmt.Sprintf("the server negotiated MCP %s; only %s is supported", v, ProtocolVersion)}
	}
	go conn.watch()
	return conn, nil
}

// stream is the MCP transport of a stdio server's output r and input w
// ([lineTransport]): its output is scanned for progress tokens, its input
// for cancellation notices. The line limit is the process's own
// (process.go), exact and checked before parsing.
func (c *connection) stream(r io.ReadCloser, w io.WriteCloser) mcp.Transport {
	return &lineTransport{r: &scanReader{ReadCloser: r, routes: &c.progress}, w: &noticeWriter{WriteCloser: w, c: c}}
}

// watch waits for the session to end. An end the reference did not ask for
// (the server exited, the connection broke) is reported to onLost, which
// marks the server stale (LA-CAT-03).
func (c *connection) watch() {
	_ = c.session.Wait()
	c.mu.Lock()
	closing, lost := c.closing, c.onLost
	c.lostFlag = true
	c.mu.Unlock()
	if !closing && lost != nil {
		lost()
	}
}

// isLost reports whether the session ended by itself, or a call lost it.
func (c *connection) isLost() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return (c.lostFlag && !c.closing) || c.failed != nil
}

// lose ends a connection that a fatal error of a call broke (a message
// over the size limits, the server process gone, a transport failure):
// at once, so that list() says stale when the call returns, no later call
// or run uses it, and its process is reaped; the registry connects the
// server again at the next run, asking for mcp_connect again (LA-CAT-03,
// LA-CAT-05, LA-CAT-06).
func (c *connection) lose(cause error) {
	c.mu.Lock()
	if c.failed != nil || c.closing {
		c.mu.Unlock()
		return
	}
	c.failed = cause
	lost := c.onLost
	c.mu.Unlock()
	if lost != nil {
		lost()
	}
	_ = c.close()
}

// failureMark is where the transport's failures stand before a call.
func (c *connection) failureMark() int64 { return c.httpFailures.Load() }

// broken reports whether a call that failed with err, started at mark,
// ended the connection, and why: the stdio server's output ended (it
// exited, crashed or wrote too much), or an HTTP exchange of the call
// failed in a way go-sdk does not answer as a JSON-RPC error (a network
// error, a status it does not take as transient). An answer of the server
// (a JSON-RPC error) or a result that does not decode breaks nothing.
func (c *connection) broken(err error, mark int64) (string, bool) {
	var wire *jsonrpc.Error
	if err == nil || (errors.As(err, &wire) && !errors.Is(err, mcp.ErrConnectionClosed)) {
		return "", false
	}
	switch {
	case c.proc != nil && (c.proc.outputEnded() || errors.Is(err, mcp.ErrConnectionClosed)):
		if how := c.ended(); how != "" {
			return how, true
		}
		return "the server's output ended: " + err.Error(), true
	case c.proc == nil && c.httpFailures.Load() > mark:
		return *c.httpFailure.Load(), true
	case errors.Is(err, mcp.ErrConnectionClosed):
		return err.Error(), true
	}
	return "", false
}

// httpFailed records a failed HTTP exchange.
func (c *connection) httpFailed(what string) {
	c.httpFailure.Store(&what)
	c.httpFailures.Add(1)
}

// ended describes how a stdio server's process ended, when it did: its
// exit status or the signal that killed it. It waits for the exit, which
// follows the end of its stdout, at most a second.
func (c *connection) ended() string {
	if c.proc == nil {
		return ""
	}
	return c.proc.ended(time.Second)
}

// refuseServerRequests is a receiving middleware that answers every
// request a server sends the client (sampling/createMessage, roots/list,
// elicitation/create, ...) with "method not found": the reference offers
// none of these features, and go-sdk would otherwise answer roots/list with
// an empty list (LA-TRN-08). Notifications pass.
func refuseServerRequests(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if strings.HasPrefix(method, "notifications/") {
			return next(ctx, method, req)
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("%s is not supported by this client", method)}
	}
}

// errLegacyHandshake stops go-sdk's silent fallback to the initialize
// handshake of older protocol versions.
var errLegacyHandshake = errors.New("refusing the legacy initialize handshake")

// pinProtocol is a sending middleware that remembers why server/discover
// failed and refuses the initialize request go-sdk falls back to, so that
// an old server fails the connection instead of downgrading it.
func (c *connection) pinProtocol(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize":
			return nil, errLegacyHandshake
		case "server/discover":
			res, err := next(ctx, method, req)
			c.mu.Lock()
			c.discoverErr = err
			if r, ok := res.(*mcp.DiscoverResult); ok {
				c.offered = append([]string{}, r.SupportedVersions...)
			}
			c.mu.Unlock()
			return res, err
		}
		return next(ctx, method, req)
	}
}

// countTools is a sending middleware that remembers how many tools the
// server really sent in the last tools/list page, before go-sdk drops the
// ones it considers invalid.
func (c *connection) countTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.ListToolsResult); ok && method == "tools/list" {
			c.mu.Lock()
			c.lastRaw = len(r.Tools)
			c.mu.Unlock()
		}
		return res, err
	}
}

// refused notes why the server's refusal of a request stayed: err, an
// [*Error] of the session (a refresh that failed) or an authentication
// failure.
func (c *connection) refused(err error) {
	// LA-OAU-15: a refusal that stays is an authentication failure, not a transport one.
	if c.faults.Has(fault.AuthFailureAsTransport) {
		return
	}
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Kind: KindAuth, Rule: "LA-OAU-34", Msg: "the server refused the token and it could not be refreshed", Err: err}
	}
	c.authFailure.Store(e)
}

// connectError classifies a failed connection attempt. A refusal names
// the server, what was expected, what was seen and what to do.
func (c *connection) connectError(ctx context.Context, alias string, err error) error {
	c.mu.Lock()
	derr, offered := c.discoverErr, c.offered
	c.mu.Unlock()
	var redirect *redirectError
	var wire *jsonrpc.Error
	if lerr := c.limitError(alias); lerr != nil {
		return lerr
	}
	if af := c.authFailure.Load(); af != nil {
		return af
	}
	switch {
	case errors.As(err, &redirect):
		return &Error{Kind: KindSecurity, Rule: "LA-NET-07", Source: alias, Msg: redirect.Error()}
	case ctx.Err() != nil:
		return connectCancelled(ctx, alias, err)
	case c.faults.Has(fault.OldServerAsTransport) && errors.Is(err, errLegacyHandshake): // LA-TRN-02: an old server is a protocol error, not a transport one
		return c.transportError(ctx, alias, err)
	case errors.Is(err, errLegacyHandshake) && derr == nil:
		// server/discover answered, offering only older versions (go-sdk's
		// stateful HTTP server does).
		return oldServer(alias, fmt.Sprintf("its server/discover answer offers MCP %s", versionList(offered)))
	case errors.Is(err, errLegacyHandshake) && errors.As(derr, &wire) && wire.Code == codeRejected:
		// The transport refused server/discover: the HTTP status says why.
		if what := c.httpFailure.Load(); what != nil {
			return oldServer(alias, "server/discover: "+*what)
		}
		return oldServer(alias, fmt.Sprintf("server/discover was refused by the transport (%d %q)", wire.Code, wire.Message))
	case errors.Is(err, errLegacyHandshake) && errors.As(derr, &wire):
		seen := fmt.Sprintf("server/discover failed with %d %q", wire.Code, wire.Message)
		var data mcp.UnsupportedProtocolVersionData
		if json.Unmarshal(wire.Data, &data) == nil && len(data.Supported) > 0 {
			seen += fmt.Sprintf("; it speaks MCP %s", versionList(data.Supported))
		}
		return oldServer(alias, seen)
	case errors.Is(err, errLegacyHandshake) && derr != nil:
		return c.transportError(ctx, alias, derr)
	}
	return c.transportError(ctx, alias, err)
}

// codeRejected is go-sdk's "rejected by transport" error code, which it
// gives a request the HTTP transport refused (a status outside 2xx).
const codeRejected = -32005

// oldServer refuses a server that does not speak [ProtocolVersion],
// saying what was seen (LA-TRN-01, LA-TRN-02).
func oldServer(alias, seen string) error {
	return &Error{Kind: KindProtocol, Rule: "LA-TRN-02", Source: alias,
		Msg: fmt.Sprintf("the server does not speak MCP %s: %s; falling back to an older protocol is not allowed; upgrade the server to an MCP SDK that speaks %s", ProtocolVersion, seen, ProtocolVersion)}
}

// versionList lists protocol versions for a message, capped: a server
// chooses what it sends.
func versionList(vs []string) string {
	if len(vs) == 0 {
		return "no version"
	}
	shown := vs
	if len(shown) > 8 {
		shown = shown[:8]
	}
	out := make([]string, len(shown))
	for i, v := range shown {
		out[i] = fmt.Sprintf("%q", truncate(v, 32))
	}
	text := strings.Join(out, ", ")
	if len(vs) > len(shown) {
		text += fmt.Sprintf(" and %d more", len(vs)-len(shown))
	}
	return text
}

// truncate shortens text from a server for a message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

// transportError reports a failure to talk to the server: a refused
// redirect, a message over the size limits, a deadline, or the transport
// itself, with what was seen of it: the HTTP refusal, or how the stdio
// server's process ended.
func (c *connection) transportError(ctx context.Context, alias string, err error) error {
	var redirect *redirectError
	if errors.As(err, &redirect) {
		return &Error{Kind: KindSecurity, Rule: "LA-NET-07", Source: alias, Msg: redirect.Error()}
	}
	if lerr := c.limitError(alias); lerr != nil {
		return lerr
	}
	if af := c.authFailure.Load(); af != nil {
		return af
	}
	if ctx.Err() != nil {
		return connectCancelled(ctx, alias, err)
	}
	msg := "cannot talk to the server"
	switch {
	case c.proc != nil:
		if how := c.ended(); how != "" {
			msg += ": " + how
		}
	case c.httpFailure.Load() != nil:
		msg += ": " + *c.httpFailure.Load()
	}
	return &Error{Kind: KindTransport, Rule: c.rules.transport(c.transport), Source: alias, Msg: msg, Err: err}
}

// limitError reports what the transports refused on their own and go-sdk
// may have reported as something else: a stdio line or an HTTP response
// over [MaxMessageBytes] (LA-LIM-06, LA-LIM-07, LA-LIM-10), or a redirect
// (LA-NET-07). It returns nil when none happened.
func (c *connection) limitError(alias string) error {
	if r := c.redirect.Load(); r != nil {
		return &Error{Kind: KindSecurity, Rule: "LA-NET-07", Source: alias, Msg: r.Error()}
	}
	switch {
	case c.proc != nil && c.proc.tooLong():
		return &Error{Kind: KindLimit, Rule: "LA-LIM-06", Source: alias, Msg: fmt.Sprintf("the server wrote a stdio message of more than %d bytes (4 MiB); the connection is closed", MaxMessageBytes)}
	case c.capHit.Load():
		return &Error{Kind: KindLimit, Rule: "LA-LIM-07", Source: alias, Msg: fmt.Sprintf("the server sent an HTTP response of more than %d bytes (4 MiB); it was cut off before parsing", MaxMessageBytes)}
	}
	return nil
}

// connectCancelled reports a connection attempt cut short by its deadline
// or its caller.
func connectCancelled(ctx context.Context, alias string, err error) error {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return &Error{Kind: KindTimeout, Rule: "LA-TMO-04", Source: alias, Msg: "connecting timed out", Err: err}
	}
	return &Error{Kind: KindCancelled, Rule: "LA-TMO-05", Source: alias, Msg: "connecting was cancelled", Err: err}
}

// close ends the session and, for stdio, reaps the server process. It
// first lets the cancellation notices of cancelled calls reach the server
// (bounded by [noticeGrace]), so that a server learns that a call it is
// still running was abandoned.
func (c *connection) close() error {
	c.closeOnce.Do(func() {
		c.awaitNotices()
		c.mu.Lock()
		c.closing = true
		stop := c.stopHealth
		c.mu.Unlock()
		if stop != nil {
			stop()
		}
		var errs []error
		if c.session != nil {
			if err := c.session.Close(); err != nil && !errors.Is(err, mcp.ErrConnectionClosed) {
				errs = append(errs, err)
			}
		}
		if c.proc != nil {
			if err := c.proc.Close(); err != nil {
				errs = append(errs, err)
			}
		}
		if c.stopInProcess != nil {
			c.stopInProcess()
		}
		if c.http != nil {
			c.http.CloseIdleConnections()
		}
		if c.ownsAuth {
			c.auth.closed()
		}
		c.closeErr = errors.Join(errs...)
	})
	return c.closeErr
}

// abandon forgets the connection without closing it. It exists only for
// [fault.CloseLeavesChildren].
func (c *connection) abandon() {
	if c.proc != nil {
		c.proc.abandon()
	}
}

// catalogBytes is the size of the connection's tools as offered to the
// model (LA-LIM-04).
func (c *connection) catalogBytes() int {
	n := 0
	for _, t := range c.tools {
		n += t.size
	}
	return n
}

// noticeGrace bounds how long close waits for cancellation notices.
const noticeGrace = time.Second

// cancelledCall notes that a call was cancelled: go-sdk will send its
// notifications/cancelled in the background.
func (c *connection) cancelledCall() {
	c.mu.Lock()
	c.expected++
	c.mu.Unlock()
}

// noticeSent is called by the transports when a notifications/cancelled
// message is written.
func (c *connection) noticeSent() {
	select {
	case c.notices <- struct{}{}:
	default:
	}
}

// awaitNotices waits until every expected cancellation notice was written,
// or [noticeGrace] passes.
func (c *connection) awaitNotices() {
	c.mu.Lock()
	n := c.expected
	c.expected = 0
	c.mu.Unlock()
	if n == 0 {
		return
	}
	t := time.NewTimer(noticeGrace)
	defer t.Stop()
	for ; n > 0; n-- {
		select {
		case <-c.notices:
		case <-t.C:
			return
		}
	}
}

// cancelledMarker identifies a cancellation notice on the wire.
var cancelledMarker = []byte(`"notifications/cancelled"`)

// noticeWriter is a stdio server's stdin that reports cancellation
// notices.
type noticeWriter struct {
	io.WriteCloser
	c *connection
}

func (w *noticeWriter) Write(p []byte) (int, error) {
	n, err := w.WriteCloser.Write(p)
	if err == nil && bytes.Contains(p, cancelledMarker) {
		w.c.noticeSent()
	}
	return n, err
}

// listChanged handles notifications/tools/list_changed.
func (c *connection) listChanged() {
	c.mu.Lock()
	fn := c.onChange
	c.mu.Unlock()
	if fn != nil {
		fn()
	}
}
