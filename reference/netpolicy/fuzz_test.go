package netpolicy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/textproto"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The fuzz targets below check CheckURL and CheckHeader against the policy
// as stated independently of their code: what they accept must satisfy it,
// and what they refuse must be refused with a rule ID. The seed corpus
// under testdata/fuzz holds the interesting inputs; `go test` runs it as
// ordinary tests.

// ruleID is the form of the rule of every violation of this package:
// LA-NET-0N, or LA-TRN-06 for a header HTTP cannot send as configured.
var ruleID = regexp.MustCompile(`^(LA-NET-0[0-9]|LA-TRN-06)$`)

// checkViolation fails unless err is a *Violation with a well-formed rule.
func checkViolation(t *testing.T, what string, err error) {
	t.Helper()
	var v *Violation
	if !errors.As(err, &v) {
		t.Fatalf("%s: the error %v (%T) is not a *netpolicy.Violation", what, err, err)
	}
	if !ruleID.MatchString(v.Rule) {
		t.Fatalf("%s: the violation's rule %q is not of the form LA-NET-0N or LA-TRN-06", what, v.Rule)
	}
}

// asciiFold reports whether a and b are equal under ASCII case folding
// only: "localhoſt" (U+017F) is not "localhost", although strings.EqualFold
// says it is.
func asciiFold(a, b string) bool {
	// An oracle written apart from the code under test: lower-case the
	// ASCII letters of both, then compare bytes.
	lower := func(s string) string {
		p := []byte(s)
		for i, c := range p {
			if 'A' <= c && c <= 'Z' {
				p[i] = c - 'A' + 'a'
			}
		}
		return string(p)
	}
	return lower(a) == lower(b)
}

// loopbackHost reports whether host (brackets removed) is one of the three
// hosts that may use plain http: localhost in any ASCII letter case,
// 127.0.0.1 and ::1, spelled exactly so.
func loopbackHost(host string) bool {
	return asciiFold(host, "localhost") || host == "127.0.0.1" || host == "::1"
}

// rawAuthority returns the authority of an absolute hierarchical URL as
// written, without any parser's help: what follows "scheme://" up to the
// first '/', '?' or '#'. ok is false when raw does not have that shape.
func rawAuthority(raw string) (scheme, authority string, ok bool) {
	scheme, rest, found := strings.Cut(raw, "://")
	if !found {
		return "", "", false
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	return scheme, rest, true
}

// checkAcceptedURL checks a URL CheckURL accepted against the policy.
func checkAcceptedURL(t *testing.T, raw string, depth int) {
	t.Helper()
	u, err := CheckURL(raw)
	if err != nil {
		checkViolation(t, fmt.Sprintf("CheckURL(%q)", raw), err)
		if depth > 0 {
			t.Fatalf("CheckURL accepted a URL but refuses its String() %q: %v", raw, err)
		}
		return
	}
	if u == nil {
		t.Fatalf("CheckURL(%q) returned neither a URL nor an error", raw)
	}
	if strings.Contains(raw, "#") {
		t.Fatalf("CheckURL(%q) accepted a URL with '#' in it", raw)
	}
	if u.User != nil {
		t.Fatalf("CheckURL(%q) accepted a URL with user information %q", raw, u.User.Username())
	}
	if u.Fragment != "" || u.RawFragment != "" {
		t.Fatalf("CheckURL(%q) accepted a URL with a fragment", raw)
	}
	if u.Opaque != "" {
		t.Fatalf("CheckURL(%q) accepted an opaque URL", raw)
	}
	host := u.Hostname()
	if host == "" {
		t.Fatalf("CheckURL(%q) accepted a URL with an empty host (Host %q): a client dials the local machine", raw, u.Host)
	}
	scheme, authority, ok := rawAuthority(raw)
	if !ok {
		t.Fatalf("CheckURL(%q) accepted a URL that is not scheme://authority...", raw)
	}
	if strings.Contains(authority, "@") {
		t.Fatalf("CheckURL(%q) accepted a URL whose authority %q has user information", raw, authority)
	}
	switch {
	case asciiFold(scheme, "https") && u.Scheme == "https":
	case asciiFold(scheme, "http") && u.Scheme == "http":
		if !loopbackHost(host) {
			t.Fatalf("CheckURL(%q) accepted plain http to host %q, which is not exactly localhost, 127.0.0.1 or ::1", raw, host)
		}
		// The authority as written must name the same host: no parser
		// may see anything else in it.
		h := authority
		if strings.HasPrefix(h, "[") {
			end := strings.IndexByte(h, ']')
			if end < 0 {
				t.Fatalf("CheckURL(%q): unterminated IPv6 literal in %q", raw, authority)
			}
			h = h[1:end]
		} else if i := strings.LastIndexByte(h, ':'); i >= 0 {
			h = h[:i]
		}
		if h != host {
			t.Fatalf("CheckURL(%q): the authority %q names host %q, the parsed URL %q", raw, authority, h, host)
		}
	default:
		t.Fatalf("CheckURL(%q) accepted scheme %q (parsed %q); only https, and http to loopback, are allowed", raw, scheme, u.Scheme)
	}
	if depth > 0 {
		return
	}
	// What the host does with the accepted URL is print it and parse it
	// again: that must be accepted too, and name the same place.
	again := u.String()
	checkAcceptedURL(t, again, depth+1)
	u2, err := CheckURL(again)
	if err != nil {
		return // reported above
	}
	if u2.Scheme != u.Scheme || u2.Host != u.Host || u2.Hostname() != host {
		t.Fatalf("CheckURL(%q) then CheckURL(%q): scheme/host changed from %s/%q to %s/%q", raw, again, u.Scheme, u.Host, u2.Scheme, u2.Host)
	}
}

// urlSeeds are the seeds of FuzzCheckURL; testdata/fuzz/FuzzCheckURL holds
// them too, as files.
var urlSeeds = []string{
	"https://mcp.test/mcp",
	"http://localhost:8080/mcp",
	"http://LOCALHOST/mcp",
	"HTTP://LocalHost:80/mcp",
	"http://127.0.0.1:8080/mcp",
	"http://[::1]:8080/mcp",
	"http://localhost.evil.test/mcp",
	"http://localhost./mcp",
	"http://127.0.0.1.nip.io/mcp",
	"http://127.0.0.2/mcp",
	"http://0.0.0.0/mcp",
	"http://0x7f000001/mcp",
	"http://2130706433/mcp",
	"http://127.1/mcp",
	"http://[::ffff:127.0.0.1]/mcp",
	"http://[0:0:0:0:0:0:0:1]/mcp",
	"http://[::1%25lo]/mcp",
	"http://[::1%25]/mcp",
	"http://user@localhost/mcp",
	"https://user:pass@mcp.test/mcp",
	"https://@mcp.test/mcp",
	"http://127.0.0.1%2F@evil.test/mcp",
	"http://localhost%2F@evil.test/mcp",
	"http://evil.test%23@localhost/mcp",
	"http://localhost%00/mcp",
	"http://local%68ost/mcp",
	"https://mcp.test/mcp#",
	"https://mcp.test/mcp#frag",
	"https://mcp.test/mcp%23",
	"http://localhost\\@evil.test/mcp",
	"http://evil.test\\@localhost/mcp",
	"http://localhost\\.evil.test/mcp",
	"http://local\thost/mcp",
	"http://localhost\n.evil.test/mcp",
	"http://localhost/mcp\r\nX: y",
	" http://localhost/mcp",
	"http://localhoſt/mcp",
	"http://ｌｏｃａｌｈｏｓｔ/mcp",
	"https://:443/mcp",
	"https://:/mcp",
	"http://:80/mcp",
	"https://[]/mcp",
	"https:///mcp",
	"https:mcp.test/mcp",
	"//mcp.test/mcp",
	"ws://localhost/mcp",
	"file:///etc/passwd",
	"javascript:alert(1)",
	"https://mcp.test:99999/mcp",
	"https://a%25b/mcp",
	"https://é.test/mcp",
	"",
}

func FuzzCheckURL(f *testing.F) {
	for _, s := range urlSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		checkAcceptedURL(t, raw, 0)
	})
}

// tchar reports whether c may appear in an RFC 9110 token.
func tchar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// sentValue writes the header the way net/http sends it on an HTTP/1.1
// request and reads it back the way a server reads it.
func sentValue(name, value string) ([]string, error) {
	h := http.Header{}
	h.Set(name, value)
	var buf bytes.Buffer
	if err := h.Write(&buf); err != nil {
		return nil, err
	}
	buf.WriteString("\r\n")
	got, err := textproto.NewReader(bufio.NewReader(&buf)).ReadMIMEHeader()
	if err != nil {
		return nil, err
	}
	return got.Values(name), nil
}

func FuzzCheckHeader(f *testing.F) {
	for _, s := range [][2]string{
		{"Authorization", "Bearer t"},
		{"X-Api-Key", "k"},
		{"X-Tab", "a\tb"},
		{"X-Empty", ""},
		{"X-Obs-Text", "caf\xc3\xa9"},
		{"X-Latin1", "\xe9"},
		{"Bad Name", "v"},
		{"X-Colon:", "v"},
		{"X:Y", "v"},
		{"X-Ünïcode", "v"},
		{"", "v"},
		{" X", "v"},
		{"X\r\nHost", "v"},
		{"X-Injected", "a\r\nHost: evil.test"},
		{"X-Lf", "a\nb"},
		{"X-Cr", "a\rb"},
		{"X-Nul", "a\x00b"},
		{"X-Del", "a\x7fb"},
		{"X-Esc", "\x1b[31m"},
		{"X-Nel", "a\u0085b"},
		{"X-Leading-Space", " v"},
		{"X-Trailing-Tab", "v\t"},
		{"X-Only-Space", " "},
		{"mcp-session-id", "s"},
		{"MCP-PROTOCOL-VERSION", "2026-07-28"},
		{"last-event-id", "1"},
		{"content-length", "0"},
		{"Transfer-Encoding", "chunked"},
		{"HOST", "evil.test"},
		{"Connection", "close"},
		{"Accept", "*/*"},
		{"Content-Type", "text/plain"},
		{"Mcp-Session-Id ", "s"},
		{"Content_Length", "0"},
		{"Hoſt", "evil.test"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, name, value string) {
		err := CheckHeader(name, value)
		if err != nil {
			checkViolation(t, fmt.Sprintf("CheckHeader(%q, %q)", name, value), err)
			if err := CheckHeaders(map[string]string{name: value}); err == nil {
				t.Fatalf("CheckHeaders accepts %q: %q, which CheckHeader refuses", name, value)
			}
			return
		}
		if name == "" {
			t.Fatal("CheckHeader accepted an empty header name")
		}
		for i := 0; i < len(name); i++ {
			if !tchar(name[i]) {
				t.Fatalf("CheckHeader accepted header name %q, which is not an RFC 9110 token (byte %d is %q)", name, i, name[i])
			}
		}
		if slices.ContainsFunc(ReservedHeaders, func(r string) bool { return asciiFold(r, name) }) {
			t.Fatalf("CheckHeader accepted the reserved header %q", name)
		}
		for i := 0; i < len(value); i++ {
			if c := value[i]; c < 0x20 && c != '\t' || c == 0x7f {
				t.Fatalf("CheckHeader(%q) accepted a value with control byte %#x at %d: %q", name, c, i, value)
			}
		}
		got, err := sentValue(name, value)
		if err != nil {
			t.Fatalf("CheckHeader accepted %q: %q, but what net/http writes for it does not parse: %v", name, value, err)
		}
		if len(got) != 1 || got[0] != value {
			t.Fatalf("CheckHeader accepted %q: %q, but net/http sends it as %q: the server would not receive the configured value", name, value, got)
		}
		if err := CheckHeaders(map[string]string{name: value}); err != nil {
			t.Fatalf("CheckHeaders refuses %q: %q, which CheckHeader accepts: %v", name, value, err)
		}
	})
}
