package core

import (
	"maps"
	"slices"
	"time"
)

// The transports a [ServerConfig] can use.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// ServerConfig is one MCP server entry, the same in mcps.json, in the
// mcpServers option and in [Registry.Register].
//
// A stdio entry runs Command with Args and the extra environment Env; Type
// may be left empty (LA-CFG-06). An http entry must say Type "http"
// explicitly (LA-CFG-07) and names URL and optional Headers. Values are used
// literally: there is no variable interpolation (LA-CFG-08).
type ServerConfig struct {
	// Type is "stdio" or "http"; empty means stdio.
	Type string `json:"type,omitempty"`
	// Command, Args and Env describe a stdio server's process.
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// URL and Headers describe a Streamable HTTP server.
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Timeout bounds connecting and each call: zero means [DefaultTimeout];
	// otherwise a whole number of milliseconds from 1 ms to [MaxTimeout]
	// (timeoutMs in JSON).
	Timeout time.Duration `json:"-"`
}

// transport returns the entry's transport, filling in the stdio default.
func (c ServerConfig) transport() string {
	if c.Type == "" {
		return TransportStdio
	}
	return c.Type
}

// timeout returns the effective timeout.
func (c ServerConfig) timeout() time.Duration {
	if c.Timeout == 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

// normalized returns c with defaults made explicit and empty collections
// dropped, so that entries that mean the same compare equal (LA-REG-03;
// interpretation A-04 keeps normalization to these trivial forms).
func (c ServerConfig) normalized() ServerConfig {
	n := c
	n.Type = c.transport()
	n.Timeout = c.timeout()
	if len(n.Args) == 0 {
		n.Args = nil
	}
	if len(n.Env) == 0 {
		n.Env = nil
	}
	if len(n.Headers) == 0 {
		n.Headers = nil
	}
	return n
}

// equivalent reports whether two entries are the same after normalization.
func (c ServerConfig) equivalent(d ServerConfig) bool {
	a, b := c.normalized(), d.normalized()
	return a.Type == b.Type && a.Command == b.Command && slices.Equal(a.Args, b.Args) &&
		maps.Equal(a.Env, b.Env) && a.URL == b.URL && maps.Equal(a.Headers, b.Headers) &&
		a.Timeout == b.Timeout
}

// literalEqual reports whether two entries are written identically, without
// normalization (used only by [fault.NoNormalization]).
func (c ServerConfig) literalEqual(d ServerConfig) bool {
	return c.Type == d.Type && c.Command == d.Command && slices.Equal(c.Args, d.Args) &&
		maps.Equal(c.Env, d.Env) && c.URL == d.URL && maps.Equal(c.Headers, d.Headers) &&
		c.Timeout == d.Timeout
}

// Source says where a server was declared.
type Source string

// The sources of the registry, in the order they are merged.
const (
	SourceGlobal   Source = "global"   // <home>/mcps.json
	SourceProject  Source = "project"  // <workdir>/.lite-agent/mcps.json
	SourceOption   Source = "option"   // the mcpServers option
	SourceInstance Source = "instance" // Registry.Register
)
