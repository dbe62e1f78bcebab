package netpolicy

import (
	"net/url"
	"strings"
)

// CheckURL parses raw and checks it against the URL rules: an absolute
// https URL, or http to a loopback host; no user credentials; no fragment,
// not even an empty one (LA-NET-01..05, interpretation A-13).
func CheckURL(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, violation("LA-NET-01", "the URL is empty")
	}
	if strings.Contains(raw, "#") {
		return nil, violation("LA-NET-05", "URL %q has a fragment; fragments are not allowed", raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, violation("LA-NET-01", "URL %q does not parse: %v", raw, err)
	}
	if u.User != nil {
		return nil, violation("LA-NET-04", "URL %q carries user credentials; pass credentials in headers or through OAuth instead", redactUser(u))
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return nil, violation("LA-NET-01", "URL %q is not an absolute URL with a host", raw)
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !IsLoopback(u.Hostname()) {
			return nil, violation("LA-NET-03", "URL %q uses plain http to a host that is not loopback; only localhost, 127.0.0.1 and [::1] may use http", raw)
		}
	default:
		return nil, violation("LA-NET-01", "URL %q has scheme %q; only https (and http to loopback) is allowed", raw, u.Scheme)
	}
	return u, nil
}

// IsLoopback reports whether host (as returned by [url.URL.Hostname]) is one
// of the three loopback names that may use plain HTTP: localhost (in any
// letter case), 127.0.0.1 and ::1. Other loopback spellings such as
// 127.0.0.2 or localhost. are not (interpretation A-13).
func IsLoopback(host string) bool {
	return asciiEqualFold(host, "localhost") || host == "127.0.0.1" || host == "::1"
}

// asciiEqualFold compares ASCII letters without regard to case and every
// other byte exactly. (strings.EqualFold folds Unicode, so "localhoſt"
// with a long s would pass for localhost.)
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// redactUser returns u as a string with its user information replaced, so
// that a refused URL can be quoted without repeating the password.
func redactUser(u *url.URL) string {
	c := *u
	c.User = url.User("REDACTED")
	return c.String()
}
