package blade

import (
	"time"

	"github.com/mcpconform/mcpconform/internal/fault"
	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// The statuses of a [ServerStatus] (BL-RT-02).
const (
	StatusConnected    = "connected"
	StatusDisconnected = "disconnected"
	StatusConnecting   = "connecting"
	StatusError        = "error"
)

// ServerStatus is one entry of [Session.MCPServerStatus]: Blade's
// McpServerStatus (BL-RT-02).
type ServerStatus struct {
	// Name is the server's key in the mcpServers option.
	Name string `json:"name"`
	// Status is [StatusConnected], [StatusDisconnected],
	// [StatusConnecting] or [StatusError].
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

// ToolInfo is one entry of [Session.MCPListTools]: Blade's McpToolInfo
// (BL-RT-09).
type ToolInfo struct {
	// Name is the exposed name, the one the model and the permission
	// callback see (BL-NAME-06, interpretation B-12).
	Name        string `json:"name"`
	Description string `json:"description"`
	// ServerName is the server's key.
	ServerName string `json:"serverName"`
}

// statuses reports every configured server in Blade's vocabulary
// (BL-RT-01..04).
func statuses(states []core.ServerState, m fault.Set) []ServerStatus {
	out := make([]ServerStatus, 0, len(states))
	for _, sv := range states {
		st := ServerStatus{Name: sv.Name, Status: status(sv, m), ConnectedAt: sv.ConnectedAt}
		// BL-RT-01: one entry per configured server, whatever its status.
		if m.Has(fault.BladeStatusOnlyConnected) && st.Status != StatusConnected {
			continue
		}
		for _, t := range sv.Tools {
			st.Tools = append(st.Tools, t.Name)
		}
		// BL-RT-03: toolCount is the number of tools offered.
		st.ToolCount = len(st.Tools)
		if m.Has(fault.BladeToolCountOff) && sv.Connected {
			st.ToolCount++
		}
		// BL-RT-04: a failed server says why.
		if sv.Err != nil && st.Status == StatusError {
			st.Error = sv.Err.Error()
		}
		out = append(out, st)
	}
	return out
}

// status maps a server's state to Blade's vocabulary (BL-RT-02).
func status(s core.ServerState, m fault.Set) string {
	switch s.Status {
	case core.StatusConnected, core.StatusStale:
		// BL-RT-04: a connection that broke is an error.
		if s.Lost {
			return StatusError
		}
		return StatusConnected
	case core.StatusConnecting:
		// BL-RT-05: connecting while a connection is being made.
		if m.Has(fault.BladeNoConnecting) {
			return StatusDisconnected
		}
		return StatusConnecting
	case core.StatusFailed:
		// BL-RT-04: a failed server reports error.
		switch {
		case m.Has(fault.BladeErrorAsDisconnected):
			return StatusDisconnected
		case m.Has(fault.BladeLiteAgentStatuses): // BL-RT-02
			return string(core.StatusFailed)
		}
		return StatusError
	}
	// BL-RT-02: Blade's words, not lite-agent's.
	if m.Has(fault.BladeLiteAgentStatuses) {
		return string(core.StatusConfigured)
	}
	return StatusDisconnected
}

// tools lists the tools of every connected server, and only those
// (BL-RT-09, BL-RT-10).
func tools(states []core.ServerState, m fault.Set) []ToolInfo {
	out := []ToolInfo{}
	for _, sv := range states {
		list := sv.Tools
		// BL-RT-10: only the servers connected now.
		if !sv.Connected {
			if !m.Has(fault.BladeListDisconnected) {
				continue
			}
			list = sv.LastTools
		}
		for _, t := range list {
			info := ToolInfo{Name: t.Name, Description: t.Description, ServerName: sv.Name}
			// BL-NAME-06: the name is the one the model and the permission callback see.
			if m.Has(fault.BladeListRewrittenNames) {
				info.Name = sv.Name + "__" + t.Tool
			}
			// BL-RT-09: serverName is the server's key.
			if m.Has(fault.BladeListToolsServerName) {
				info.ServerName = t.Tool
			}
			out = append(out, info)
		}
	}
	return out
}
