package blade

import (
	"context"

	"github.com/mcpconform/mcpconform/internal/fault"
	"github.com/mcpconform/mcpconform/reference"
	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// Session is a Blade Agent SDK session over the reference core.
type Session struct {
	h      *core.Host
	faults fault.Set
}

// NewSession builds a session (createServerSession): it validates every
// server and connects those not disabled before it returns. A server that
// fails to connect, or whose name collides with an earlier one after
// normalization (BL-NAME-03), does not fail the session: it reports status
// error (interpretation B-08). An invalid configuration is an error, and
// starts nothing.
func NewSession(ctx context.Context, opts Options) (*Session, error) {
	h, err := core.NewSession(ctx, opts.core(), opts.MCPServers)
	if err != nil {
		return nil, err
	}
	return &Session{h: h, faults: opts.faults}, nil
}

// Send runs one turn, offering the tools of the servers connected now, in
// Blade's order.
func (s *Session) Send(ctx context.Context, prompt string) (*reference.Response, error) {
	return s.h.Send(ctx, prompt)
}

// AwaitIdle waits until no run or runtime operation is active, or ctx
// ends.
func (s *Session) AwaitIdle(ctx context.Context) error { return s.h.AwaitIdle(ctx) }

// Close stops the health checks, closes every connection and reaps every
// child process. It is idempotent.
func (s *Session) Close() error { return s.h.Close() }

// MCPServerStatus reports every configured server (mcpServerStatus(),
// BL-RT-01..04): local state, no I/O.
func (s *Session) MCPServerStatus() []ServerStatus { return statuses(s.h.ServerStates(), s.faults) }

// MCPListTools lists the tools of every connected server, and only those
// (mcpListTools(), BL-RT-09, BL-RT-10).
func (s *Session) MCPListTools() []ToolInfo { return tools(s.h.ServerStates(), s.faults) }

// MCPConnect connects a server that is not connected (mcpConnect(),
// BL-CFG-05, BL-RT-06); a connected server is left as it is. While it
// connects the server reports [StatusConnecting] (BL-RT-05). A failed
// attempt leaves [StatusError] and is returned; an unknown name is a
// [reference.KindNotFound] error (interpretation B-16).
func (s *Session) MCPConnect(ctx context.Context, name string) error {
	return s.h.MCPConnect(ctx, name)
}

// MCPDisconnect closes a server's connection, reaping its child process;
// the server stays configured, as disconnected, and its tools are no
// longer offered (mcpDisconnect(), BL-RT-07). A server not connected is
// left as it is (interpretation B-09).
func (s *Session) MCPDisconnect(ctx context.Context, name string) error {
	return s.h.MCPDisconnect(ctx, name)
}

// MCPReconnect closes a server's connection, if any, and connects it
// again: a new process or session (mcpReconnect(), BL-RT-08).
func (s *Session) MCPReconnect(ctx context.Context, name string) error {
	return s.h.MCPReconnect(ctx, name)
}
