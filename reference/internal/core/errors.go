package core

import (
	"errors"
	"fmt"
	"strings"
)

// Kind classifies a reference [Error], so that hosts and the conformance
// adapter can react to a class of failure without parsing messages.
type Kind string

// The kinds of [Error].
const (
	KindConfig      Kind = "config"      // the configuration is malformed or invalid
	KindName        Kind = "name"        // an alias or tool name breaks the naming rules
	KindLimit       Kind = "limit"       // a documented limit was exceeded
	KindConflict    Kind = "conflict"    // a name is taken or declared twice differently
	KindNotFound    Kind = "not_found"   // no server has that name
	KindBusy        Kind = "busy"        // the agent is not idle
	KindValidation  Kind = "validation"  // a schema or value failed validation
	KindTransport   Kind = "transport"   // a connection failed or was lost
	KindProtocol    Kind = "protocol"    // the server does not speak MCP 2026-07-28
	KindSecurity    Kind = "security"    // a URL, header or redirect was refused
	KindPermission  Kind = "permission"  // the permission policy or approval denied
	KindAuth        Kind = "auth"        // the server or its authorization server refused the client (OAuth)
	KindTimeout     Kind = "timeout"     // a deadline passed
	KindCancelled   Kind = "cancelled"   // the caller cancelled
	KindClosed      Kind = "closed"      // the agent is closed
	KindUnsupported Kind = "unsupported" // the feature is not supported
	KindInternal    Kind = "internal"    // anything else
)

// Error is the error type of the reference. It carries the [Kind] of the
// failure and the ID of the catalog rule that decided it, and names where the
// bad input came from:
//
//	LA-NAME-02: mcpServers option: mcpServers.aaaaaaaaaaaaaaaaaaaaaaaaa: server alias "aaaaaaaaaaaaaaaaaaaaaaaaa" has 25 characters; at most 24
type Error struct {
	Kind Kind
	// Rule is the catalog rule ID, such as "LA-NAME-02".
	Rule string
	// Source is where the input came from: a file path, "mcpServers
	// option", "register", or a server alias for connection failures.
	Source string
	// Field is the JSON path of the offending value, if any.
	Field string
	// Msg says what is wrong, quoting the offending value.
	Msg string
	// Err is the underlying cause, if any.
	Err error
}

// Error implements the error interface.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Rule != "" {
		b.WriteString(e.Rule)
		b.WriteString(": ")
	}
	if e.Source != "" {
		b.WriteString(e.Source)
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the [Kind] of err if it is or wraps an [*Error], and
// [KindInternal] otherwise. It returns "" for a nil error.
func KindOf(err error) Kind {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}

// RuleOf returns the rule ID of err if it is or wraps an [*Error].
func RuleOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Rule
	}
	return ""
}

// newError builds an [*Error] with a formatted message.
func newError(kind Kind, rule, format string, args ...any) *Error {
	return &Error{Kind: kind, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

// at returns a copy of e located at source and field, keeping any location
// already set (the innermost location wins).
func (e *Error) at(source, field string) *Error {
	c := *e
	if c.Source == "" {
		c.Source = source
	}
	if c.Field == "" {
		c.Field = field
	}
	return &c
}
