package netpolicy

import (
	"slices"
	"strings"
)

// ReservedHeaders are the request headers the MCP transport sets itself. A
// configuration may not set them: MCP-Protocol-Version and Mcp-Session-Id
// are the protocol's own (LA-NET-06), and the others describe the message
// framing the transport owns (interpretation A-12). Compared without regard
// to letter case.
var ReservedHeaders = []string{
	"Mcp-Session-Id",
	"Mcp-Protocol-Version",
	"Last-Event-Id",
	"Accept",
	"Content-Type",
	"Content-Length",
	"Transfer-Encoding",
	"Connection",
	"Host",
}

// CheckHeaders checks configured request headers: each name must be a valid
// HTTP field name and not reserved (LA-NET-06), and each value a field
// value HTTP carries as it is: no control characters such as CR or LF, no
// whitespace at either end. A header HTTP cannot send as configured is
// refused when it is declared, not when a request would carry it
// (LA-TRN-06, interpretation A-41).
func CheckHeaders(headers map[string]string) error {
	names := make([]string, 0, len(headers))
	for name := range headers {
		names = append(names, name)
	}
	slices.Sort(names) // report the same header first every time
	for _, name := range names {
		if err := CheckHeader(name, headers[name]); err != nil {
			return err
		}
	}
	return nil
}

// CheckHeader checks one configured request header; see [CheckHeaders].
func CheckHeader(name, value string) error {
	if !validFieldName(name) {
		return violation("LA-TRN-06", "header name %q is not a valid HTTP field name (a token of letters, digits and !#$%%&'*+-.^_`|~)", name)
	}
	if slices.ContainsFunc(ReservedHeaders, func(r string) bool { return asciiEqualFold(r, name) }) {
		return violation("LA-NET-06", "header %q is reserved for the MCP transport and cannot be configured", name)
	}
	if i := strings.IndexFunc(value, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }); i >= 0 {
		return violation("LA-TRN-06", "header %q has a control character at byte %d of its value", name, i)
	}
	if strings.Trim(value, " \t") != value {
		return violation("LA-TRN-06", "the value of header %q starts or ends with whitespace, which HTTP would drop: the server would not receive it as configured", name)
	}
	return nil
}

// validFieldName reports whether name is an RFC 9110 token.
func validFieldName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
