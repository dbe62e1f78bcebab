package record

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// encode is the JSON line a fake process sends for r, without its
// newline: exactly the bytes of json.Marshal(r), written field by field.
// A fake process sends a handful of records in its life, and json.Marshal
// first builds its encoders of Record by reflection, in every process
// anew: a few percent of a stdio fake's CPU. A record with an HTTP
// request (which fake processes do not send) goes through json.Marshal.
func encode(r Record) ([]byte, error) {
	if r.HTTP != nil {
		return json.Marshal(r)
	}
	b := make([]byte, 0, 256+len(r.Params)+len(r.Result)+envSize(r))
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, r.Seq, 10)
	t, err := r.Time.MarshalJSON()
	if err != nil {
		return json.Marshal(r) // json.Marshal's own error
	}
	b = append(b, `,"time":`...)
	b = append(b, t...)
	b = appendField(b, "server", r.Server)
	b = appendField(b, "instance", r.Instance)
	b = appendField(b, "kind", string(r.Kind))
	b = appendInt(b, "pid", int64(r.PID))
	b = appendInt(b, "ppid", int64(r.PPID))
	b = appendStrings(b, "argv", r.Argv)
	b = appendStrings(b, "env", r.Env)
	b = appendOptional(b, "cwd", r.Cwd)
	b = appendOptional(b, "dir", r.Dir)
	b = appendOptional(b, "method", r.Method)
	if b, err = appendRaw(b, "id", r.ID); err != nil {
		return json.Marshal(r)
	}
	if b, err = appendRaw(b, "params", r.Params); err != nil {
		return json.Marshal(r)
	}
	b = appendInt(b, "bytes", int64(r.Bytes))
	b = appendInt(b, "status", int64(r.Status))
	b = appendInt(b, "written", r.Written)
	if r.Aborted {
		b = append(b, `,"aborted":true`...)
	}
	if b, err = appendRaw(b, "result", r.Result); err != nil {
		return json.Marshal(r)
	}
	if r.Error != nil {
		b = append(b, `,"error":{"code":`...)
		b = strconv.AppendInt(b, r.Error.Code, 10)
		b = appendField(b, "message", r.Error.Message)
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// envSize is about the bytes r's Argv and Env take.
func envSize(r Record) int {
	n := 0
	for _, s := range r.Argv {
		n += len(s) + 3
	}
	for _, s := range r.Env {
		n += len(s) + 3
	}
	return n
}

// appendField appends ,"name":"value".
func appendField(b []byte, name, value string) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, value)
}

// appendOptional appends the field unless value is empty (omitempty).
func appendOptional(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	return appendField(b, name, value)
}

// appendInt appends the field unless n is 0 (omitempty).
func appendInt(b []byte, name string, n int64) []byte {
	if n == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, n, 10)
}

// appendStrings appends the field unless ss is empty (omitempty).
func appendStrings(b []byte, name string, ss []string) []byte {
	if len(ss) == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':', '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendRaw appends the field unless raw is empty (omitempty), compacted
// and with <, >, &, U+2028 and U+2029 escaped, as json.Marshal writes a
// json.RawMessage; it fails where json.Marshal would, on raw that is not
// JSON.
func appendRaw(b []byte, name string, raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 {
		return b, nil
	}
	var compact bytes.Buffer
	compact.Grow(len(raw))
	if err := json.Compact(&compact, raw); err != nil {
		return b, err
	}
	out := bytes.NewBuffer(append(b, `,"`+name+`":`...))
	json.HTMLEscape(out, compact.Bytes())
	return out.Bytes(), nil
}

// hexDigits are the digits of \u escapes, lower case as json.Marshal has
// them.
const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way json.Marshal writes one
// (HTML escaping on): ", \ and control characters escaped (\b, \f, \n,
// \r, \t short), <, > and & as \u003c, \u003e and \u0026, U+2028 and
// U+2029 escaped, and every byte of invalid UTF-8 replaced by \ufffd.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
