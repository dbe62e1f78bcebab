// Package jsondepth measures how deep a JSON text nests, as go-sdk's
// decoder bounds it: the adapter protocol refuses the messages go-sdk
// would refuse, and the reference's stdio connection refuses the batches
// go-sdk's would.
package jsondepth

import "bytes"

// Exceeds reports whether b nests arrays and objects more than limit deep,
// counting the brackets outside strings, as go-sdk's internal/json does
// before it decodes. A text with no more than limit opening brackets in
// all, strings included, cannot nest deeper: that count, which
// bytes.Count makes with vector instructions, spares nearly every text
// the scan byte by byte.
func Exceeds(b []byte, limit int) bool {
	if bytes.Count(b, []byte("{"))+bytes.Count(b, []byte("[")) <= limit {
		return false
	}
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > limit {
				return true
			}
		case c == '}' || c == ']':
			depth = max(depth-1, 0)
		}
	}
	return false
}
