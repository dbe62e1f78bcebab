package core

import (
	"context"
	"slices"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// alwaysAllowed reports whether a Blade server lists tool in alwaysAllow.
// It serves only [fault.BladeAlwaysAllowGrants]: alwaysAllow is metadata and
// authorizes nothing (BL-CFG-07, BL-PERM-01).
func (a *Host) alwaysAllowed(serverName, tool string) bool {
	sv, err := a.reg.byName(serverName, "")
	return err == nil && sv.blade != nil && slices.Contains(sv.blade.AlwaysAllow, tool)
}

// PermissionFunc is a Blade permission callback: it gets the tool's
// exposed name (BL-PERM-05) and answers "allow", "ask" or "deny".
type PermissionFunc func(ctx context.Context, toolName string) (string, error)

// bladePermission asks the session's permission callback about a call
// and turns its answer into a verdict: allow runs the tool without
// confirmation (BL-PERM-03), ask needs the confirmation (BL-PERM-04),
// anything else, or a failed callback, denies.
func (a *Host) bladePermission(ctx context.Context, name string, req ApprovalRequest) verdict {
	toolName := name
	// BL-PERM-05: the callback gets the exposed name.
	if a.faults.Has(fault.BladePermissionRawName) {
		toolName = req.Tool
	}
	d, err := a.opts.PermissionFunc(ctx, toolName)
	if err != nil {
		return verdictDeny
	}
	switch {
	// BL-PERM-03: allow runs the tool without confirmation; BL-PERM-04: ask needs it.
	case d == "allow" && a.faults.Has(fault.BladeAllowAsks), d == "ask" && !a.faults.Has(fault.BladeAskAllows):
		return verdictAsk
	case d == "allow", d == "ask":
		return verdictAllow
	}
	return verdictDeny
}
