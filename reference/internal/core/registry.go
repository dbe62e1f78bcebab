package core

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// Status is a server's local state, as [Registry.List] reports it.
type Status string

// The statuses of a server.
const (
	// StatusConfigured: declared, not connected yet.
	StatusConfigured Status = "configured"
	// StatusConnected: connected and discovered; its tools are offered.
	StatusConnected Status = "connected"
	// StatusStale: its catalog changed or its connection was lost; it is
	// refreshed when the agent is idle.
	StatusStale Status = "stale"
	// StatusFailed: its last connection attempt failed; it is tried again
	// at the next run.
	StatusFailed Status = "failed"
	// StatusConnecting: a connection is being made (the Blade profile's
	// runtime API only; a lite-agent list() never shows it).
	StatusConnecting Status = "connecting"
)

// server is one registry entry.
type server struct {
	name   string
	cfg    ServerConfig
	source Source
	where  string // the file, "mcpServers option" or "register"
	status Status
	err    error
	conn   *connection
	// hidden marks an unregistered server whose name stays taken
	// (fault.UnregisterKeepsName only).
	hidden bool
	// refreshing marks a stale server being connected again.
	refreshing bool
	// connected says the server was connected once: its OAuth never logs
	// in interactively again (LA-OAU-37).
	connected bool
	// blade is the server's Blade configuration (Blade profile only);
	// collision, when set, is why its name may never connect
	// (BL-NAME-03); lastTools are the tools it had before it was
	// disconnected.
	blade     *BladeServerConfig
	collision error
	lastTools []*tool
	// health is a Blade server's health status (BL-HC-04); "" until it
	// first connects.
	health Health
}

// Registry is the agent's one registry of MCP servers, fed by the global
// file, the project file, the mcpServers option and [Registry.Register]
// (LA-REG-01). Only the agent that owns it changes it, and only while idle.
type Registry struct {
	// agent is the root agent that owns the registry; caller is the agent
	// whose [Host.MCP] this is: the root, or one of its sub-agents, which
	// share the root's servers but may not change them (LA-REG-14).
	agent, caller *Host
	*registryState
}

// registryState is what a root and its sub-agents share.
type registryState struct {
	mu      sync.Mutex
	servers []*server // in declaration order
	// providers are the OAuth providers bound to an active connection,
	// with the server that holds each (LA-OAU-10).
	providers map[OAuthProvider]string
}

// ServerInfo is one entry of [Registry.List]: local state only, never
// credentials (LA-REG-09, LA-REG-11).
type ServerInfo struct {
	Name   string `json:"name"`
	Source Source `json:"source"`
	Status Status `json:"status"`
	// Transport is "stdio" or "http".
	Transport string `json:"transport"`
	// Target is what the server runs or contacts: the command for stdio,
	// the URL without its query for http. Never env, headers or tokens.
	Target string `json:"target"`
	// Tools are the full names of the server's tools, as the model sees
	// them; empty until the server is connected.
	Tools []string `json:"tools"`
	// Error describes the last failure of a failed server.
	Error string `json:"error,omitempty"`
}

// List returns the registry's local state (agent.mcp.list()). It makes no
// network call and no IPC, and works while servers are down (LA-REG-10).
func (r *Registry) List() []ServerInfo {
	if r.agent.faults.Has(fault.ListPings) {
		r.ping()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]ServerInfo, 0, len(r.servers))
	for _, s := range r.servers {
		if s.hidden {
			continue
		}
		info := ServerInfo{Name: s.name, Source: s.source, Status: s.status, Transport: s.cfg.transport(), Target: target(s.cfg), Tools: []string{}}
		// LA-REG-09: each server's own source.
		if r.agent.faults.Has(fault.WrongSource) {
			info.Source = SourceInstance
		}
		// LA-REG-11: never env, headers or args.
		if r.agent.faults.Has(fault.ListLeaksConfig) {
			info.Target = fmt.Sprintf("%s env=%v headers=%v", info.Target, s.cfg.Env, s.cfg.Headers)
		}
		if s.conn != nil {
			for _, t := range s.conn.tools {
				info.Tools = append(info.Tools, t.full)
			}
			// LA-OAU-29: never a token.
			if s.conn.auth != nil && r.agent.faults.Has(fault.LeakTokenInList) {
				info.Target += " bearer=" + s.conn.auth.bearer()
			}
		}
		if s.err != nil {
			info.Error = s.err.Error()
		}
		out = append(out, info)
	}
	return out
}

// target describes what an entry runs or contacts, without credentials.
func target(c ServerConfig) string {
	if c.transport() == TransportHTTP {
		if u, err := url.Parse(c.URL); err == nil {
			u.RawQuery, u.ForceQuery, u.User = "", false, nil
			return u.String()
		}
		return ""
	}
	return strings.Join(append([]string{c.Command}, c.Args...), " ")
}

// ping lists the tools of every connected server: network I/O that
// [Registry.List] must never do. It exists only for [fault.ListPings].
func (r *Registry) ping() {
	r.mu.Lock()
	var conns []*connection
	for _, s := range r.servers {
		if s.conn != nil {
			conns = append(conns, s.conn)
		}
	}
	r.mu.Unlock()
	for _, c := range conns {
		ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeout)
		_, _ = c.session.ListTools(ctx, nil)
		cancel()
	}
}

// Register adds a server (agent.mcp.register()). When it returns nil the
// connection was approved, made and discovered, and the server and its
// tools are in the registry; on any failure nothing changed and the
// connection is released (LA-REG-07, LA-REG-08). An existing name is an
// error: replacing a server means [Registry.Unregister] first (LA-REG-05,
// LA-REG-06).
func (r *Registry) Register(ctx context.Context, name string, cfg ServerConfig) error {
	a := r.agent
	if err := r.caller.checkRegistryChange(); err != nil {
		return err
	}
	ctx, done, err := a.beginChange(ctx, "register")
	if err != nil {
		return err
	}
	defer done()
	// LA-CFG-08: values are used literally, never interpolated.
	if a.faults.Has(fault.Interpolate) {
		cfg = interpolate(cfg, a.opts.Environ)
	}
	if err := a.validateServer(name, &cfg, "register", "entry"); err != nil {
		return err
	}
	if err := r.checkFree(name); err != nil {
		return err
	}
	s := &server{name: name, cfg: cfg, source: SourceInstance, where: "register", status: StatusConfigured}
	// LA-REG-07: register() returns once the server is connected and discovered.
	if a.faults.Has(fault.LazyDiscovery) {
		return r.registerLazily(s)
	}
	_, err = r.connectAndCommit(ctx, s, true)
	if err != nil {
		// LA-REG-08: a failed registration leaves nothing.
		if a.faults.Has(fault.KeepFailedEntry) {
			s.status, s.err = StatusFailed, err
			r.mu.Lock()
			r.servers = append(r.servers, s)
			r.mu.Unlock()
		}
		return err
	}
	return nil
}

// registerLazily adds the server as configured and returns: it is
// authorized, connected and discovered only at the next run, like a
// server of a configuration file. It exists only for [fault.LazyDiscovery],
// whose register() returns before discovery every time: nothing it should
// have done by then happens in the background, so no scenario's verdict
// depends on how fast the background was.
func (r *Registry) registerLazily(s *server) error {
	r.mu.Lock()
	r.servers = append(r.servers, s)
	r.mu.Unlock()
	return nil
}

// checkFree fails if name is taken or the registry is full.
func (r *Registry) checkFree(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := slices.IndexFunc(r.servers, func(s *server) bool { return s.name == name })
	if i >= 0 {
		// LA-REG-05: register() never replaces a server.
		if r.agent.faults.Has(fault.ReRegisterReplaces) {
			old := r.servers[i]
			r.servers = slices.Delete(r.servers, i, i+1)
			if old.conn != nil {
				go old.conn.close()
			}
			return nil
		}
		return &Error{Kind: KindConflict, Rule: "LA-REG-05", Source: "register", Msg: fmt.Sprintf("server %q is already registered (from %s); unregister it first to replace it", name, r.servers[i].where)}
	}
	limit := MaxServers
	// LA-LIM-01: at most 32 servers.
	if r.agent.faults.Has(fault.ServerLimit) {
		limit++
	}
	if len(r.servers) >= limit {
		return &Error{Kind: KindLimit, Rule: "LA-LIM-01", Source: "register", Msg: fmt.Sprintf("cannot register %q: the registry already holds %d servers, the most allowed", name, MaxServers)}
	}
	return nil
}

// connectAndCommit authorizes, connects and discovers s and commits the
// connection (insert adds s to the registry); on failure nothing is
// committed.
func (r *Registry) connectAndCommit(ctx context.Context, s *server, insert bool) (*connection, error) {
	conn, err := r.agent.connect(ctx, s)
	if err == nil {
		err = r.commit(s, conn, insert)
	}
	return conn, err
}

// commit makes a discovered connection part of the registry, after
// checking its tool names against every other server's (LA-NAME-09) and the
// size of the whole catalog (LA-LIM-04). insert adds s to the registry; a
// server already in it is updated in place. On failure the connection is
// closed and the registry is unchanged.
func (r *Registry) commit(s *server, conn *connection, insert bool) error {
	r.mu.Lock()
	err := r.admit(s, conn, insert)
	if err == nil {
		s.conn, s.status, s.err, s.connected = conn, StatusConnected, nil, true
		conn.connectedAt = time.Now()
		if insert {
			r.servers = append(r.servers, s)
		}
		m := r.agent.faults
		conn.mu.Lock()
		// LA-CAT-03: a lost connection makes the server stale.
		if !m.Has(fault.NoStaleOnLoss) {
			conn.onLost = func() { r.markStale(s, conn) }
		}
		// LA-CAT-02: so does a changed tool list.
		if !m.Has(fault.IgnoreListChanged) {
			conn.onChange = func() { r.markStale(s, conn) }
		}
		conn.mu.Unlock()
	}
	r.mu.Unlock()
	if err == nil && conn.isLost() {
		r.markStale(s, conn) // it was lost before onLost was set
	}
	if err != nil {
		conn.close()
		return err
	}
	return nil
}

// admit checks a candidate connection against the rest of the registry.
// r.mu must be held.
func (r *Registry) admit(s *server, conn *connection, insert bool) error {
	m := r.agent.faults
	if insert && slices.ContainsFunc(r.servers, func(o *server) bool { return o.name == s.name }) {
		return &Error{Kind: KindConflict, Rule: "LA-REG-05", Source: "register", Msg: fmt.Sprintf("server %q was registered meanwhile", s.name)}
	}
	taken := map[string]string{}
	size := conn.catalogBytes()
	for _, o := range r.servers {
		if o == s || o.conn == nil {
			continue
		}
		for _, t := range o.conn.tools {
			taken[t.full] = o.name
		}
		size += o.conn.catalogBytes()
	}
	if r.agent.profile.NormalizedNames {
		if err := r.admitNormalized(s, conn); err != nil {
			return err
		}
	}
	// LA-NAME-09: a full name taken by another server fails the candidate.
	if !m.Has(fault.SkipCollisionCheck) {
		for _, t := range conn.tools {
			if other, ok := taken[t.full]; ok {
				return &Error{Kind: KindName, Rule: r.agent.profile.Rules.Collision, Source: s.name, Msg: fmt.Sprintf("tool %q of server %q has the full name %q, already taken by server %q", t.raw, s.name, t.full, other)}
			}
		}
	}
	limit := MaxCatalogBytes
	// LA-LIM-04: a catalog of at most 512 KiB.
	if m.Has(fault.CatalogLimit) {
		limit = 2 * MaxCatalogBytes
	}
	if size > limit {
		return &Error{Kind: KindLimit, Rule: "LA-LIM-04", Source: s.name, Msg: fmt.Sprintf("with server %q the tool catalog would be %d bytes; at most %d (512 KiB)", s.name, size, MaxCatalogBytes)}
	}
	return nil
}

// Unregister removes a server and closes its connection
// (agent.mcp.unregister()). Configuration files are not touched
// (LA-REG-12, LA-REG-13); the name is free again at once.
func (r *Registry) Unregister(ctx context.Context, name string) error {
	a := r.agent
	if err := r.caller.checkRegistryChange(); err != nil {
		return err
	}
	_, done, err := a.beginChange(ctx, "unregister")
	if err != nil {
		return err
	}
	defer done()
	r.mu.Lock()
	i := slices.IndexFunc(r.servers, func(s *server) bool { return s.name == name && !s.hidden })
	if i < 0 {
		r.mu.Unlock()
		return &Error{Kind: KindNotFound, Rule: "LA-REG-12", Source: "unregister", Msg: fmt.Sprintf("no server is registered as %q", name)}
	}
	s := r.servers[i]
	// LA-REG-06: the name is free again at once.
	if a.faults.Has(fault.UnregisterKeepsName) {
		s.hidden = true
	} else {
		r.servers = slices.Delete(r.servers, i, i+1)
	}
	conn := s.conn
	s.conn = nil
	r.mu.Unlock()
	// LA-REG-13: configuration files are never written.
	if a.faults.Has(fault.UnregisterEditsFile) && (s.source == SourceProject || s.source == SourceGlobal) {
		removeFromFile(s.where, name)
	}
	if conn == nil {
		return nil
	}
	// LA-REG-12: unregister() closes the connection.
	if a.faults.Has(fault.UnregisterKeepsOpen) {
		a.keepLeaked(conn)
		return nil
	}
	return conn.close()
}

// connectPending connects every server that is declared but not connected,
// in declaration order, before a run asks the model anything (LA-CFG-12).
// A server that fails is marked failed and tried again at the next run;
// the others are unaffected (interpretation A-03). The joined failures are
// returned.
func (r *Registry) connectPending(ctx context.Context) error {
	a := r.agent
	r.mu.Lock()
	var pending []*server
	for _, s := range r.servers {
		if s.hidden {
			continue
		}
		// LA-CFG-12: a connected server is not connected again.
		if s.status == StatusConnected && a.faults.Has(fault.ReconnectEverySend) {
			old := s.conn
			s.conn, s.status = nil, StatusConfigured
			defer old.close()
		}
		// LA-CAT-05: a stale server is connected again when idle.
		if s.status == StatusStale && s.conn != nil && !a.faults.Has(fault.NeverRefresh) {
			// A stale server is unregistered and registered again:
			// closed, then connected and authorized afresh (LA-CAT-05,
			// LA-CAT-06).
			old := s.conn
			s.conn, s.status, s.refreshing = nil, StatusConfigured, true
			defer old.close()
		}
		if s.status != StatusConnected && s.status != StatusStale {
			pending = append(pending, s)
		}
	}
	r.mu.Unlock()
	// LA-CFG-13: no servers, no mcp_connect.
	if len(pending) == 0 && a.faults.Has(fault.PhantomConnect) {
		_ = a.authorize(ctx, ConnectCapability, ApprovalRequest{Capability: ConnectCapability})
	}
	var errs []error
	for _, s := range pending {
		// LA-CFG-10: entries are validated at construction, not when connecting.
		if a.faults.Has(fault.LateValidation) {
			if err := a.validateServer(s.name, &s.cfg, s.where, "mcpServers."+s.name); err != nil {
				r.fail(s, err)
				errs = append(errs, err)
				continue
			}
		}
		if _, err := r.connectAndCommit(ctx, s, false); err != nil {
			r.fail(s, err)
			errs = append(errs, err)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return errors.Join(errs...)
}

// markStale marks s stale if conn is still its connection: its catalog can
// no longer be trusted, and it is connected again when the agent is next
// idle (LA-CAT-03, LA-CAT-05).
func (r *Registry) markStale(s *server, conn *connection) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.conn == conn && s.status == StatusConnected {
		s.status = StatusStale
	}
}

// fail records a failed connection attempt of s.
func (r *Registry) fail(s *server, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s.status, s.err = StatusFailed, err
}

// catalog returns the tools of every connected server, in declaration
// order: the fixed catalog of one run.
func (r *Registry) catalog() []*tool {
	r.mu.Lock()
	defer r.mu.Unlock()
	var tools []*tool
	for _, s := range r.servers {
		if s.conn != nil && !s.hidden {
			tools = append(tools, s.conn.tools...)
		}
	}
	return tools
}

// takeAll empties the registry's connections for Close.
func (r *Registry) takeAll() []*connection {
	r.mu.Lock()
	defer r.mu.Unlock()
	var conns []*connection
	for _, s := range r.servers {
		if s.conn != nil {
			conns = append(conns, s.conn)
			s.conn = nil
		}
	}
	return conns
}

// reconnect closes a server's connection and connects it again at once.
// It exists only for [fault.RetryOnce]: the reference reconnects a lost
// server when the agent is idle, never in the middle of a run.
func (r *Registry) reconnect(ctx context.Context, alias string) (*connection, error) {
	r.mu.Lock()
	i := slices.IndexFunc(r.servers, func(s *server) bool { return s.name == alias })
	if i < 0 {
		r.mu.Unlock()
		return nil, newError(KindNotFound, "", "no server %q", alias)
	}
	s := r.servers[i]
	old := s.conn
	s.conn, s.status = nil, StatusConfigured
	r.mu.Unlock()
	if old != nil {
		old.close()
	}
	return r.connectAndCommit(ctx, s, false)
}

// instructions joins the instructions of every connected server. It
// serves only [fault.InjectInstructions]: the reference never gives them to
// the model (LA-SEC-12).
func (r *Registry) instructions() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, s := range r.servers {
		if s.conn != nil && s.conn.session != nil {
			out = append(out, s.conn.session.InitializeResult().Instructions)
		}
	}
	return strings.Join(out, "\n")
}

// relist lists the tools of every connected server again and swaps them
// in at once. It serves only [fault.LiveCatalog] and [fault.SwapSchemas]: the
// reference keeps a run's catalog and refreshes stale servers when idle
// (LA-CAT-01, LA-CAT-04).
func (r *Registry) relist(ctx context.Context) {
	r.mu.Lock()
	servers := slices.Clone(r.servers)
	r.mu.Unlock()
	for _, s := range servers {
		conn := s.conn
		if conn == nil || conn.session == nil {
			continue
		}
		res, err := conn.session.ListTools(ctx, nil)
		if err != nil {
			continue
		}
		var tools []*tool
		for _, mt := range res.Tools {
			t, err := newTool(s.name, mt, conn.faults)
			if err != nil {
				continue
			}
			t.conn = conn
			tools = append(tools, t)
		}
		r.mu.Lock()
		conn.tools = tools
		r.mu.Unlock()
	}
}
