package core

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// Options configure [New] and [NewSession]: what the host is given by
// its product package, grouped by what uses it. The product packages
// document each field where their users read it.
type Options struct {
	// The model, and the host's own tools and hooks.
	Model Model
	Tools []Tool
	Hooks Hooks

	// Permissions: the policy and the approval handler, Blade's
	// permission callback (which decides calls instead of the policy),
	// lite-agent's allowlist and dry-run mode.
	Permission     *Policy
	Approval       ApprovalHandler
	PermissionFunc PermissionFunc
	AllowedTools   []string
	DryRun         bool

	// Where servers are declared and how: the working and home
	// directories of the configuration files, which StrictMCPConfig
	// leaves unread; the mcpServers option; the transports allowed; the
	// OAuth bindings.
	Workdir, Home   string
	StrictMCPConfig bool
	MCPServers      []NamedServer
	MCPTransports   []string
	MCPOAuth        map[string]OAuthConfig

	// Blade's OAuth: the issuer of each provider name (B-06), the
	// session's redirect URI ("" is [DefaultBladeRedirect]) and the
	// host's browser step, which shows the user an authorization URL.
	BladeOAuthProviders map[string]string
	BladeRedirectURI    string
	OpenBrowser         func(ctx context.Context, server, authURL string) error

	// What child processes get: the host's environment, and the sandbox
	// command line they start through.
	Environ, Sandbox []string

	// Time, diagnostics, and the faults that break rules on purpose for
	// the conformance suite's mutation tests (internal/fault).
	Clock  Clock
	Logger *slog.Logger
	Faults fault.Set
}

// getenv looks key up in an environment list; the last entry wins, as in
// the process environment.
func getenv(environ []string, key string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(environ[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// resolved returns the options with defaults filled in.
func (o Options) resolved() Options {
	if o.Environ == nil {
		o.Environ = os.Environ()
	}
	if o.Workdir == "" {
		o.Workdir, _ = os.Getwd()
	}
	if o.Home == "" {
		if h := getenv(o.Environ, "HOME"); h != "" {
			o.Home = filepath.Join(h, ".lite-agent")
			// LA-CFG-03: the global file is under ~/.lite-agent.
			if o.Faults.Has(fault.GlobalFileLocation) {
				o.Home = h
			}
		}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	return o
}
