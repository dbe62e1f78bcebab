package conformance

import (
	"strings"

	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Printable returns text from an implementation, an adapter or a server
// made safe to show on a terminal or in a report, on one line: control
// characters (ESC and the ANSI sequences it starts, CR, LF, NUL, ...), the
// bidirectional controls and invalid UTF-8 are written as Go escapes
// (\x1b, \r, \x00, \u202e); everything else is kept. It is
// [safetext.Escape], for callers outside the module.
func Printable(s string) string { return safetext.Escape(s, false) }

// PrintableLines is [Printable] for text of several lines: each line made
// safe, the line breaks (LF or CRLF) and tabs kept.
func PrintableLines(s string) string {
	return safetext.Escape(strings.ReplaceAll(s, "\r\n", "\n"), true)
}
