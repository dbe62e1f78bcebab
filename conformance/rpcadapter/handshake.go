package rpcadapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// handshake is an initialize result as the runner reads it: whatever the
// adapter sends (one line may hold a million list entries, or a name
// megabytes long), what the runner keeps of it is bounded. The lists keep
// the values the runner knows, once each; unknown values (which §8
// allows) are counted, and the first few kept for `adapter check`.
type handshake struct {
	ProtocolVersion string        `json:"protocolVersion"`
	Adapter         Peer          `json:"adapter"`
	Implementation  Peer          `json:"implementation"`
	Systems         handshakeList `json:"systems"`
	Capabilities    handshakeList `json:"capabilities"`
	Operations      handshakeList `json:"operations"`
	Concurrency     string        `json:"concurrency,omitempty"`
	Unimplemented   boundedList   `json:"unimplemented,omitempty"`
	ToolNames       string        `json:"toolNames,omitempty"`
}

// unknownKept bounds the unknown values kept of one list.
const unknownKept = 8

// knownValues are the values of the handshake's lists that the runner
// knows.
var knownValues = func() map[string]bool {
	m := map[string]bool{string(adapter.LiteAgent): true, string(adapter.Blade): true}
	for _, c := range adapter.Capabilities {
		m[string(c)] = true
	}
	for _, o := range adapter.Operations {
		m[string(o)] = true
	}
	return m
}()

// handshakeList is one list of the handshake, decoded entry by entry.
type handshakeList struct {
	known   []string // known values, once each, in the order sent
	unknown []string // the first unknown values, capped
	others  int      // entries that are not known values
	total   int      // entries sent
}

// errNotStrings is a handshake list that is not an array of strings.
var errNotStrings = errors.New("not an array of strings")

// UnmarshalJSON reads an array of strings without decoding all of it: a
// million entries cost a scan of their bytes, not a million strings.
func (l *handshakeList) UnmarshalJSON(b []byte) error { return scanStrings(b, l.add) }

// boundedList is a list of the handshake whose values the runner cannot
// know in advance (the unimplemented rules and areas): its first entries,
// capped, are kept.
type boundedList struct {
	kept  []string
	total int
}

// boundedKept bounds the entries a boundedList keeps: more than the
// catalog has rules and areas.
const boundedKept = 1024

// UnmarshalJSON reads an array of strings, keeping the first ones.
func (l *boundedList) UnmarshalJSON(b []byte) error {
	return scanStrings(b, func(tok []byte, escaped bool) {
		l.total++
		if len(l.kept) < boundedKept {
			l.kept = append(l.kept, safetext.Cap(stringToken(tok, escaped), safetext.Field))
		}
	})
}

// scanStrings calls add with every string token (quotes included) of a
// JSON array of strings, and whether it holds an escape.
func scanStrings(b []byte, add func(tok []byte, escaped bool)) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	if len(b) < 2 || b[0] != '[' {
		return errNotStrings
	}
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == ']' {
		return nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return errNotStrings
		}
		j, escaped := i+1, false
		for ; j < len(b) && b[j] != '"'; j++ {
			if b[j] == '\\' {
				escaped = true
				j++
			}
		}
		if j >= len(b) {
			return errNotStrings
		}
		add(b[i:j+1], escaped)
		switch i = skipSpace(b, j+1); {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == ']':
			return nil
		default:
			return errNotStrings
		}
	}
}

// skipSpace returns the index of the first byte of b from i that is not
// JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringToken is the value of a JSON string token.
func stringToken(tok []byte, escaped bool) string {
	if escaped {
		var s string
		if json.Unmarshal(tok, &s) == nil {
			return s
		}
	}
	return string(tok[1 : len(tok)-1])
}

// add counts one entry, a JSON string token, keeping it when it is a
// known value or one of the first unknown ones.
func (l *handshakeList) add(tok []byte, escaped bool) {
	l.total++
	raw := tok[1 : len(tok)-1]
	if escaped {
		raw = []byte(stringToken(tok, true))
	}
	switch {
	case !knownValues[string(raw)]:
		l.others++
		if len(l.unknown) < unknownKept {
			l.unknown = append(l.unknown, safetext.CapBytes(raw, safetext.Field))
		}
	case !slices.Contains(l.known, string(raw)):
		l.known = append(l.known, string(raw))
	}
}

// of returns the list's values that are among valid, in the order sent;
// the others are added to l's unknown ones.
func of[T ~string](l *handshakeList, valid []T) []T {
	out := []T{}
	for _, s := range l.known {
		if slices.Contains(valid, T(s)) {
			out = append(out, T(s))
			continue
		}
		l.others++
		if len(l.unknown) < unknownKept {
			l.unknown = append(l.unknown, s)
		}
	}
	return out
}

// describeUnknown describes the unknown values of a list, or "" when
// there are none: `unknown capabilities ["x" "y"] and 999998 more (of
// 1000000 entries)`.
func (l *handshakeList) describeUnknown(what string) string {
	if l.others == 0 {
		return ""
	}
	out := fmt.Sprintf("unknown %s %q", what, l.unknown)
	if more := l.others - len(l.unknown); more > 0 {
		out += fmt.Sprintf(" and %d more (of %d entries)", more, l.total)
	}
	return out
}

// decoded is what the runner keeps of a handshake: the contract's
// [adapter.Info], names capped, and what it declared that the runner does
// not know.
func (h *handshake) decoded() (adapter.Info, []string) {
	c := func(s string) string { return safetext.Cap(s, safetext.Field) }
	info := adapter.Info{
		Name: c(h.Adapter.Name), Version: c(h.Adapter.Version),
		Implementation: adapter.Implementation{Name: c(h.Implementation.Name), Version: c(h.Implementation.Version)},
		Systems:        of(&h.Systems, []adapter.System{adapter.LiteAgent, adapter.Blade}),
		Capabilities:   of(&h.Capabilities, adapter.Capabilities),
		Operations:     of(&h.Operations, adapter.Operations),
		Concurrency:    c(h.Concurrency),
		Unimplemented:  h.Unimplemented.kept,
		ToolNames:      c(h.ToolNames),
	}
	var unknown []string
	for _, u := range []string{h.Systems.describeUnknown("systems"), h.Capabilities.describeUnknown("capabilities"), h.Operations.describeUnknown("operations")} {
		if u != "" {
			unknown = append(unknown, u)
		}
	}
	if more := h.Unimplemented.total - len(h.Unimplemented.kept); more > 0 {
		unknown = append(unknown, fmt.Sprintf("%d unimplemented entries past the first %d", more, boundedKept))
	}
	return info, unknown
}
