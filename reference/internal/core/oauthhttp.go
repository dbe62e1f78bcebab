package core

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/mcpconform/mcpconform/reference/netpolicy"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// newOAuthClient returns the HTTP client of every OAuth request of one
// session: it contacts only HTTPS (or loopback HTTP) URLs on the allowed
// origins (LA-OAU-21, LA-OAU-25), follows no redirect (LA-OAU-26), sends no
// header the server entry configured (there are none with OAuth,
// LA-OAU-27), and bounds each request by the server's timeout
// (LA-OAU-33).
func (a *Host) newOAuthClient(allowed map[string]bool, timeout time.Duration, open bool) *http.Client {
	base := a.baseTransport()
	if a.faults.Has(fault.UnboundedAuthRequests) {
		timeout = time.Hour
	}
	c := &http.Client{
		Transport: &oauthTransport{a: a, base: base, allowed: allowed, timeout: timeout, open: open},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			return &Error{Kind: KindSecurity, Rule: "LA-OAU-26",
				Msg: fmt.Sprintf("%s answered a redirect to %q; OAuth requests follow no redirect", via[len(via)-1].URL.Redacted(), req.URL.Redacted())}
		},
	}
	// LA-OAU-26: OAuth requests follow no redirect.
	if a.faults.Has(fault.FollowOAuthRedirects) || open {
		c.CheckRedirect = nil
	}
	return c
}

// oauthTransport checks every OAuth request's target before it leaves.
type oauthTransport struct {
	a       *Host
	base    *http.Transport
	allowed map[string]bool
	timeout time.Duration
	open    bool // no target rules: [fault.CCIgnoresOrigins] only
}

func (t *oauthTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !t.open {
		if err := t.a.checkOAuthTarget(req.URL.String(), t.allowed); err != nil {
			return nil, err
		}
	}
	ctx, cancel := t.a.opts.Clock.WithTimeout(req.Context(), t.timeout)
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		if ctx.Err() != nil && req.Context().Err() == nil {
			return nil, &Error{Kind: KindTimeout, Rule: "LA-OAU-33", Msg: fmt.Sprintf("%s %s took longer than the server's timeout %v", req.Method, req.URL.Redacted(), t.timeout), Err: context.DeadlineExceeded}
		}
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// cancelOnClose ends a request's timeout when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// checkOAuthTarget refuses an OAuth URL that is not HTTPS (or HTTP to
// loopback), or whose origin is not allowed.
func (a *Host) checkOAuthTarget(raw string, allowed map[string]bool) error {
	u, err := netpolicy.CheckURL(raw)
	// LA-OAU-25: OAuth targets are HTTPS or loopback.
	if err != nil && !a.faults.Has(fault.AllowPlainHTTPTargets) {
		return &Error{Kind: KindSecurity, Rule: "LA-OAU-25", Msg: fmt.Sprintf("target %v", err)}
	}
	if u == nil {
		if u, err = url.Parse(raw); err != nil {
			return &Error{Kind: KindSecurity, Rule: "LA-OAU-25", Msg: fmt.Sprintf("target %q does not parse", raw)}
		}
	}
	// LA-OAU-21: on the allowed origins only.
	if !allowed[originOf(u)] && !a.faults.Has(fault.IgnoreAllowedOrigins) {
		return &Error{Kind: KindSecurity, Rule: "LA-OAU-21", Msg: fmt.Sprintf("target %q is on origin %s, which is neither the MCP server's nor in allowedOrigins", u.Redacted(), originOf(u))}
	}
	return nil
}

// listenOn listens on the host and port of a redirect URL, as an SDK that
// serves its own callback page would. It serves only [fault.ListenOnCallback]:
// the reference never listens (LA-OAU-03).
func listenOn(redirect string) (stop func()) {
	u, err := url.Parse(redirect)
	if err != nil {
		return nil
	}
	ln, err := net.Listen("tcp", u.Host)
	if err != nil {
		return nil
	}
	return func() { ln.Close() }
}
