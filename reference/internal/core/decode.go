package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mcpconform/mcpconform/reference/netpolicy"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// NamedServer is a server entry with its alias, in declaration order.
type NamedServer struct {
	Name   string
	Config ServerConfig
}

// DecodeServers decodes an mcpServers object (alias → entry) with the same
// strict rules as the configuration files: JSON types are checked, unknown
// fields and duplicate aliases are refused. It does not judge the values:
// [New] and [Registry.Register] validate every entry (aliases, URLs,
// headers, combinations of fields) wherever it came from. source names where
// the JSON came from, for error messages. faults break the rules decoding
// enforces; the public decoders pass none.
func DecodeServers(data []byte, source string, faults fault.Set) ([]NamedServer, error) {
	d := decoder{source: source, faults: faults}
	return d.servers(data, "mcpServers")
}

// DecodeServerConfig decodes one server entry, as [Registry.Register]
// receives it in JSON form; see [DecodeServers] for what it checks.
func DecodeServerConfig(data []byte, faults fault.Set) (ServerConfig, error) {
	d := decoder{source: "register", faults: faults}
	return d.entry(data, "entry")
}

// decoder reads configuration JSON strictly, naming the source and field of
// every problem.
type decoder struct {
	source     string
	faults     fault.Set
	environ    []string // for fault.Interpolate only
	transports []string // allowed transports; nil allows both
}

func (d *decoder) fail(rule, field, format string, args ...any) error {
	e := newError(KindConfig, rule, format, args...)
	return e.at(d.source, field)
}

// file decodes a whole mcps.json document: {"mcpServers": {...}}.
func (d *decoder) file(data []byte) ([]NamedServer, error) {
	members, err := d.object(data, "")
	if err != nil {
		return nil, err
	}
	var servers []NamedServer
	for _, m := range members {
		switch {
		case m.key == "mcpServers":
			s, err := d.servers(m.value, "mcpServers")
			if err != nil {
				return nil, err
			}
			servers = append(servers, s...)
		case m.key == "servers" && d.faults.Has(fault.ServersKey): // LA-CFG-04: servers are declared under "mcpServers" only
			s, err := d.servers(m.value, "servers")
			if err != nil {
				return nil, err
			}
			servers = append(servers, s...)
		default:
			return nil, d.fail("LA-CFG-04", m.key, "unknown key %q; servers are declared under \"mcpServers\"", m.key)
		}
	}
	return servers, nil
}

// servers decodes an alias → entry object found at field.
func (d *decoder) servers(data []byte, field string) ([]NamedServer, error) {
	members, err := d.object(data, field)
	if err != nil {
		return nil, err
	}
	servers := make([]NamedServer, 0, len(members))
	for _, m := range members {
		cfg, err := d.entry(m.value, field+"."+m.key)
		if err != nil {
			return nil, err
		}
		servers = append(servers, NamedServer{Name: m.key, Config: cfg})
	}
	return servers, nil
}

// member is one key of a JSON object, in document order.
type member struct {
	key   string
	value json.RawMessage
}

// object decodes a JSON object at field, keeping key order and refusing
// duplicate keys and trailing data.
func (d *decoder) object(data []byte, field string) ([]member, error) {
	where := field
	if where == "" {
		where = "the document"
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, d.syntax(field, data, dec, err)
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '{' {
		return nil, d.fail("LA-CFG-10", field, "%s must be a JSON object, not %s", where, describe(tok))
	}
	var members []member
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, d.syntax(field, data, dec, err)
		}
		key := tok.(string) // object keys are always strings
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, d.syntax(field, data, dec, err)
		}
		if seen[key] {
			return nil, d.fail("LA-CFG-10", joinField(field, key), "key %q appears twice", key)
		}
		seen[key] = true
		members = append(members, member{key, value})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, d.syntax(field, data, dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, d.fail("LA-CFG-10", field, "unexpected data after the JSON object at byte %d", dec.InputOffset())
	}
	return members, nil
}

// syntax reports malformed JSON with the byte offset, line and column.
func (d *decoder) syntax(field string, data []byte, dec *json.Decoder, err error) error {
	off := dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("unexpected end of JSON")
		off = int64(len(data))
	}
	line, col := lineCol(data, off)
	return d.fail("LA-CFG-10", field, "invalid JSON at byte %d (line %d, column %d): %v", off, line, col, err)
}

// entry decodes and validates one server entry at field.
func (d *decoder) entry(data []byte, field string) (ServerConfig, error) {
	members, err := d.object(data, field)
	if err != nil {
		return ServerConfig{}, err
	}
	var c ServerConfig
	for _, m := range members {
		f := joinField(field, m.key)
		if ok, cerr := d.commonField(m, f, &c); ok {
			if cerr != nil {
				return ServerConfig{}, cerr
			}
			continue
		}
		switch m.key {
		case "timeoutMs":
			err = d.timeout(m.value, f, &c.Timeout)
		case "token":
			// LA-OAU-02: no token or OAuth data in configuration JSON.
			if d.faults.Has(fault.FileToken) {
				var tok string
				if err = d.str(m.value, f, &tok); err == nil {
					c.Headers = map[string]string{"Authorization": "Bearer " + tok}
				}
				break
			}
			fallthrough
		case "oauth", "mcpOAuth", "tokens", "provider", "authorize", "clientSecret":
			err = d.fail("LA-OAU-02", f, "%q is not allowed in a server entry; OAuth is configured by the host through mcpOAuth, never in configuration JSON", m.key)
		case "alwaysAllow", "trust", "trusted", "permissions", "allow", "autoApprove":
			err = d.fail("LA-SEC-10", f, "%q is not allowed in a server entry; configuration grants no permission", m.key)
		default:
			err = d.fail("LA-CFG-04", f, "unknown field %q; an entry has type, command, args, env, url, headers and timeoutMs", m.key)
		}
		if err != nil {
			return ServerConfig{}, err
		}
	}
	// LA-CFG-08: values are used literally, never interpolated.
	if d.faults.Has(fault.Interpolate) {
		c = interpolate(c, d.environ)
	}
	return c, nil
}

// commonField decodes a field that lite-agent entries and Blade
// McpServerConfigs share (type, command, url, args, env, headers); it
// reports whether m is one of them.
func (d *decoder) commonField(m member, f string, c *ServerConfig) (bool, error) {
	switch m.key {
	case "type":
		return true, d.str(m.value, f, &c.Type)
	case "command":
		return true, d.str(m.value, f, &c.Command)
	case "url":
		return true, d.str(m.value, f, &c.URL)
	case "args":
		return true, d.strings(m.value, f, &c.Args)
	case "env":
		return true, d.stringMap(m.value, f, &c.Env)
	case "headers":
		return true, d.stringMap(m.value, f, &c.Headers)
	}
	return false, nil
}

// validateServer checks a named entry wherever it came from: the alias
// (LA-NAME-02..04), the combination of fields, the allowed transports, the
// URL and header policy and the timeout. It may fill in an inferred type
// (only under [fault.InferHTTP]). source and field locate the entry in error
// messages.
func (a *Host) validateServer(name string, c *ServerConfig, source, field string) error {
	if err := validateAlias(name, a.faults); err != nil {
		return err.(*Error).at(source, field)
	}
	d := decoder{source: source, faults: a.faults, transports: a.opts.MCPTransports}
	if err := d.validate(c, field); err != nil {
		return err
	}
	return a.checkBinding(name, c, &d, field)
}

// validate checks the combination of fields of an entry.
func (d *decoder) validate(c *ServerConfig, field string) error {
	switch c.Type {
	case "":
		// LA-CFG-06: a stdio entry may leave out "type".
		if d.faults.Has(fault.RequireStdioType) {
			return d.fail("LA-CFG-06", joinField(field, "type"), "an entry must declare its type")
		}
		if c.URL != "" && c.Command == "" {
			// LA-CFG-07: http is never inferred from "url".
			if !d.faults.Has(fault.InferHTTP) {
				return d.fail("LA-CFG-07", joinField(field, "type"), "an entry with \"url\" must declare \"type\": \"http\"; http is never inferred")
			}
			c.Type = TransportHTTP
		}
	case TransportStdio, TransportHTTP:
	case "sse":
		// LA-TRN-04: the legacy SSE transport is refused.
		if d.faults.Has(fault.AcceptSSE) {
			c.Type = TransportHTTP
			break
		}
		return d.fail("LA-TRN-04", joinField(field, "type"), "type \"sse\" (the legacy HTTP+SSE transport) is not supported; use \"http\" (Streamable HTTP)")
	default:
		return d.fail("LA-CFG-04", joinField(field, "type"), "unknown type %q; use \"stdio\" or \"http\"", c.Type)
	}
	// LA-SEC-21: mcpTransports limits the transports wherever an entry is declared.
	if d.transports != nil && !slices.Contains(d.transports, c.transport()) && !d.faults.Has(fault.IgnoreTransports) {
		return d.fail("LA-SEC-21", joinField(field, "type"), "transport %q is not allowed here; mcpTransports allows only %v", c.transport(), d.transports)
	}
	if c.transport() == TransportStdio {
		if c.Command == "" {
			return d.fail("LA-CFG-10", joinField(field, "command"), "a stdio entry needs a non-empty \"command\"")
		}
		if c.URL != "" || c.Headers != nil {
			return d.fail("LA-CFG-04", field, "\"url\" and \"headers\" belong to http entries, not stdio")
		}
		for k := range c.Env {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return d.fail("LA-CFG-10", joinField(field, "env"), "environment variable name %q is not valid", k)
			}
		}
	} else {
		if c.Command != "" || c.Args != nil || c.Env != nil {
			return d.fail("LA-CFG-04", field, "\"command\", \"args\" and \"env\" belong to stdio entries, not http")
		}
		if err := d.checkURL(c.URL); err != nil {
			return d.policy(err, joinField(field, "url"))
		}
		if err := netpolicy.CheckHeaders(c.Headers); err != nil && !d.faults.Has(netFaults[ruleOfViolation(err)]) {
			return d.policy(err, joinField(field, "headers"))
		}
		// LA-TRN-06: a header name is any HTTP token.
		if d.faults.Has(fault.StrictHeaderNames) {
			for k := range c.Headers {
				if strings.Trim(k, "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") != "" {
					return d.fail("LA-TRN-06", joinField(field, "headers"), "header name %q (mutated)", k)
				}
			}
		}
	}
	if err := checkTimeout(c.Timeout); err != nil {
		return err.(*Error).at(d.source, joinField(field, "timeoutMs"))
	}
	return nil
}

// netFaults are the faults that each switch off one rule of the
// URL and header policy.
var netFaults = map[string]fault.Fault{
	"LA-NET-03": fault.AllowPlainHTTP,       // LA-NET-01: plain http only to loopback
	"LA-NET-04": fault.AllowUserinfo,        // LA-NET-04: no credentials in URLs
	"LA-NET-05": fault.AllowFragment,        // LA-NET-05: no fragments
	"LA-NET-06": fault.AllowReservedHeaders, // LA-NET-06: no transport headers in configuration
	"LA-TRN-06": fault.AcceptInvalidHeaders, // LA-TRN-06: only headers HTTP can send
}

// ruleOfViolation returns the rule of a policy violation.
func ruleOfViolation(err error) string {
	var v *netpolicy.Violation
	if errors.As(err, &v) {
		return v.Rule
	}
	return ""
}

// checkURL applies the URL policy (LA-NET-01..05), as mutated.
func (d *decoder) checkURL(raw string) error {
	u, err := netpolicy.CheckURL(raw)
	if err != nil {
		rule := ruleOfViolation(err)
		if d.faults.Has(netFaults[rule]) {
			return nil
		}
		// LA-NET-01: an https URL has a host.
		if rule == "LA-NET-01" && d.faults.Has(fault.AllowNoHost) {
			if pu, perr := url.Parse(raw); perr == nil && pu.Opaque == "" && pu.Hostname() == "" && strings.EqualFold(pu.Scheme, "https") {
				return nil
			}
		}
		// LA-NET-03: loopback is exactly localhost, 127.0.0.1 or [::1].
		if rule == "LA-NET-03" && d.faults.Has(fault.LoopbackLookalikes) {
			if pu, perr := url.Parse(raw); perr == nil && (strings.HasPrefix(strings.ToLower(pu.Hostname()), "localhost") || strings.HasPrefix(pu.Hostname(), "127.")) {
				return nil
			}
		}
		return err
	}
	// LA-NET-02: localhost in any letter case is loopback.
	if d.faults.Has(fault.LowerCaseLocalhost) && u.Scheme == "http" && u.Hostname() != "localhost" && strings.EqualFold(u.Hostname(), "localhost") {
		return &netpolicy.Violation{Rule: "LA-NET-03", Msg: "plain http refused to a host that is not a lower-case localhost (mutated)"}
	}
	// LA-NET-02: plain http to loopback is allowed.
	if d.faults.Has(fault.RefuseLoopbackHTTP) && u.Scheme == "http" {
		return &netpolicy.Violation{Rule: "LA-NET-02", Msg: "plain http refused (mutated)"}
	}
	return nil
}

// policy wraps a [netpolicy.Violation] as a [KindSecurity] error.
func (d *decoder) policy(err error, field string) error {
	var v *netpolicy.Violation
	if errors.As(err, &v) {
		return (&Error{Kind: KindSecurity, Rule: v.Rule, Msg: v.Msg}).at(d.source, field)
	}
	return d.fail("LA-CFG-10", field, "%v", err)
}

func (d *decoder) str(raw json.RawMessage, field string, out *string) error {
	if err := json.Unmarshal(raw, out); err != nil {
		return d.fail("LA-CFG-10", field, "must be a string, not %s", describeRaw(raw))
	}
	return nil
}

func (d *decoder) strings(raw json.RawMessage, field string, out *[]string) error {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return d.fail("LA-CFG-10", field, "must be an array of strings, not %s", describeRaw(raw))
	}
	list := make([]string, len(items))
	for i, item := range items {
		if err := d.str(item, fmt.Sprintf("%s[%d]", field, i), &list[i]); err != nil {
			return err
		}
	}
	*out = list
	return nil
}

func (d *decoder) stringMap(raw json.RawMessage, field string, out *map[string]string) error {
	members, err := d.object(raw, field)
	if err != nil {
		return err
	}
	m := make(map[string]string, len(members))
	for _, mem := range members {
		var s string
		if err := d.str(mem.value, joinField(field, mem.key), &s); err != nil {
			return err
		}
		m[mem.key] = s
	}
	*out = m
	return nil
}

// timeout decodes timeoutMs: a JSON integer from 1 to 300000 (LA-TMO-03;
// numeric strings and fractions are refused, interpretation A-14).
func (d *decoder) timeout(raw json.RawMessage, field string, out *time.Duration) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return d.fail("LA-TMO-03", field, "must be a number of milliseconds: %v", err)
	}
	n, ok := v.(json.Number)
	if !ok {
		return d.fail("LA-TMO-03", field, "timeoutMs must be a number of milliseconds from 1 to %d, not %s", MaxTimeout.Milliseconds(), describeRaw(raw))
	}
	f, err := n.Float64()
	// LA-TMO-03: timeoutMs 0 is refused, like any value outside 1..300000.
	if d.faults.Has(fault.AcceptTimeoutZero) && err == nil && f == 0 {
		return nil
	}
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) || f < 1 || f > float64(MaxTimeout.Milliseconds()) {
		return d.fail("LA-TMO-03", field, "timeoutMs %s is not a whole number of milliseconds from 1 to %d", n, MaxTimeout.Milliseconds())
	}
	*out = time.Duration(f) * time.Millisecond
	return nil
}

// checkTimeout validates a Go-typed timeout the way JSON timeoutMs is.
func checkTimeout(t time.Duration) error {
	if t == 0 {
		return nil
	}
	if t < time.Millisecond || t > MaxTimeout || t%time.Millisecond != 0 {
		return newError(KindConfig, "LA-TMO-03", "timeout %v is not a whole number of milliseconds from 1 ms to %v", t, MaxTimeout)
	}
	return nil
}

// interpolate expands $VAR and ${VAR} from environ in every string of c. It
// exists only for [fault.Interpolate]: the reference never interpolates.
func interpolate(c ServerConfig, environ []string) ServerConfig {
	lookup := func(k string) string {
		for _, kv := range slices.Backward(environ) {
			if name, value, ok := strings.Cut(kv, "="); ok && name == k {
				return value
			}
		}
		return ""
	}
	x := func(s string) string { return os.Expand(s, lookup) }
	c.Command, c.URL = x(c.Command), x(c.URL)
	args := slices.Clone(c.Args)
	for i := range args {
		args[i] = x(args[i])
	}
	c.Args = args
	expandMap := func(m map[string]string) map[string]string {
		if m == nil {
			return nil
		}
		out := make(map[string]string, len(m))
		for k, v := range m {
			out[k] = x(v)
		}
		return out
	}
	c.Env, c.Headers = expandMap(c.Env), expandMap(c.Headers)
	return c
}

func joinField(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

// describe names a JSON token's type for error messages.
func describe(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "an array"
		}
		return "a " + string(t)
	case string:
		return "a string"
	case json.Number, float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", tok)
}

// describeRaw names the JSON type of raw for error messages.
func describeRaw(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return "invalid JSON"
	}
	return describe(tok)
}

// lineCol converts a byte offset into a 1-based line and column.
func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}
