package reference

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Session is the reference host under the Blade profile: a Blade Agent SDK
// session (createServerSession) over the same core as [Agent]. It connects
// its servers when it is created, except disabled ones (BL-CFG-04,
// BL-CFG-06), and offers the runtime API of Blade: [Session.MCPServerStatus],
// [Session.MCPConnect], [Session.MCPDisconnect], [Session.MCPReconnect] and
// [Session.MCPListTools] (BL-RT-*). It reads no configuration file
// (interpretation X-10) and asks no mcp_connect approval: Blade has none.
type Session struct {
	a *Agent
}

// SessionOptions configure [NewSession].
type SessionOptions struct {
	// MCPServers are the session's servers, in declaration order
	// ([DecodeBladeServers]).
	MCPServers []NamedBladeServer
	// Model answers the session's model requests.
	Model Model
	// Tools are the application's own tools: offered before the MCP
	// tools, with the SDK's built-ins, each group in name order (BL-ORD),
	// and never shadowed by an MCP tool (BL-NAME-02).
	Tools []Tool
	// Approval is asked what the permission policy asks about; nil
	// denies it. alwaysAllow never skips it (BL-PERM-01).
	Approval ApprovalHandler
	// Permission is the tool permission policy; nil asks before every
	// MCP call.
	Permission *Policy
	// PermissionFunc, when set, is the session's permission callback
	// (advanced.permission), asked before every MCP call instead of the
	// Policy: "allow" runs the tool, "ask" asks Approval (the
	// confirmation), anything else denies (BL-PERM-03..05).
	PermissionFunc PermissionFunc
	// Environ is the host's own environment, as for [Options.Environ].
	Environ []string
	// Logger receives the reference's diagnostics; nil discards them.
	Logger *slog.Logger
	// Clock times the health checks (and every timeout); nil is the real
	// clock.
	Clock Clock
	// Mutations deliberately break documented behaviours, for mutation
	// testing. Never set it in a real host.
	Mutations []Mutation
}

// Blade statuses of [McpServerStatus] (BL-RT-02).
const (
	BladeConnected    = "connected"
	BladeDisconnected = "disconnected"
	BladeConnecting   = "connecting"
	BladeError        = "error"
)

// McpServerStatus is one entry of [Session.MCPServerStatus].
type McpServerStatus struct {
	Name string `json:"name"`
	// Status is connected, disconnected, connecting or error.
	Status string `json:"status"`
	// ToolCount is the number of the server's tools offered to the model.
	ToolCount int `json:"toolCount"`
	// Tools are those tools' exposed names, mcp__<server>__<tool>.
	Tools []string `json:"tools,omitempty"`
	// ConnectedAt is when the current connection was made; zero when
	// there is none.
	ConnectedAt time.Time `json:"connectedAt,omitzero"`
	// Error says why the last connection attempt failed.
	Error string `json:"error,omitempty"`
}

// McpToolInfo is one entry of [Session.MCPListTools].
type McpToolInfo struct {
	// Name is the exposed name, the one the model and the permission
	// policy see (BL-NAME-06, interpretation B-12).
	Name        string `json:"name"`
	Description string `json:"description"`
	ServerName  string `json:"serverName"`
}

// NewSession builds a Blade session: it validates every server and
// connects those not disabled before it returns. A server that fails to
// connect, or whose name collides with an earlier one after normalization
// (BL-NAME-03), does not fail the session: it reports status error
// (interpretation B-08). An invalid configuration is an error and starts
// nothing.
func NewSession(ctx context.Context, opts SessionOptions) (*Session, error) {
	a, err := newAgent(Options{
		StrictMCPConfig: true,
		Model:           opts.Model,
		Tools:           opts.Tools,
		Approval:        opts.Approval,
		Permission:      opts.Permission,
		Environ:         opts.Environ,
		Logger:          opts.Logger,
		Clock:           opts.Clock,
		Mutations:       opts.Mutations,
	}, true)
	if err != nil {
		return nil, err
	}
	a.permission = opts.PermissionFunc
	d := decoder{source: "mcpServers option", mut: a.mut}
	var names []string
	var servers []*server
	if a.mut.has(MutBladeIgnoreServers) {
		opts.MCPServers = nil
	}
	for _, ns := range opts.MCPServers {
		c := ns.Config
		field := "mcpServers." + ns.Name
		mutateBlade(&c, a.mut)
		if err := validateAlias(ns.Name, a.mut); err != nil {
			a.Close()
			return nil, err.(*Error).at(d.source, field)
		}
		if err := d.validateBlade(&c, field); err != nil {
			a.Close()
			return nil, err
		}
		s := &server{name: ns.Name, cfg: c.ServerConfig, blade: &c, source: SourceOption, where: d.source, status: StatusConfigured}
		if other := bladeCollision(names, ns.Name); other != "" && !a.mut.has(MutBladeNoKeyCollision) {
			s.collision = &Error{Kind: KindName, Rule: "BL-NAME-03", Source: ns.Name, Msg: fmt.Sprintf("server name %q collides with %q after normalization", ns.Name, other)}
			s.status, s.err = StatusFailed, s.collision
		}
		names = append(names, ns.Name)
		servers = append(servers, s)
	}
	a.reg.servers = servers
	if !a.mut.has(MutBladeLazyConnect) {
		for _, s := range servers {
			if s.status == StatusConfigured && (!s.blade.Disabled || a.mut.has(MutBladeConnectDisabled)) {
				_ = a.reg.bladeConnect(ctx, s) // its status tells
			}
		}
	}
	return &Session{a: a}, nil
}

// Send runs one turn, offering the tools of the servers connected now.
func (s *Session) Send(ctx context.Context, prompt string) (*Response, error) {
	return s.a.Send(ctx, prompt)
}

// Close closes every connection and reaps every child process.
func (s *Session) Close() error { return s.a.Close() }

// MCPServerStatus reports every configured server (BL-RT-01..04): local
// state, no I/O.
func (s *Session) MCPServerStatus() []McpServerStatus {
	r := s.a.reg
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]McpServerStatus, 0, len(r.servers))
	for _, sv := range r.servers {
		st := McpServerStatus{Name: sv.name, Status: bladeStatus(sv, s.a.mut)}
		if s.a.mut.has(MutBladeStatusOnlyConnected) && st.Status != BladeConnected {
			continue
		}
		if sv.conn != nil {
			for _, t := range sv.conn.tools {
				st.Tools = append(st.Tools, t.full)
			}
			st.ToolCount = len(st.Tools)
			st.ConnectedAt = sv.conn.connectedAt
			if s.a.mut.has(MutBladeToolCountOff) {
				st.ToolCount++
			}
		}
		if sv.err != nil && st.Status == BladeError {
			st.Error = sv.err.Error()
		}
		out = append(out, st)
	}
	return out
}

// bladeStatus maps a server's state to Blade's vocabulary.
func bladeStatus(s *server, m mutations) string {
	switch s.status {
	case StatusConnected, StatusStale:
		if s.conn != nil && s.conn.isLost() {
			return BladeError
		}
		return BladeConnected
	case StatusConnecting:
		if m.has(MutBladeNoConnecting) {
			return BladeDisconnected
		}
		return BladeConnecting
	case StatusFailed:
		switch {
		case m.has(MutBladeErrorAsDisconnected):
			return BladeDisconnected
		case m.has(MutBladeLiteAgentStatuses):
			return string(StatusFailed)
		}
		return BladeError
	}
	if m.has(MutBladeLiteAgentStatuses) {
		return string(StatusConfigured)
	}
	return BladeDisconnected
}

// MCPListTools lists the tools of every connected server, and only those
// (BL-RT-09, BL-RT-10).
func (s *Session) MCPListTools() []McpToolInfo {
	r := s.a.reg
	r.mu.Lock()
	defer r.mu.Unlock()
	out := []McpToolInfo{}
	for _, sv := range r.servers {
		if sv.conn == nil && !s.a.mut.has(MutBladeListDisconnected) {
			continue
		}
		tools := []*tool(nil)
		if sv.conn != nil {
			tools = sv.conn.tools
		} else {
			tools = sv.lastTools
		}
		for _, t := range tools {
			info := McpToolInfo{Name: t.full, Description: t.description, ServerName: sv.name}
			if s.a.mut.has(MutBladeListToolsServerName) {
				info.ServerName = t.raw
			}
			out = append(out, info)
		}
	}
	return out
}

// MCPConnect connects a server that is not connected (BL-CFG-05,
// BL-RT-06); a connected server is left as it is. While it connects the
// server reports status connecting (BL-RT-05). A failed attempt leaves
// status error and is returned.
func (s *Session) MCPConnect(ctx context.Context, name string) error {
	ctx, done, err := s.a.begin(ctx, "mcpConnect")
	if err != nil {
		return err
	}
	defer done()
	sv, err := s.a.reg.byName(name, "mcpConnect")
	if err != nil {
		return err
	}
	switch {
	case s.a.reg.isConnected(sv), s.a.mut.has(MutBladeConnectNoop):
		return nil
	case sv.blade.Disabled && s.a.mut.has(MutBladeDisabledStays):
		return &Error{Kind: KindConfig, Rule: "BL-CFG-05", Source: name, Msg: "the server is disabled (mutated)"}
	}
	return s.a.reg.bladeConnect(ctx, sv)
}

// MCPDisconnect closes a server's connection, reaping its child process;
// the server stays configured, as disconnected, and its tools are no
// longer offered (BL-RT-07). A server not connected is left as it is
// (interpretation B-09).
func (s *Session) MCPDisconnect(ctx context.Context, name string) error {
	_, done, err := s.a.begin(ctx, "mcpDisconnect")
	if err != nil {
		return err
	}
	defer done()
	sv, err := s.a.reg.byName(name, "mcpDisconnect")
	if err != nil {
		return err
	}
	return s.a.reg.bladeDisconnect(sv)
}

// MCPReconnect closes a server's connection, if any, and connects it
// again: a new process or session (BL-RT-08).
func (s *Session) MCPReconnect(ctx context.Context, name string) error {
	ctx, done, err := s.a.begin(ctx, "mcpReconnect")
	if err != nil {
		return err
	}
	defer done()
	sv, err := s.a.reg.byName(name, "mcpReconnect")
	if err != nil {
		return err
	}
	if s.a.mut.has(MutBladeReconnectNoop) && s.a.reg.isConnected(sv) {
		return nil
	}
	if err := s.a.reg.bladeDisconnect(sv); err != nil {
		return err
	}
	return s.a.reg.bladeConnect(ctx, sv)
}

// byName finds a configured server (interpretation B-16: an unknown name
// is an error).
func (r *Registry) byName(name, op string) (*server, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := slices.IndexFunc(r.servers, func(s *server) bool { return s.name == name })
	if i < 0 {
		return nil, &Error{Kind: KindNotFound, Rule: "BL-RT-06", Source: op, Msg: fmt.Sprintf("no server is configured as %q", name)}
	}
	return r.servers[i], nil
}

// bladeConnect connects s, reporting connecting meanwhile, and records
// the outcome: connected with its connection time, or error.
func (r *Registry) bladeConnect(ctx context.Context, s *server) error {
	if s.collision != nil {
		// Never connected, whatever the runtime API asks (BL-NAME-03).
		return s.collision
	}
	r.mu.Lock()
	s.status, s.err = StatusConnecting, nil
	r.mu.Unlock()
	var conn *connection
	var err error
	if s.blade.OAuth.enabled() {
		err = errBladeOAuth(s.name)
	} else {
		conn, err = r.connectAndCommit(ctx, s, false)
	}
	if err != nil {
		r.fail(s, err)
		return err
	}
	r.startHealth(s, conn)
	return nil
}

// bladeDisconnect closes s's connection, if any, and marks it
// disconnected.
func (r *Registry) bladeDisconnect(s *server) error {
	r.mu.Lock()
	if s.conn == nil {
		// Not connected: left as it is, failed or not (B-09).
		r.mu.Unlock()
		return nil
	}
	conn := r.detachLocked(s, StatusConfigured, nil)
	r.mu.Unlock()
	if r.agent.mut.has(MutBladeDisconnectKeepsProcess) {
		r.agent.keepLeaked(conn)
		return nil
	}
	return conn.close()
}

// detachLocked takes s's connection away, remembering its tools, and
// gives s a status and error; r.mu must be held.
func (r *Registry) detachLocked(s *server, status Status, err error) *connection {
	conn := s.conn
	s.lastTools = conn.tools
	s.conn, s.status, s.err = nil, status, err
	return conn
}

// isConnected reports whether s has a connection.
func (r *Registry) isConnected(s *server) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return s.conn != nil
}

// admitBlade checks a candidate connection's tools under the Blade
// profile: two tools whose names are equal after normalization fail the
// server at registration (BL-NAME-03). r.mu must be held.
func (r *Registry) admitBlade(s *server, conn *connection) error {
	m := r.agent.mut
	if m.has(MutBladeDropSameName) {
		taken := map[string]bool{}
		for _, o := range r.servers {
			if o != s && o.conn != nil {
				for _, t := range o.conn.tools {
					taken[t.raw] = true
				}
			}
		}
		conn.tools = slices.DeleteFunc(conn.tools, func(t *tool) bool { return taken[t.raw] })
	}
	if m.has(MutBladeNoKeyCollision) {
		return nil
	}
	var names []string
	for _, t := range conn.tools {
		if other := bladeCollision(names, t.raw); other != "" {
			return &Error{Kind: KindName, Rule: "BL-NAME-03", Source: s.name, Msg: fmt.Sprintf("tools %q and %q of server %q collide after normalization", other, t.raw, s.name)}
		}
		names = append(names, t.raw)
	}
	return nil
}

// alwaysAllowed reports whether a Blade server lists tool in alwaysAllow.
// It serves only [MutBladeAlwaysAllowGrants]: alwaysAllow is metadata and
// authorizes nothing (BL-CFG-07, BL-PERM-01).
func (a *Agent) alwaysAllowed(serverName, tool string) bool {
	sv, err := a.reg.byName(serverName, "")
	return err == nil && sv.blade != nil && slices.Contains(sv.blade.AlwaysAllow, tool)
}

// mutateBlade applies the mutations that change how a Blade entry is
// used.
func mutateBlade(c *BladeServerConfig, m mutations) {
	switch {
	case m.has(MutBladeDropArgs) && c.transport() == TransportStdio:
		c.Args = nil
	case m.has(MutBladeDropEnv) && c.transport() == TransportStdio:
		c.Env = nil
	case m.has(MutBladeSSEAsHTTP) && c.Type == TransportSSE:
		c.Type = TransportHTTP
	case m.has(MutBladeSSENoHeaders) && c.Type == TransportSSE:
		c.Headers = nil
	case m.has(MutBladeHTTPAsSSE) && c.Type == TransportHTTP:
		c.Type = TransportSSE
	case m.has(MutBladeHTTPNoHeaders) && c.Type == TransportHTTP:
		c.Headers = nil
	}
}

// AwaitIdle waits until no run or runtime operation is active.
func (s *Session) AwaitIdle(ctx context.Context) error { return s.a.AwaitIdle(ctx) }

// sseTransport is go-sdk's HTTP+SSE client transport with a stream that
// outlives the connect call: go-sdk ties the GET of the event stream to
// the context given to Connect, which the reference bounds by the connect
// timeout. The stream is ended by closing the connection instead; ctx
// still bounds connecting.
type sseTransport struct{ t *mcp.SSEClientTransport }

func (s sseTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	c, err := s.t.Connect(lctx)
	if !stop() {
		// ctx ended while connecting.
		cancel()
		if err == nil {
			c.Close()
		}
		return nil, context.Cause(ctx)
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return &sseConnection{Connection: c, cancel: cancel}, nil
}

// sseConnection ends its event stream when it closes.
type sseConnection struct {
	mcp.Connection
	cancel context.CancelFunc
}

func (c *sseConnection) Close() error {
	err := c.Connection.Close()
	c.cancel()
	return err
}

// PermissionFunc is a Blade permission callback: it gets the tool's
// exposed name (BL-PERM-05) and answers "allow", "ask" or "deny".
type PermissionFunc func(ctx context.Context, toolName string) (string, error)

// bladePermission asks the session's permission callback about a call
// and turns its answer into a verdict: allow runs the tool without
// confirmation (BL-PERM-03), ask needs the confirmation (BL-PERM-04),
// anything else, or a failed callback, denies.
func (a *Agent) bladePermission(ctx context.Context, name string, req ApprovalRequest) verdict {
	toolName := name
	if a.mut.has(MutBladePermissionRawName) {
		toolName = req.Tool
	}
	d, err := a.permission(ctx, toolName)
	if err != nil {
		return verdictDeny
	}
	switch {
	case d == "allow" && a.mut.has(MutBladeAllowAsks), d == "ask" && !a.mut.has(MutBladeAskAllows):
		return verdictAsk
	case d == "allow", d == "ask":
		return verdictAllow
	}
	return verdictDeny
}

// compareCodeUnits orders strings as JavaScript's default sort does, by
// UTF-16 code units (interpretation B-14). It differs from Go's byte
// order, which is code-point order, where a character beyond the BMP
// (two surrogates, from U+D800) meets one from U+E000 to U+FFFF.
func compareCodeUnits(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// bladeOrder orders a session's tools as Blade sends them to the model:
// the built-in and application tools first, then the MCP tools, each group
// sorted by name in UTF-16 code-unit order, whatever the order of configuration
// or connection (BL-ORD-01..03, interpretation B-14). An MCP tool never
// takes a built-in or application tool's name (BL-NAME-02).
func (a *Agent) bladeOrder(tools []entry) []entry {
	m := a.mut
	var own, mcp []entry
	for _, e := range tools {
		if e.mcp != nil {
			mcp = append(mcp, e)
		} else {
			own = append(own, e)
		}
	}
	if m.has(MutBladeShadowOwnTools) {
		for i, e := range mcp {
			if j := slices.IndexFunc(own, func(o entry) bool { return o.spec.Name == e.mcp.raw }); j >= 0 {
				mcp[i].spec.Name = e.mcp.raw
				own = slices.Delete(own, j, j+1)
			}
		}
	}
	byName := func(a, b entry) int { return compareCodeUnits(a.spec.Name, b.spec.Name) }
	ownOrder, mcpOrder := byName, byName
	if m.has(MutBladeCodePointOrder) {
		ownOrder = func(a, b entry) int { return strings.Compare(a.spec.Name, b.spec.Name) }
	}
	switch {
	case m.has(MutBladeCaseInsensitiveOrder):
		mcpOrder = func(a, b entry) int {
			return strings.Compare(strings.ToLower(a.spec.Name), strings.ToLower(b.spec.Name))
		}
	case m.has(MutBladeOrderByServer):
		mcpOrder = func(a, b entry) int {
			return cmp.Or(strings.Compare(a.mcp.server, b.mcp.server), strings.Compare(a.mcp.raw, b.mcp.raw))
		}
	}
	if !m.has(MutBladeUnsortedOwnTools) {
		slices.SortStableFunc(own, ownOrder)
	}
	if !m.has(MutBladeUnsortedMCPTools) {
		slices.SortStableFunc(mcp, mcpOrder)
	}
	if m.has(MutBladeMCPFirst) {
		return append(mcp, own...)
	}
	return append(own, mcp...)
}
