package conformance

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns text from an implementation, an adapter or a server
// made safe to show on a terminal or in a report: control characters (ESC
// and the ANSI sequences it starts, CR, NUL, ...), invisible format
// characters and invalid UTF-8 are written as Go escapes (\x1b, \r, \x00,
// \u202e); everything else is kept.
func Printable(s string) string {
	if isPrintable(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteRune(r)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			q := fmt.Sprintf("%+q", string(r))
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPrintable reports whether s needs no escaping.
func isPrintable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || (r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r))) {
			return false
		}
	}
	return utf8.ValidString(s)
}

// PrintableLines is [Printable] for text of several lines: each line made
// safe, the line breaks kept.
func PrintableLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Printable(strings.TrimSuffix(l, "\r"))
	}
	return strings.Join(lines, "\n")
}
