package blade

import (
	"context"
	"log/slog"

	"github.com/mcpconform/mcpconform/internal/fault"
	"github.com/mcpconform/mcpconform/reference"
	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// Options configure [NewSession].
type Options struct {
	// MCPServers are the session's servers, in declaration order
	// ([DecodeServers]).
	MCPServers []NamedServer
	// Model answers the session's model requests.
	Model reference.Model
	// Tools are the application's own tools: offered before the MCP
	// tools, in name order (BL-ORD-01, BL-ORD-02), and never shadowed by
	// an MCP tool (BL-NAME-02).
	Tools []reference.Tool
	// Approval is asked what the permission policy, or the permission
	// callback, asks about (the confirmation); nil denies it. alwaysAllow
	// never skips it (BL-PERM-01).
	Approval reference.ApprovalHandler
	// Permission is the tool permission policy; nil asks before every
	// MCP call.
	Permission *reference.Policy
	// PermissionFunc, when set, is the session's permission callback
	// (advanced.permission), asked before every MCP call instead of the
	// Policy: "allow" runs the tool, "ask" asks Approval, anything else
	// denies (BL-PERM-03..05).
	PermissionFunc PermissionFunc
	// Environ is the host's own environment as KEY=VALUE pairs; nil means
	// os.Environ(). A stdio server gets its safe default set and its
	// entry's env.
	Environ []string
	// Logger receives the reference's diagnostics; nil discards them.
	Logger *slog.Logger
	// Clock times the health checks and every timeout; nil is the real
	// clock.
	Clock reference.Clock

	// OAuthProviders map the provider name of a server's oauth block
	// ("github") to the issuer URL of its authorization server: Blade
	// documents the name but not the endpoints (interpretation B-06). A
	// server with oauth on whose provider is not mapped fails to connect.
	// The issuer's origin is the one the flow may contact besides the
	// server's own.
	OAuthProviders map[string]string
	// OAuthRedirectURI is the redirect URI of the authorization code
	// flow: "" means http://localhost:7777/oauth/callback, and the only
	// others are http://127.0.0.1:7777/oauth/callback and
	// http://[::1]:7777/oauth/callback (BL-OAU-03). Any other is refused
	// by [NewSession] with a [reference.KindSecurity] error (BL-OAU-04,
	// BL-OAU-05).
	OAuthRedirectURI string
	// OpenBrowser is the browser step of a login: it shows the user
	// authURL, the authorization server's page, for the server named.
	// The session listens on the redirect URI's port meanwhile and takes
	// the callback there, refusing another state, a state used before
	// (BL-OAU-07) and one older than 5 minutes on Clock (BL-OAU-06);
	// the listener closes once OpenBrowser returned and the callback was
	// taken. ctx ends with the login. Nil fails every login.
	OpenBrowser func(ctx context.Context, server, authURL string) error

	// faults break rules on purpose, for the conformance suite's mutation
	// tests only; nothing outside this module can set them.
	faults fault.Set
}

func init() {
	fault.Register(func(o *Options, s fault.Set) { o.faults = s })
}

// core returns the options of the core host; the servers go separately.
func (o Options) core() core.Options {
	return core.Options{Model: o.Model, Tools: o.Tools, Approval: o.Approval, Permission: o.Permission,
		PermissionFunc: o.PermissionFunc, Environ: o.Environ, Logger: o.Logger, Clock: o.Clock, Faults: o.faults,
		BladeOAuthProviders: o.OAuthProviders, BladeRedirectURI: o.OAuthRedirectURI, OpenBrowser: o.OpenBrowser}
}

// PermissionFunc is a Blade permission callback: it gets the tool's
// exposed name (BL-PERM-05) and answers "allow", "ask" or "deny".
type PermissionFunc = core.PermissionFunc
