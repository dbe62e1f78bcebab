package adapter

import (
	"slices"
	"strings"
)

// System names a product whose rules an implementation claims to follow.
type System string

// The systems of the rule catalog.
const (
	LiteAgent System = "lite-agent"
	Blade     System = "blade"
)

// Info is what an adapter says about itself and the implementation it drives.
type Info struct {
	// Name and Version identify the adapter itself.
	Name    string `json:"name"`
	Version string `json:"version"`
	// Implementation identifies the implementation under test.
	Implementation Implementation `json:"implementation"`
	// Systems lists the systems whose rules the implementation claims.
	Systems []System `json:"systems"`
	// Capabilities lists the optional capabilities the adapter supports.
	Capabilities []Capability `json:"capabilities"`
	// Operations lists the agent operations the adapter implements. A
	// scenario step that needs another one is skipped, naming it.
	Operations []Operation `json:"operations"`
	// Concurrency is how the implementation schedules the tool calls of
	// one model turn: "sequential" or "parallel", the same for MCP and
	// other tools ([CapConcurrencyPolicy]).
	Concurrency string `json:"concurrency,omitempty"`
	// Unimplemented lists rule areas ("LA-OAU") or rule IDs
	// ("LA-TMO-05") of a claimed system that the implementation does not
	// implement at all: their scenarios are skipped, saying so, instead of
	// failing. A port that does part of a product declares the rest here;
	// the report shows every such skip.
	Unimplemented []string `json:"unimplemented,omitempty"`
	// ToolNames is how the implementation names MCP tools for its model,
	// a [ToolNaming] template; empty means [CanonicalToolNames]. The
	// runner translates a declared scheme to and from the canonical names
	// its scenarios use, and fails the scenarios of the canonical scheme
	// itself (LA-NAME-01, BL-NAME-01), naming the declaration.
	ToolNames string `json:"toolNames,omitempty"`
}

// Leaves reports whether the adapter declares rule (an ID such as
// "LA-OAU-03") unimplemented, by its ID or its area, and which entry says
// so.
func (i Info) Leaves(rule string) (string, bool) {
	for _, u := range i.Unimplemented {
		if u == rule || (u != "" && strings.HasPrefix(rule, u+"-") && strings.Count(u, "-") == 1) {
			return u, true
		}
	}
	return "", false
}

// Operation names an agent operation of the contract, as the adapter
// protocol spells it.
type Operation string

// The operations of an [Agent], and [Adapter.NewAgent].
const (
	OpCreate     Operation = "agent/create"
	OpSend       Operation = "agent/send"
	OpRegister   Operation = "agent/register"
	OpUnregister Operation = "agent/unregister"
	OpList       Operation = "agent/list"
	OpAwaitIdle  Operation = "agent/awaitIdle"
	OpClose      Operation = "agent/close"
	// OpAdvanceClock and OpLogs serve the capabilities clock and log-sinks.
	OpAdvanceClock Operation = "agent/advanceClock"
	OpLogs         Operation = "agent/logs"
	// OpRun is a send through the run's event stream.
	OpRun Operation = "agent/run"
	// OpSubagent and OpProject serve the capabilities subagent and
	// projection.
	OpSubagent Operation = "agent/subagent"
	OpProject  Operation = "agent/project"
	// The Blade session's runtime API: mcpServerStatus(), mcpConnect(),
	// mcpDisconnect(), mcpReconnect() and mcpListTools().
	OpMCPStatus     Operation = "agent/mcpStatus"
	OpMCPConnect    Operation = "agent/mcpConnect"
	OpMCPDisconnect Operation = "agent/mcpDisconnect"
	OpMCPReconnect  Operation = "agent/mcpReconnect"
	OpMCPListTools  Operation = "agent/mcpListTools"
	// OpMCPHealth reads a Blade session's health status per server
	// ([HealthReader], capability health).
	OpMCPHealth Operation = "agent/mcpHealth"
)

// Operations lists every operation, in a stable order.
var Operations = []Operation{OpCreate, OpSend, OpRegister, OpUnregister, OpList, OpAwaitIdle, OpClose,
	OpAdvanceClock, OpLogs, OpRun, OpSubagent, OpProject,
	OpMCPStatus, OpMCPConnect, OpMCPDisconnect, OpMCPReconnect, OpMCPListTools, OpMCPHealth}

// Implements reports whether the adapter declared operation op.
func (i Info) Implements(op Operation) bool { return slices.Contains(i.Operations, op) }

// Implementation names an implementation under test and its version.
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Supports reports whether the adapter declared capability c.
func (i Info) Supports(c Capability) bool { return slices.Contains(i.Capabilities, c) }

// Claims reports whether the implementation claims system s.
func (i Info) Claims(s System) bool { return slices.Contains(i.Systems, s) }
