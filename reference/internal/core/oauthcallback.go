package core

import (
	"crypto/subtle"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// checkCallback validates the full callback URL authorize() returned: it
// must be the provider's redirect URL (scheme, host, port and path) with no
// fragment (LA-OAU-17); code, state, iss and error at most once each
// (LA-OAU-18); no error (LA-OAU-20); the state of this login (LA-OAU-16,
// LA-OAU-17); and the issuer when the callback names one, or when the
// authorization server says it always does (LA-OAU-19, RFC 9207). It
// returns the code.
func (a *Host) checkCallback(raw, redirect, state, issuer string, issRequired bool) (string, error) {
	m := a.faults
	fail := func(rule, format string, args ...any) (string, error) {
		return "", &Error{Kind: KindSecurity, Rule: rule, Msg: fmt.Sprintf(format, args...)}
	}
	cb, err := url.Parse(raw)
	if err != nil {
		return fail("LA-OAU-17", "the callback URL does not parse")
	}
	want, err := url.Parse(redirect)
	if err != nil {
		return fail("LA-OAU-17", "the provider's redirect URL does not parse")
	}
	// LA-OAU-17: the callback is the provider's redirect URL exactly.
	if !m.Has(fault.LooseRedirectCheck) {
		if !strings.EqualFold(cb.Scheme, want.Scheme) || !strings.EqualFold(cb.Hostname(), want.Hostname()) ||
			cb.Port() != want.Port() || cb.EscapedPath() != want.EscapedPath() || cb.User != nil || cb.Opaque != "" {
			return fail("LA-OAU-17", "the callback URL is not the provider's redirect URL %s (scheme, host, port and path must be equal)", want.Redacted())
		}
		if cb.Fragment != "" || strings.Contains(raw, "#") {
			return fail("LA-OAU-17", "the callback URL has a fragment")
		}
	}
	q, err := url.ParseQuery(cb.RawQuery)
	if err != nil {
		return fail("LA-OAU-17", "the callback URL's query does not parse")
	}
	for _, k := range []string{"code", "state", "iss", "error"} {
		// LA-OAU-18: each parameter at most once.
		if len(q[k]) > 1 && !m.Has(fault.AcceptDuplicateParams) {
			return fail("LA-OAU-18", "the callback URL carries %q %d times", k, len(q[k]))
		}
	}
	// LA-OAU-20: an error in the callback ends the login.
	if e := q.Get("error"); e != "" && !m.Has(fault.IgnoreAuthorizeError) {
		return fail("LA-OAU-20", "the authorization was not granted: error %q (its description is withheld)", e)
	}
	// LA-OAU-17: the state is this login's.
	if !m.Has(fault.SkipStateCheck) {
		got := q.Get("state")
		ok := subtle.ConstantTimeCompare([]byte(got), []byte(state)) == 1 && state != ""
		// LA-OAU-14: a callback is accepted only for the login in progress.
		if m.Has(fault.ResumeLogin) && knownState(got) {
			ok = true
		}
		if !ok {
			return fail("LA-OAU-17", "the callback's state is not the one this login sent")
		}
	}
	// LA-OAU-19: the callback's iss is the issuer's (RFC 9207).
	if iss, ok := q["iss"]; (ok || issRequired) && !m.Has(fault.IgnoreIssuer) {
		if !ok {
			return fail("LA-OAU-19", "the authorization server always sends iss (RFC 9207) and the callback has none")
		}
		if iss[0] != issuer {
			return fail("LA-OAU-19", "the callback's iss %q is not the issuer %q", iss[0], issuer)
		}
	}
	code := q.Get("code")
	// LA-OAU-20: no code, no exchange.
	if code == "" && !m.Has(fault.IgnoreAuthorizeError) {
		return fail("LA-OAU-17", "the callback URL has no code")
	}
	return code, nil
}

// states are the states of earlier logins. They exist only for
// [fault.ResumeLogin]: the reference accepts a callback only for the login in
// progress (LA-OAU-14).
var states sync.Map

func rememberState(s string)   { states.Store(s, true) }
func knownState(s string) bool { _, ok := states.Load(s); return ok }
