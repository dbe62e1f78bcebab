// Package netpolicy holds lite-agent's rules for where an MCP host may send
// HTTP requests and which request headers a configuration may set.
//
// Remote URLs must use HTTPS; plain HTTP is allowed only for the loopback
// hosts localhost, 127.0.0.1 and [::1]. URLs with user credentials or a
// fragment are refused, as are configured headers that belong to the MCP
// transport itself (LA-NET-01..06). The same URL rule applies to every OAuth
// target. Violations are returned as [*Violation] values that carry the rule
// ID, so the caller can report them in its own error type.
package netpolicy
