package core

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// redirectError refuses an HTTP redirect: the reference never follows one
// (LA-NET-07).
type redirectError struct {
	status   int
	location string
}

func (e *redirectError) Error() string {
	return fmt.Sprintf("the server answered %d redirecting to %q; redirects are refused", e.status, e.location)
}

// newHTTPClient returns the HTTP client of one http server entry: it adds
// the entry's headers to every request, caps every response at
// [MaxMessageBytes] before anything parses it, trusts the host's roots (plus
// SSL_CERT_FILE of the host's environment) and refuses every redirect.
func (a *Host) newHTTPClient(cfg ServerConfig, c *connection) *http.Client {
	base := a.baseTransport()
	client := &http.Client{
		Transport: &headerTransport{base: base, headers: cfg.Headers, conn: c},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			status := 0
			if req.Response != nil {
				status = req.Response.StatusCode
			}
			rerr := &redirectError{status: status, location: req.URL.String()}
			c.redirect.Store(rerr)
			return rerr
		},
	}
	// LA-NET-07: redirects are refused, never followed.
	if a.faults.Has(fault.FollowRedirects) {
		client.CheckRedirect = nil
	}
	return client
}

// baseTransport is the HTTP transport under every client of the agent:
// go-sdk's default, trusting the host's CA file when it names one.
func (a *Host) baseTransport() *http.Transport {
	base := http.DefaultTransport.(*http.Transport).Clone()
	if a.rootCAs != nil {
		base.TLSClientConfig = &tls.Config{RootCAs: a.rootCAs, MinVersion: tls.VersionTLS12}
	}
	return base
}

// headerTransport adds configured headers to every request (LA-TRN-06) and
// reports cancellation notices to its connection.
type headerTransport struct {
	base    *http.Transport
	headers map[string]string
	conn    *connection
	sent    atomic.Int64 // requests so far (for fault.HeadersOnce)
}

// maxNoticeBody bounds the request bodies inspected for cancellation
// notices; notices are tiny, calls may be large.
const maxNoticeBody = 4 << 10

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	// Before the configured headers, which may name any header go-sdk
	// does not reserve.
	notice := isNotice(req)
	first := t.sent.Add(1) == 1
	// LA-TRN-06: the configured headers go with every request.
	if len(t.headers) > 0 && (first || !t.conn.faults.Has(fault.HeadersOnce)) {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	if t.conn.auth != nil {
		return t.authenticated(req, notice)
	}
	return t.send(req, notice)
}

// methodHeader names the method of the JSON-RPC message a request posts:
// go-sdk sets it on every message from MCP 2026-07-28 on.
const methodHeader = "Mcp-Method"

// isNotice reports whether req posts a notifications/cancelled message:
// what its Mcp-Method header says, or, without one (an older protocol),
// what its body holds, when it is small enough to be one.
func isNotice(req *http.Request) bool {
	if m := req.Header.Get(methodHeader); m != "" {
		return m == "notifications/cancelled"
	}
	if req.Body == nil || req.GetBody == nil || req.ContentLength < 0 || req.ContentLength > maxNoticeBody {
		return false
	}
	body, err := req.GetBody()
	if err != nil {
		return false
	}
	defer body.Close()
	b, _ := io.ReadAll(io.LimitReader(body, maxNoticeBody))
	return bytes.Contains(b, cancelledMarker)
}

// authenticated sends req with the session's Bearer token, if it has one
// (never DPoP, LA-OAU-28). A 401 is noted (its challenge starts the
// discovery) and refreshes the token, merged with any refresh in progress,
// and this same request is sent once more: the only request the reference
// ever sends again, and only after a refusal that proves the server did
// not act on it (LA-OAU-34, LA-OAU-38). A 403 is returned as it is: a
// wider scope is never asked for (LA-OAU-36). A refusal that stays is the
// connection's authentication failure ([connection.authFailure]).
func (t *headerTransport) authenticated(req *http.Request, notice bool) (*http.Response, error) {
	auth := t.conn.auth
	tok := auth.bearer()
	resp, err := t.send(withBearer(req, tok), notice)
	if err != nil {
		return resp, err
	}
	m := t.conn.faults
	switch {
	case resp.StatusCode == http.StatusForbidden && !m.Has(fault.RefreshOn403): // LA-OAU-36: a 403 is never refreshed or widened
		t.conn.refused(forbidden(auth.server, resp.Header))
		return resp, nil
	case resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden:
		return resp, nil
	}
	if resp.StatusCode == http.StatusUnauthorized {
		auth.noteChallenge(resp.Header)
	}
	fresh, rerr := auth.refresh(req.Context(), tok)
	if rerr == nil && req.GetBody == nil && req.Body != nil && req.Body != http.NoBody {
		rerr = &Error{Kind: KindAuth, Rule: "LA-OAU-38", Source: auth.server, Msg: "the refused request cannot be sent again"}
	}
	if rerr != nil {
		auth.needsLogin.Store(true)
		t.conn.refused(rerr)
		return resp, nil
	}
	var body io.ReadCloser
	if req.GetBody != nil {
		if body, err = req.GetBody(); err != nil {
			auth.needsLogin.Store(true)
			t.conn.refused(&Error{Kind: KindAuth, Rule: "LA-OAU-38", Source: auth.server, Msg: "the refused request cannot be sent again", Err: err})
			return resp, nil
		}
	}
	resp.Body.Close()
	again := withBearer(req, fresh)
	again.Body = body
	resp, err = t.send(again, notice)
	switch {
	case err == nil && resp.StatusCode == http.StatusUnauthorized:
		auth.noteChallenge(resp.Header)
		auth.needsLogin.Store(true)
		t.conn.refused(&Error{Kind: KindAuth, Rule: "LA-OAU-15", Source: auth.server, Msg: "the server answered 401 to the token the authorization server had just issued"})
	case err == nil && resp.StatusCode == http.StatusForbidden:
		t.conn.refused(forbidden(auth.server, resp.Header))
	}
	// LA-OAU-38: the refused request is sent once more, and only once.
	if err == nil && m.Has(fault.RetryTwice) && resp.StatusCode == http.StatusOK && req.GetBody != nil {
		if b2, e2 := req.GetBody(); e2 == nil {
			twice := withBearer(req, fresh)
			twice.Body = b2
			if r2, e3 := t.send(twice, notice); e3 == nil {
				r2.Body.Close()
			}
		}
	}
	return resp, err
}

// forbidden is the authentication failure of a 403: the token lacks a
// scope, and a wider one is never asked for (LA-OAU-36).
func forbidden(server string, h http.Header) *Error {
	scope := ""
	if chs, err := oauthex.ParseWWWAuthenticate(h.Values("WWW-Authenticate")); err == nil && len(chs) > 0 {
		if v := chs[0].Params["scope"]; len(v) <= maxChallengeValue {
			scope = v
		}
	}
	return &Error{Kind: KindAuth, Rule: "LA-OAU-36", Source: server,
		Msg: fmt.Sprintf("the server answered 403 (insufficient scope %q); a wider scope is never asked for", scope)}
}

// withBearer returns a copy of req carrying token, if any.
func withBearer(req *http.Request, token string) *http.Request {
	r := req.Clone(req.Context())
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	return r
}

// send sends one request, noting a cancellation notice (notice: see
// [isNotice]) once sent, and capping the response.
func (t *headerTransport) send(req *http.Request, notice bool) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		t.conn.httpFailed(fmt.Sprintf("the HTTP request failed: %v", err))
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		t.conn.httpFailed(statusFailure(resp))
	}
	if notice {
		t.conn.noticeSent()
	}
	m := t.conn.faults
	// LA-TRN-03: Streamable HTTP answers may be application/json.
	if m.Has(fault.RefuseJSON) && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		resp.Body.Close()
		return nil, errors.New("application/json answers are refused (mutated)")
	}
	limit := int64(MaxMessageBytes)
	switch {
	case m.Has(fault.NoHTTPCap), t.conn.sse && req.Method == http.MethodGet: // LA-LIM-07: every response is capped before parsing
		return resp, nil
	case m.Has(fault.LateHTTPCap): // LA-LIM-10: at 4 MiB
		limit = 64 << 20
	}
	if resp.ContentLength > limit {
		resp.Body.Close()
		t.conn.capHit.Store(true)
		return nil, errResponseTooLarge
	}
	resp.Body = &cappedBody{rc: resp.Body, conn: t.conn, limit: limit}
	return resp, nil
}

// maxFailureBody is how much of a refusal's body an error quotes.
const maxFailureBody = 200

// statusFailure describes a response outside 2xx with the start of its
// body, which it reads and puts back for go-sdk to read.
func statusFailure(resp *http.Response) string {
	head := make([]byte, maxFailureBody)
	n, _ := io.ReadFull(resp.Body, head)
	head = head[:n]
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	what := fmt.Sprintf("the server answered HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	if body := strings.TrimSpace(string(head)); body != "" {
		what += fmt.Sprintf(" with %q", strings.ToValidUTF8(body, "?"))
		if n == maxFailureBody {
			what += " (the start of its body)"
		}
	}
	return what
}

// errResponseTooLarge cuts off an HTTP response over [MaxMessageBytes].
var errResponseTooLarge = fmt.Errorf("the HTTP response is longer than %d bytes (4 MiB)", MaxMessageBytes)

// cappedBody is a response body that fails once more than
// [MaxMessageBytes] have been read, whatever Content-Length claimed: the
// rest is never read and the connection is dropped (LA-LIM-07, LA-LIM-10).
type cappedBody struct {
	rc    io.ReadCloser
	read  int64
	limit int64 // MaxMessageBytes, unless mutated
	conn  *connection
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.read > b.limit {
		return 0, errResponseTooLarge
	}
	if room := b.limit + 1 - b.read; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := b.rc.Read(p)
	b.read += int64(n)
	b.conn.progress.scan(p[:n])
	if b.read > b.limit {
		b.conn.capHit.Store(true)
		b.rc.Close()
		return n - int(b.read-b.limit), errResponseTooLarge
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// CloseIdleConnections closes the transport's idle connections.
func (t *headerTransport) CloseIdleConnections() { t.base.CloseIdleConnections() }

// rootCAs returns the host's roots plus the certificates of SSL_CERT_FILE
// in its environment, or nil when the variable is not set. An unreadable or
// empty file is a configuration error: the host asked for it.
func rootCAs(environ []string) (*x509.CertPool, error) {
	path := getenv(environ, "SSL_CERT_FILE")
	if path == "" {
		return nil, nil
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{Kind: KindConfig, Source: "SSL_CERT_FILE", Msg: "cannot read the certificate file", Err: err}
	}
	if !pool.AppendCertsFromPEM(data) {
		return nil, &Error{Kind: KindConfig, Source: "SSL_CERT_FILE", Msg: fmt.Sprintf("%s holds no PEM certificate", path)}
	}
	return pool, nil
}
