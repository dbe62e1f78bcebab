package core

import (
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// offlineAccess is the scope that asks an authorization server for a
// refresh token (OpenID Connect Core §11).
const offlineAccess = "offline_access"

// selectScope chooses the scope a login asks for, as the official client
// does (the MCP specification's scope selection strategy): the scope of
// the 401's challenge, else the resource metadata's scopes_supported,
// else the client metadata's scope, else none. When the authorization
// server lists offline_access and the client registers for refresh
// tokens, offline_access is added, so that the server issues one. The
// scope goes into the authorization request, the registration and the
// client-credentials grant (LA-OAU-15).
func (o *oauthSession) selectScope(requested string, d *discovery, cm ClientMetadata) string {
	m := o.a.faults
	scope := requested
	if m.Has(fault.IgnoreChallengeScope) {
		scope = ""
	}
	if scope == "" && d.prm != nil {
		scope = strings.Join(d.prm.ScopesSupported, " ")
	}
	if scope == "" {
		scope = cm.Scope
	}
	if scope != "" && offersOfflineAccess(d.meta) && slices.Contains(cm.GrantTypes, "refresh_token") &&
		!slices.Contains(strings.Fields(scope), offlineAccess) && !m.Has(fault.NoOfflineAccess) { // LA-OAU-15: offline_access when the server lists it
		scope += " " + offlineAccess
	}
	return scope
}

// offersOfflineAccess reports whether an authorization server lists the
// offline_access scope.
func offersOfflineAccess(meta *oauthex.AuthServerMeta) bool {
	return meta != nil && slices.Contains(meta.ScopesSupported, offlineAccess)
}
