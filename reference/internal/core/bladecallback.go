package core

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// Blade's loopback callback (interpretation B-06): for the length of one
// login, the session listens on its redirect URI's loopback address and
// port (7777) and nowhere else; the host's browser step
// ([Options.OpenBrowser]) shows the user the authorization URL, and the
// authorization server's redirect brings the callback to the listener.
// The listener keeps the login's state: a callback with another state, a
// second callback with the same state (BL-OAU-07) and one that comes
// after the state's 5-minute TTL on the session's clock (BL-OAU-06) are
// refused with an error page. The first good callback goes to the flow,
// which checks it as lite-agent's does (checkCallback) and exchanges its
// code once. An expired one ends the login: nothing can complete it any
// more. The listener closes when the browser step has returned and a
// callback was taken, or the login ended; none is left afterwards.

// maxCallbackHeader bounds what the listener reads of a request.
const maxCallbackHeader = 16 << 10

// listenerDrain bounds how long a closing listener lets the requests in
// progress finish.
const listenerDrain = 2 * time.Second

// loopbackLogin returns the authorize() of a Blade server's binding: one
// login through the loopback listener of redirect.
func (a *Host) loopbackLogin(server, redirect string) func(ctx context.Context, authURL string) (string, error) {
	return func(ctx context.Context, authURL string) (string, error) {
		return a.runLoopbackLogin(ctx, server, redirect, authURL)
	}
}

// callbackListener is the listener of one login: its state, and where it
// sends what it takes.
type callbackListener struct {
	a        *Host
	server   string
	redirect *url.URL
	state    string
	expired  context.Context // done when the state's TTL ran out

	mu   sync.Mutex
	used bool

	taken   chan string // the first good callback, as a full URL
	refused chan error  // a callback that ends the login (an expired state)
}

// runLoopbackLogin listens, opens the browser and waits for the callback.
func (a *Host) runLoopbackLogin(ctx context.Context, server, redirect, authURL string) (string, error) {
	fail := func(rule, format string, args ...any) error {
		return &Error{Kind: KindSecurity, Rule: rule, Source: server, Msg: fmt.Sprintf(format, args...)}
	}
	ru, err := url.Parse(redirect)
	if err != nil {
		return "", fail("BL-OAU-03", "the redirect URI does not parse")
	}
	au, err := url.Parse(authURL)
	if err != nil {
		return "", fail("BL-OAU-03", "the authorization URL does not parse")
	}
	addr, err := listenAddress(redirect)
	if err != nil {
		return "", fail("BL-OAU-03", "the redirect URI has no address to listen on")
	}
	if host, _, _ := net.SplitHostPort(addr); net.ParseIP(host) == nil || !net.ParseIP(host).IsLoopback() {
		// Never reached with a checked redirect (BL-OAU-05).
		return "", fail("BL-OAU-05", "the callback listener listens on loopback addresses only, not %s", host)
	}
	ttl := bladeStateTTL
	// BL-OAU-06: the state lives 5 minutes.
	switch {
	case a.faults.Has(fault.BladeStateTTL10m):
		ttl = 10 * time.Minute
	case a.faults.Has(fault.BladeStateTTL1m):
		ttl = time.Minute
	}
	expired, stopTTL := a.opts.Clock.WithTimeout(context.WithoutCancel(ctx), ttl)
	defer stopTTL()
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return "", &Error{Kind: KindTransport, Rule: "BL-OAU-03", Source: server,
			Msg: fmt.Sprintf("the OAuth callback listener cannot listen on %s (is another program using port %s?)", addr, ru.Port()), Err: err}
	}
	l := &callbackListener{a: a, server: server, redirect: ru, state: au.Query().Get("state"), expired: expired,
		taken: make(chan string, 1), refused: make(chan error, 1)}
	srv := &http.Server{Handler: l, ReadHeaderTimeout: 5 * time.Second, MaxHeaderBytes: maxCallbackHeader,
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) }}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Serve(ln)
	}()
	stop := func() {
		// Requests in progress are answered (a callback's page, a refusal),
		// for a bounded time; then every connection is cut.
		sctx, cancel := context.WithTimeout(context.Background(), listenerDrain)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			_ = srv.Close()
		}
		<-served
	}
	// BL-OAU-03: no listener is left after the flow (B-06).
	if a.faults.Has(fault.BladeListenerStays) {
		a.keepOpen(closerFunc(func() error { stop(); return nil }))
	} else {
		defer stop()
	}

	bctx, cancelBrowser := context.WithCancel(ctx)
	browsed := make(chan error, 1)
	go func() { browsed <- a.openBrowser(bctx, server, authURL) }()
	browserDone := false
	defer func() {
		cancelBrowser()
		if browserDone {
			return
		}
		// The browser step answers its cancellation promptly; one that
		// does not is not waited for longer than the protocol's bound.
		t := time.NewTimer(15 * time.Second)
		defer t.Stop()
		select {
		case <-browsed:
		case <-t.C:
		}
	}()
	var callback string
	for callback == "" {
		var browser <-chan error
		if !browserDone {
			browser = browsed
		}
		select {
		case callback = <-l.taken:
		case err := <-l.refused:
			return "", err
		case err := <-browser:
			browserDone = true
			if err != nil {
				return "", &Error{Kind: KindAuth, Rule: "BL-OAU-01", Source: server, Msg: "the browser step failed: the login was given up", Err: err}
			}
			// It returned; the callback may still come.
		case <-ctx.Done():
			return "", context.Cause(ctx)
		}
	}
	// The browser step may still deliver (a reload, a second tab): the
	// listener answers it, refusing the used state, until the step
	// returned.
	if !browserDone {
		select {
		case <-browsed:
			browserDone = true
		case <-ctx.Done():
		}
	}
	return callback, nil
}

// closerFunc is a function as an io.Closer.
type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// openBrowser runs the host's browser step, or fails when the session
// has none.
func (a *Host) openBrowser(ctx context.Context, server, authURL string) error {
	if a.opts.OpenBrowser == nil {
		return errors.New("the session has no browser step (OpenBrowser)")
	}
	return a.opts.OpenBrowser(ctx, server, authURL)
}

// ServeHTTP answers one request to the listener: the callback at the
// redirect URI's path, with this login's unused state within its TTL.
func (l *callbackListener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.EscapedPath() != l.redirect.EscapedPath() {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	m := l.a.faults
	refuse := func(status int, page string) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		_, _ = fmt.Fprintln(w, page)
	}
	got := r.URL.Query().Get("state")
	known := l.state != "" && subtle.ConstantTimeCompare([]byte(got), []byte(l.state)) == 1
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	// BL-OAU-07: an unknown state is refused.
	case !known && !m.Has(fault.BladeAcceptUnknownState):
		refuse(http.StatusBadRequest, "Login failed: this callback's state belongs to no login in progress.")
		return
	// BL-OAU-07: a state is consumed once.
	case l.used && !m.Has(fault.BladeReusableState):
		refuse(http.StatusBadRequest, "Login failed: this login's state was already used.")
		return
	// BL-OAU-06: a state is good for 5 minutes.
	case l.expired.Err() != nil:
		refuse(http.StatusBadRequest, "Login failed: this login's state expired.")
		select {
		case l.refused <- &Error{Kind: KindSecurity, Rule: "BL-OAU-06", Source: l.server,
			Msg: "the callback came after its state's 5-minute TTL had run out; nothing was exchanged"}:
		default:
		}
		return
	}
	l.used = true
	cb := *l.redirect
	cb.RawQuery, cb.Fragment, cb.RawFragment = r.URL.RawQuery, "", ""
	// The page goes out before the login may go on: once it has the
	// callback, the login closes the listener, which must not cut the
	// browser's answer short.
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = fmt.Fprintln(w, "Login complete. You may close this window.")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	select {
	case l.taken <- cb.String():
	default:
	}
}
