package core

import (
	"context"
	"encoding/json"
	"strings"
)

// ConnectCapability is the capability asked for before connecting a server
// (LA-SEC-02). Calls are authorized by their full tool name instead.
const ConnectCapability = "mcp_connect"

// Decision is an approval handler's answer.
type Decision string

// The answers of an [ApprovalHandler].
const (
	Allow Decision = "allow"
	Deny  Decision = "deny"
)

// ApprovalHandler decides the requests a [Policy] asks about
// (onApproval.request). ctx is cancelled when the run is cancelled or the
// agent closes; an error or any answer other than [Allow] denies.
type ApprovalHandler interface {
	Request(ctx context.Context, req ApprovalRequest) (Decision, error)
}

// ApprovalFunc adapts a function to the [ApprovalHandler] interface.
type ApprovalFunc func(ctx context.Context, req ApprovalRequest) (Decision, error)

// Request calls f.
func (f ApprovalFunc) Request(ctx context.Context, req ApprovalRequest) (Decision, error) {
	return f(ctx, req)
}

// ApprovalRequest is what an [ApprovalHandler] is asked. It never holds
// credentials: no headers and no environment values.
type ApprovalRequest struct {
	// Capability is [ConnectCapability] or a full tool name.
	Capability string `json:"capability"`
	// Server is the server alias.
	Server string `json:"server"`
	// Transport, Command, Args and URL describe what a connection would
	// start or contact.
	Transport string   `json:"transport,omitempty"`
	Command   string   `json:"command,omitempty"`
	Args      []string `json:"args,omitempty"`
	URL       string   `json:"url,omitempty"`
	// Tool and Input describe a call: the server's own tool name and the
	// arguments.
	Tool  string          `json:"tool,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

// Policy is a permission policy: capability names and patterns, where '*'
// matches any run of characters ("mcp__*", "mcp__docs__*"). A name that
// matches Deny is denied; else one that matches Ask is asked; else one that
// matches Allow is allowed; anything else is asked. So connecting and every
// MCP call are asked unless a policy allows them, and nothing a server or a
// configuration file says can allow them (LA-SEC-04, LA-SEC-05, LA-SEC-10,
// LA-SEC-11).
type Policy struct {
	Ask   []string
	Allow []string
	Deny  []string
}

// verdict is a policy's answer before any approval handler is consulted,
// ordered from the most to the least permissive, so that the stricter of
// two verdicts is their max.
type verdict int

const (
	verdictAllow verdict = iota
	verdictAsk
	verdictDeny
)

func (p *Policy) decide(name string) verdict {
	if p == nil {
		return verdictAsk
	}
	switch {
	case matchAny(p.Deny, name):
		return verdictDeny
	case matchAny(p.Ask, name):
		return verdictAsk
	case matchAny(p.Allow, name):
		return verdictAllow
	}
	return verdictAsk
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if matchGlob(p, name) {
			return true
		}
	}
	return false
}

// matchGlob matches name against pattern, where '*' matches any run of
// characters and everything else matches itself.
func matchGlob(pattern, name string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == name
	}
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	name = name[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, part := range parts[1 : len(parts)-1] {
		i := strings.Index(name, part)
		if i < 0 {
			return false
		}
		name = name[i+len(part):]
	}
	return strings.HasSuffix(name, last)
}
