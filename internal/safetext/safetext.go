// Package safetext makes text that comes from outside the runner (an
// adapter, an implementation, an MCP server, a configuration file) safe to
// show: bounded in size, with an elision mark that gives the real length,
// and with every byte that a terminal, a log viewer or an XML or JSON
// consumer would act on instead of print spelled out as an escape.
//
// A report is read in a terminal, in a CI log, in a browser; an adapter
// that could write ESC[2J and a green "PASS" into it could forge a
// verdict, and one that could put a 16 MiB string into every failure could
// exhaust the runner. Everything the runner shows passes through [Text],
// [Line] or [Cap].
package safetext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sizes the runner uses when it copies outside text.
const (
	// Message bounds one message: an error, a failure's Expected or
	// Actual, a reason.
	Message = 8 << 10
	// Field bounds one short field: a name, a version, a list entry, a
	// line of evidence.
	Field = 1 << 10
)

// Cap returns s when it has at most n bytes, and otherwise its first n
// bytes (cut on a character boundary) followed by an elision mark that
// says how long s really was. The result never shares memory with s, so a
// capped excerpt of a huge string does not keep the huge string alive.
func Cap(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return head(s, n, len(s))
}

// CapBytes is [Cap] for bytes: only the bytes kept are copied.
func CapBytes(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return head(string(b[:n+min(len(b)-n, utf8.UTFMax)]), n, len(b))
}

// Shorten is [Cap] for the runner's own text (a rule's statement in a
// table cell): its first n bytes, cut on a character boundary, and a bare
// "…", since nobody needs the real length of a sentence of the catalog.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:boundary(s, n)] + "…"
}

// head is the first n bytes of s, cut on a character boundary, and the
// elision mark of a text of total bytes.
func head(s string, n, total int) string {
	cut := boundary(s, n)
	return s[:cut] + fmt.Sprintf("… [%d bytes elided; %d in all]", total-cut, total)
}

// boundary is the largest character boundary of s at or before byte n.
func boundary(s string, n int) int {
	cut := n
	for i := 0; i < utf8.UTFMax && cut > 0 && !utf8.RuneStart(s[cut]); i++ {
		cut--
	}
	return cut
}

// Text is s capped to n bytes ([Cap]) and escaped for display: newlines
// and tabs stay, every other control character, invalid UTF-8 byte and
// bidirectional-override character is spelled out ([Escape]).
func Text(s string, n int) string { return Escape(Cap(s, n), true) }

// Line is [Text] for a value shown on one line: newlines are escaped too.
func Line(s string, n int) string { return Escape(Cap(s, n), false) }

// Escape spells out what a terminal or viewer would interpret rather than
// show: C0 and C1 control characters (ESC, CR, NUL, ...), DEL, invalid
// UTF-8 bytes and the Unicode bidirectional controls that reorder what is
// displayed. With multiline, newlines and tabs are kept as they are.
// Escapes are Go-style: \r, \x1b, \xff (an invalid byte), \u202e. Text
// that needs no escape is returned unchanged.
func Escape(s string, multiline bool) string {
	if clean(s, multiline) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case multiline && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean reports whether s needs no escaping.
func clean(s string, multiline bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && !(multiline && (c == '\n' || c == '\t'))) || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			return false
		}
		i += size
	}
	return true
}

// unsafeRune reports the non-ASCII runes a display acts on: C1 controls
// and the bidirectional formatting characters.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls, CSI (U+009B) among them
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f: // ALM, LRM, RLM
		return true
	case r >= 0x202a && r <= 0x202e: // LRE, RLE, PDF, LRO, RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
		return true
	}
	return false
}
