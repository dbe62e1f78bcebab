package blade

import "github.com/mcpconform/mcpconform/reference/internal/core"

// Health is a server's health status (BL-HC-04). Blade's McpServerStatus
// has no health field (interpretation B-04), so the reference offers it
// through [Session.MCPHealth].
type Health = core.Health

// The health statuses, with the thresholds of interpretation B-04:
// [HealthDisabled] without an enabled healthCheck; [HealthChecking] while
// a check (a ping, bounded by 10 s or intervalMs when shorter) is in
// progress; [HealthHealthy] when the last check was answered within half
// that bound, and at connection; [HealthDegraded] when it was answered
// later, or after one or two failed checks in a row; [HealthUnhealthy]
// after three, which also ends the connection (BL-HC-02) until the server
// connects again.
const (
	HealthDisabled  = core.HealthDisabled
	HealthChecking  = core.HealthChecking
	HealthHealthy   = core.HealthHealthy
	HealthDegraded  = core.HealthDegraded
	HealthUnhealthy = core.HealthUnhealthy
)

// ServerHealth is one server's entry of [Session.MCPHealth].
type ServerHealth struct {
	// Name is the server's key in the mcpServers option.
	Name string `json:"name"`
	// Health is its status; a server that never connected reports ""
	// unless its health check is not enabled ([HealthDisabled]).
	Health Health `json:"health"`
}

// MCPHealth reports the health status of every configured server, in
// declaration order (BL-HC-04): local state, no I/O.
func (s *Session) MCPHealth() []ServerHealth {
	states := s.h.ServerStates()
	out := make([]ServerHealth, 0, len(states))
	for _, st := range states {
		out = append(out, ServerHealth{Name: st.Name, Health: st.Health})
	}
	return out
}
