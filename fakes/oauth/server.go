package oauth

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ory/fosite"
	"github.com/ory/fosite/handler/oauth2"

	"github.com/mcpconform/mcpconform/fakes/internal/waits"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/fakes/tlsca"
)

// The endpoint names: the Method of each request's record, and the names
// the fields of [Faults] take.
const (
	EndpointMetadata   = "metadata"    // the metadata, RFC 8414 /.well-known/oauth-authorization-server unless the Shape moves it
	EndpointAuthorize  = "authorize"   // the authorization endpoint, /oauth/authorize
	EndpointToken      = "token"       // the token endpoint, /oauth/token
	EndpointRegister   = "register"    // RFC 7591 registration, /oauth/register
	EndpointRevoke     = "revoke"      // RFC 7009 revocation, /oauth/revoke (only recorded)
	EndpointEndSession = "end-session" // end-session (logout), /oauth/end-session (only recorded)
	EndpointIntrospect = "introspect"  // RFC 7662 introspection, /oauth/introspect
	EndpointOther      = "other"       // any other path (404), /redirected-<name> included
)

// MetadataPath is where the server serves its RFC 8414 metadata, on both
// origins, unless its [Shape] moves it.
const MetadataPath = oauthWellKnown

// paths are the endpoints' paths, the metadata's where the default shape
// serves it ([metadataPath] says where it is); every other one is under
// /oauth/, so that a co-host routes few patterns ([Server.RegisterOn]).
var paths = map[string]string{
	EndpointMetadata:   MetadataPath,
	EndpointAuthorize:  "/oauth/authorize",
	EndpointToken:      "/oauth/token",
	EndpointRegister:   "/oauth/register",
	EndpointRevoke:     "/oauth/revoke",
	EndpointEndSession: "/oauth/end-session",
	EndpointIntrospect: "/oauth/introspect",
}

// synonyms are the names of the metadata fields (authorization_endpoint,
// registration_endpoint, ...) that [Faults] accept for the endpoint names.
var synonyms = map[string]string{
	"authorization": EndpointAuthorize,
	"registration":  EndpointRegister,
	"revocation":    EndpointRevoke,
	"introspection": EndpointIntrospect,
	"end_session":   EndpointEndSession,
}

// listed are the endpoints the metadata lists by URL.
var listed = []string{EndpointAuthorize, EndpointToken, EndpointRegister, EndpointRevoke, EndpointEndSession, EndpointIntrospect}

// unreachableOrigin is the origin of the endpoint URLs of Faults.PlainHTTP:
// plain HTTP, not loopback, and never resolvable (.invalid, RFC 6761).
const unreachableOrigin = "http://la-oauth.invalid"

// maxBody bounds the request bodies the server reads.
const maxBody = 1 << 20

// closeWait bounds how long Close waits for the requests in flight once
// their connections are closed.
const closeWait = 10 * time.Second

// Options configure a [Server].
type Options struct {
	// Log receives a record of every request ([record.KindHTTP]): Server
	// Name, Instance Name+"@"+origin (the base URL of the origin that got
	// it), HTTP the request (method, path, query, Host, headers, the
	// Authorization header included), Method the endpoint name
	// (EndpointMetadata, ...), Params the form (GET: the query; POST: the
	// form body) or the JSON body as a JSON object, secrets included (it is
	// the fake's own record), and Bytes the body size. A form parameter
	// given once is a string, one given several times an array of strings;
	// a body that is neither form nor JSON object is {"raw": "<body>"}.
	// Nil: a log of the server's own, which nobody reads.
	Log *record.Log
	// Name labels the records; "" means "as".
	Name string
	// CA, when set, makes both origins HTTPS with a certificate from it for
	// 127.0.0.1, localhost and ::1; nil means plain HTTP on 127.0.0.1.
	CA *tlsca.CA
	// Faults break the server; the zero value is a correct server.
	Faults Faults
	// Shape chooses among correct servers: where the metadata is, what
	// the server supports. The zero value is the default shape.
	Shape Shape
}

// Faults break one thing each; the zero value is a correct authorization
// server. Endpoint names are the Endpoint constants; the metadata field
// stems "authorization", "registration", "revocation", "introspection"
// and "end_session" are accepted too. [New] refuses unknown names and
// values.
type Faults struct {
	// IssuerMismatch makes the metadata's "issuer" differ from the URL it
	// was fetched from: Issuer()+"/other". Everything else is correct (the
	// iss of the authorization response is still Issuer()).
	IssuerMismatch bool
	// Iss changes the RFC 9207 iss of the authorization response (success
	// and error alike): "" sends Issuer(); "missing" sends none; "wrong"
	// sends OtherOrigin(), a real URL that is not the issuer.
	Iss string
	// NoIssSupport omits authorization_response_iss_parameter_supported
	// from the metadata (the response still carries iss, as Iss says).
	NoIssSupport bool
	// OtherOrigin lists endpoints ("authorize", "token", "register",
	// "revoke", "end-session", "introspect") whose URLs in the metadata are
	// on the second origin, OtherOrigin(), where they are served as well.
	OtherOrigin []string
	// PlainHTTP lists endpoints whose URLs in the metadata are plain HTTP
	// and not loopback, on http://la-oauth.invalid (never reachable: .invalid
	// does not resolve). It wins over OtherOrigin for the same endpoint.
	PlainHTTP []string
	// Redirect lists endpoints ("metadata" and the ones above) that answer
	// every request with 302 Found, Location OtherOrigin()+"/redirected-"+
	// <endpoint name>, the name as the Endpoint constants spell it
	// (/redirected-metadata, /redirected-authorize, /redirected-register,
	// /redirected-token, ...): that path answers 404 and is recorded as
	// EndpointOther, so a client that follows shows in the log.
	Redirect []string
	// DuplicateParam, "code", "state" or "iss", makes the callback URL of
	// the authorization response carry that parameter twice, the second
	// value different (the code or state with "dup-" in front; for iss,
	// OtherOrigin(), or Issuer() when the first is OtherOrigin()). Nothing
	// is added when the response has no such parameter (no state sent, iss
	// missing, an error response's code).
	DuplicateParam string
	// Deny makes the authorization endpoint answer with the error
	// access_denied (a redirect to the client's redirect URI carrying
	// error, error_description, state and iss), as when the user refuses.
	Deny bool
	// TokenError, when set, makes every token request answer 400 with the
	// JSON body {"error": TokenError, "error_description": ErrorDescription}
	// (error_description left out when empty): for canary-redaction tests.
	TokenError string
	// ErrorDescription is the error_description of TokenError and
	// RegistrationError.
	ErrorDescription string
	// RegistrationError, when set, does the same to every registration
	// request.
	RegistrationError string
	// Delay delays the answer of each request to an endpoint (any endpoint
	// name, EndpointOther included) by the duration given; a request whose
	// client goes away, or a server that closes, ends the wait by dropping
	// the connection unanswered. The request is recorded before the wait.
	Delay map[string]time.Duration
	// Latch makes each request to an endpoint (a name as for Delay) wait,
	// after any Delay, at the latch of the given name in the scenario's
	// log until the runner releases it ([record.Log.Release]); a client
	// that goes away, or a server that closes, ends the wait by dropping
	// the connection unanswered.
	Latch map[string]string
	// RefreshFails makes every refresh_token grant answer 400 invalid_grant,
	// without using the refresh token up.
	RefreshFails bool
	// TokenType, when set, is the token_type of the token responses instead
	// of "Bearer" (e.g. "DPoP"); the tokens are the same.
	TokenType string
	// AccessTokenLifetime is the lifetime of the access tokens (expires_in);
	// 0 means an hour.
	AccessTokenLifetime time.Duration
}

// faults are the Faults normalized: sets of endpoint names.
type faults struct {
	Faults
	otherOrigin, plainHTTP, redirect map[string]bool
	delay                            map[string]time.Duration
	latch                            map[string]string
}

// canonical returns the endpoint name of name, and whether it is one of
// allowed.
func canonical(name string, allowed []string) (string, bool) {
	if c, ok := synonyms[name]; ok {
		name = c
	}
	return name, slices.Contains(allowed, name)
}

// normalize checks f and turns its lists into sets.
func normalize(f Faults) (*faults, error) {
	n := &faults{Faults: f, otherOrigin: map[string]bool{}, plainHTTP: map[string]bool{}, redirect: map[string]bool{}, delay: map[string]time.Duration{}, latch: map[string]string{}}
	set := func(field string, names []string, allowed []string, into map[string]bool) error {
		for _, name := range names {
			c, ok := canonical(name, allowed)
			if !ok {
				return fmt.Errorf("Faults.%s: %q is not one of %v", field, name, allowed)
			}
			into[c] = true
		}
		return nil
	}
	if err := set("OtherOrigin", f.OtherOrigin, listed, n.otherOrigin); err != nil {
		return nil, err
	}
	if err := set("PlainHTTP", f.PlainHTTP, listed, n.plainHTTP); err != nil {
		return nil, err
	}
	if err := set("Redirect", f.Redirect, append([]string{EndpointMetadata}, listed...), n.redirect); err != nil {
		return nil, err
	}
	all := append([]string{EndpointMetadata, EndpointOther}, listed...)
	for name, d := range f.Delay {
		c, ok := canonical(name, all)
		if !ok {
			return nil, fmt.Errorf("Faults.Delay: %q is not one of %v", name, all)
		}
		n.delay[c] = d
	}
	for name, l := range f.Latch {
		c, ok := canonical(name, all)
		if !ok || l == "" {
			return nil, fmt.Errorf("Faults.Latch: %q is not one of %v, or names no latch", name, all)
		}
		n.latch[c] = l
	}
	if !slices.Contains([]string{"", "missing", "wrong"}, f.Iss) {
		return nil, fmt.Errorf(`Faults.Iss: %q is not "", "missing" or "wrong"`, f.Iss)
	}
	if !slices.Contains([]string{"", "code", "state", "iss"}, f.DuplicateParam) {
		return nil, fmt.Errorf(`Faults.DuplicateParam: %q is not "", "code", "state" or "iss"`, f.DuplicateParam)
	}
	if f.AccessTokenLifetime < 0 {
		return nil, fmt.Errorf("Faults.AccessTokenLifetime: %v is negative", f.AccessTokenLifetime)
	}
	return n, nil
}

// Server is the fake authorization server. It is safe for concurrent use.
type Server struct {
	name   string
	log    *record.Log
	ca     *tlsca.CA
	faults *faults
	shape  Shape

	origin   string // the main origin's base URL
	issuer   string // the issuer: origin+Shape.IssuerPath
	other    string // the second origin's base URL
	metadata string // the path of the metadata (metadataPath)

	servers []*http.Server
	serving sync.WaitGroup
	closing chan struct{} // closed by Close
	client  *http.Client  // the user's browser (Authorize)

	mu       sync.Mutex
	closed   bool
	inflight sync.WaitGroup // requests being served; Add only under mu

	// fmu serializes every use of fosite and its store: fosite's memory
	// store is not safe for concurrent refreshes (RevokeRefreshToken
	// writes a map under the wrong lock).
	fmu      sync.Mutex
	provider fosite.OAuth2Provider
	config   *fosite.Config
	store    *store
	strategy oauth2.CoreStrategy
}

// New starts an authorization server on two loopback origins: the main one
// (the issuer, [Server.Issuer]) and a second one serving the same
// endpoints ([Server.OtherOrigin]), each on 127.0.0.1 on a free port.
func New(opts Options) (*Server, error) {
	return start(opts, "")
}

// NewCoHosted makes an authorization server whose issuer is the origin of
// another server, issuer (for the HTTP MCP fake, its BaseURL(), e.g.
// http://127.0.0.1:PORT: no path, no trailing slash), which serves the
// endpoints through [Server.Handler] (see [Server.RegisterOn]): the
// metadata at issuer+"/.well-known/oauth-authorization-server", the other
// endpoints under issuer+"/oauth/". fosite needs no listener, but the
// issuer must be known up front, as the metadata and the RFC 9207 iss
// carry it. The second origin is still listened on, for the faults that
// use it. Records of requests through the co-host have Instance
// Name+"@"+issuer. With an https issuer, opts.CA must be the CA of the
// co-host's certificate: Authorize trusts only it.
func NewCoHosted(opts Options, issuer string) (*Server, error) {
	u, err := url.Parse(issuer)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return nil, fmt.Errorf("oauth: the issuer %q is not an http(s) origin", issuer)
	}
	return start(opts, strings.TrimSuffix(issuer, "/"))
}

// start starts a server; issuer "" means a main origin of its own.
func start(opts Options, issuer string) (*Server, error) {
	f, err := normalize(opts.Faults)
	if err != nil {
		return nil, fmt.Errorf("oauth: %w", err)
	}
	if err := checkShape(opts.Shape); err != nil {
		return nil, fmt.Errorf("oauth: %w", err)
	}
	if issuer != "" && opts.Shape.IssuerPath != "" {
		return nil, fmt.Errorf("oauth: a co-hosted server's issuer is its co-host's origin; Shape.IssuerPath %q cannot apply", opts.Shape.IssuerPath)
	}
	s := &Server{name: opts.Name, log: opts.Log, ca: opts.CA, faults: f, shape: opts.Shape, metadata: metadataPath(opts.Shape),
		closing: make(chan struct{})}
	if s.name == "" {
		s.name = "as"
	}
	if s.log == nil {
		s.log = record.NewLog()
	}
	var tlsConf *tls.Config
	scheme := "http"
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if opts.CA != nil {
		cert, err := opts.CA.Issue("127.0.0.1", "localhost", "::1")
		if err != nil {
			return nil, fmt.Errorf("oauth: %w", err)
		}
		tlsConf = &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"http/1.1"}}
		scheme = "https"
		transport.TLSClientConfig = &tls.Config{RootCAs: opts.CA.Pool()}
	}
	transport.Proxy = nil
	s.client = &http.Client{
		Transport:     transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       time.Minute,
	}
	var lns []net.Listener
	for range 2 {
		if issuer != "" && len(lns) == 0 {
			lns = append(lns, nil) // the co-host serves the main origin
			continue
		}
		ln, err := net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			for _, l := range lns {
				if l != nil {
					l.Close()
				}
			}
			return nil, fmt.Errorf("oauth: %w", err)
		}
		lns = append(lns, ln)
	}
	origin := func(ln net.Listener) string { return scheme + "://" + ln.Addr().String() }
	s.origin, s.other = issuer, origin(lns[1])
	if s.origin == "" {
		s.origin = origin(lns[0])
	}
	s.issuer = s.origin + s.shape.IssuerPath
	s.compose()
	for _, ln := range lns {
		if ln == nil {
			continue
		}
		srv := &http.Server{
			Handler: s.handlerFor(origin(ln)),
			// Clients that do not trust the CA and clients that go away
			// are part of the scenarios, not errors.
			ErrorLog:          log.New(io.Discard, "", 0),
			ReadHeaderTimeout: time.Minute,
		}
		if tlsConf != nil {
			ln = tls.NewListener(ln, tlsConf)
		}
		s.servers = append(s.servers, srv)
		s.serving.Add(1)
		go func() {
			defer s.serving.Done()
			_ = srv.Serve(ln)
		}()
	}
	return s, nil
}

// Issuer is the issuer: the main origin's base URL, such as
// https://127.0.0.1:PORT (no trailing slash), followed by Shape.IssuerPath.
// Its metadata is at [Server.MetadataURL].
func (s *Server) Issuer() string { return s.issuer }

// Origin is the main origin's base URL, where the endpoints are: the
// issuer without Shape.IssuerPath.
func (s *Server) Origin() string { return s.origin }

// MetadataURL is the URL the server serves its metadata at, on the main
// origin (see [Shape]).
func (s *Server) MetadataURL() string { return s.origin + s.metadata }

// OtherOrigin is the second origin's base URL: the same endpoints, on
// another port; faults point there.
func (s *Server) OtherOrigin() string { return s.other }

// Close stops the server: it closes the listeners and every connection,
// ends the delays, and waits for the requests in flight (for a while).
// Requests that reach [Server.Handler] through a co-host afterwards answer
// 503.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.closing)
	s.mu.Unlock()
	var err error
	for _, srv := range s.servers {
		if e := srv.Close(); e != nil && !errors.Is(e, http.ErrServerClosed) {
			err = errors.Join(err, e)
		}
	}
	s.serving.Wait()
	if !waits.Group(&s.inflight, closeWait) {
		err = errors.Join(err, fmt.Errorf("oauth: requests were still running %v after Close", closeWait))
	}
	s.client.CloseIdleConnections()
	return err
}

// Handler serves every endpoint of the server on one handler, the metadata
// at its well-known path and the rest under /oauth/, for a co-host
// ([NewCoHosted], [Server.RegisterOn]). Its requests are recorded as the
// listeners' are, with Instance Name+"@"+Issuer(); it records them itself
// (it implements mcpfake.SelfRecording), so a co-host need not.
func (s *Server) Handler() http.Handler { return s.handlerFor(s.origin) }

// RegisterOn routes the server's paths on mux to [Server.Handler]: both
// root well-known metadata paths (RFC 8414 and OpenID Connect, so that a
// client's tries of either are recorded) and /oauth/. mux is an
// *http.ServeMux or the HTTP MCP fake (*mcpfake.HTTPServer), whose origin
// must be the issuer ([NewCoHosted]).
func (s *Server) RegisterOn(mux interface {
	Handle(pattern string, handler http.Handler)
}) {
	h := s.Handler()
	mux.Handle(oauthWellKnown, h)
	mux.Handle(openIDWellKnown, h)
	mux.Handle("/oauth/", h)
}

// handler serves the server on one origin.
type handler struct {
	s      *Server
	origin string
}

// handlerFor returns the handler of the origin origin.
func (s *Server) handlerFor(origin string) handler { return handler{s: s, origin: origin} }

// RecordsRequests says that the handler records every request itself
// (mcpfake.SelfRecording).
func (handler) RecordsRequests() bool { return true }

// ServeHTTP records the request and answers it.
func (h handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s := h.s
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "the authorization server is closed", http.StatusServiceUnavailable)
		return
	}
	s.inflight.Add(1)
	s.mu.Unlock()
	defer s.inflight.Done()

	endpoint := s.endpointOf(r.URL.Path)
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	s.record(r, h.origin, endpoint, body)
	if err != nil {
		http.Error(w, "cannot read the body", http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))

	if d := s.faults.delay[endpoint]; d > 0 && !s.wait(r, d) {
		panic(http.ErrAbortHandler) // drop the connection unanswered
	}
	if l := s.faults.latch[endpoint]; l != "" && !s.waitLatch(r, h.origin, l) {
		panic(http.ErrAbortHandler)
	}
	if s.faults.redirect[endpoint] {
		w.Header().Set("Location", s.other+"/redirected-"+endpoint)
		w.WriteHeader(http.StatusFound)
		return
	}
	switch endpoint {
	case EndpointMetadata:
		s.serveMetadata(w, r)
	case EndpointAuthorize:
		s.serveAuthorize(w, r)
	case EndpointToken:
		s.serveToken(w, r)
	case EndpointRegister:
		s.serveRegister(w, r)
	case EndpointRevoke, EndpointEndSession:
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
	case EndpointIntrospect:
		s.serveIntrospect(w, r)
	default:
		http.Error(w, "mcpconform: the fake authorization server has nothing at "+r.URL.Path, http.StatusNotFound)
	}
}

// endpointOf names the endpoint of path.
func (s *Server) endpointOf(path string) string {
	if path == s.metadata {
		return EndpointMetadata
	}
	for name, p := range paths {
		if path == p && name != EndpointMetadata {
			return name
		}
	}
	return EndpointOther
}

// wait waits d before an answer; it returns false when the request's
// client went away or the server closed first.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.closing:
	}
	return false
}

// waitLatch waits at a latch; it reports false when the client went away
// or the server closed first.
func (s *Server) waitLatch(r *http.Request, origin, name string) bool {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		select {
		case <-s.closing:
			cancel()
		case <-ctx.Done():
		}
	}()
	return s.log.WaitLatch(ctx, record.Record{Server: s.name, Instance: s.name + "@" + origin, Method: name}) == nil
}

// record appends the record of a request.
func (s *Server) record(r *http.Request, origin, endpoint string, body []byte) {
	s.log.Append(record.Record{
		Server:   s.name,
		Instance: s.name + "@" + origin,
		Kind:     record.KindHTTP,
		Method:   endpoint,
		Params:   params(r, body),
		Bytes:    len(body),
		HTTP:     &record.HTTPRequest{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Host: r.Host, Header: r.Header.Clone()},
	})
}

// params renders a request's parameters as a JSON object: the query of a
// bodiless request, a form body, or a JSON object body.
func params(r *http.Request, body []byte) json.RawMessage {
	if len(bytes.TrimSpace(body)) == 0 {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			return formJSON(r.URL.Query())
		}
		return nil
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch mt {
	case "application/x-www-form-urlencoded":
		if v, err := url.ParseQuery(string(body)); err == nil {
			return formJSON(v)
		}
	case "application/json":
		var obj map[string]json.RawMessage
		if json.Unmarshal(body, &obj) == nil && obj != nil {
			var b bytes.Buffer
			if json.Compact(&b, body) == nil {
				return b.Bytes()
			}
		}
	}
	raw, _ := json.Marshal(map[string]string{"raw": string(body)})
	return raw
}

// formJSON renders form values as a JSON object: a value given once as a
// string, several as an array.
func formJSON(v url.Values) json.RawMessage {
	if len(v) == 0 {
		return nil
	}
	m := make(map[string]any, len(v))
	for k, vs := range v {
		if len(vs) == 1 {
			m[k] = vs[0]
		} else {
			m[k] = vs
		}
	}
	b, _ := json.Marshal(m)
	return b
}

// endpointURL is the URL of an endpoint as the metadata lists it.
func (s *Server) endpointURL(endpoint string) string {
	switch {
	case s.faults.plainHTTP[endpoint]:
		return unreachableOrigin + paths[endpoint]
	case s.faults.otherOrigin[endpoint]:
		return s.other + paths[endpoint]
	}
	return s.origin + paths[endpoint]
}

// writeJSON answers with v as JSON, not to be cached.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeError answers 400 with an OAuth error body.
func writeError(w http.ResponseWriter, code, description string) {
	body := map[string]string{"error": code}
	if description != "" {
		body["error_description"] = description
	}
	writeJSON(w, http.StatusBadRequest, body)
}
