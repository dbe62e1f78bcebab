package blade

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpconform/mcpconform/internal/fault"
	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// states are one server in each state of the core, as ServerStates
// reports them.
func states() []core.ServerState {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	search := core.ToolState{Name: "mcp__docs__search", Tool: "search", Description: "Search"}
	add := core.ToolState{Name: "mcp__notes__add", Tool: "add", Description: "Add"}
	return []core.ServerState{
		{Name: "docs", Status: core.StatusConnected, Connected: true, Tools: []core.ToolState{search}, ConnectedAt: at},
		{Name: "notes", Status: core.StatusConfigured, LastTools: []core.ToolState{add}},
		{Name: "slow", Status: core.StatusConnecting},
		{Name: "gone", Status: core.StatusFailed, Err: errors.New("BL-TRN-05: refused")},
		{Name: "broke", Status: core.StatusStale, Connected: true, Lost: true, Err: errors.New("BL-TRN-01: exited")},
	}
}

func TestStatuses(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	want := []ServerStatus{
		{Name: "docs", Status: StatusConnected, ToolCount: 1, Tools: []string{"mcp__docs__search"}, ConnectedAt: at},
		{Name: "notes", Status: StatusDisconnected},
		{Name: "slow", Status: StatusConnecting},
		{Name: "gone", Status: StatusError, Error: "BL-TRN-05: refused"},
		{Name: "broke", Status: StatusError, Error: "BL-TRN-01: exited"},
	}
	if diff := cmp.Diff(want, statuses(states(), fault.Set{})); diff != "" {
		t.Errorf("statuses (BL-RT-01..05)\nExpected: %v\n  Actual diff (-want +got):\n%s", want, diff)
	}
}

func TestListTools(t *testing.T) {
	want := []ToolInfo{{Name: "mcp__docs__search", Description: "Search", ServerName: "docs"}}
	if diff := cmp.Diff(want, tools(states(), fault.Set{})); diff != "" {
		t.Errorf("tools (BL-RT-09, BL-RT-10)\nExpected: %v\n  Actual diff (-want +got):\n%s", want, diff)
	}
	if got := tools(nil, fault.Set{}); got == nil || len(got) != 0 {
		t.Errorf("tools of no server\nExpected: an empty list, never nil (JSON [])\n  Actual: %#v", got)
	}
}

// TestStatusFaults checks that each fault of the status vocabulary breaks
// what it says, and only on the servers it is about: the conformance
// suite's mutants depend on it.
func TestStatusFaults(t *testing.T) {
	tests := []struct {
		fault fault.Fault
		// names and words are what statuses reports with the fault.
		names, words []string
		counts       []int
	}{
		{fault.BladeStatusOnlyConnected, []string{"docs"}, []string{StatusConnected}, []int{1}},
		{fault.BladeLiteAgentStatuses, nil, []string{StatusConnected, "configured", StatusConnecting, "failed", StatusError}, nil},
		{fault.BladeToolCountOff, nil, nil, []int{2, 0, 0, 0, 1}},
		{fault.BladeErrorAsDisconnected, nil, []string{StatusConnected, StatusDisconnected, StatusConnecting, StatusDisconnected, StatusError}, nil},
		{fault.BladeNoConnecting, nil, []string{StatusConnected, StatusDisconnected, StatusDisconnected, StatusError, StatusError}, nil},
	}
	for _, tt := range tests {
		t.Run(string(tt.fault), func(t *testing.T) {
			got := statuses(states(), fault.NewSet(tt.fault))
			var names, words []string
			var counts []int
			for _, s := range got {
				names, words, counts = append(names, s.Name), append(words, s.Status), append(counts, s.ToolCount)
			}
			if tt.names == nil {
				tt.names = []string{"docs", "notes", "slow", "gone", "broke"}
			}
			if tt.words == nil {
				tt.words = []string{StatusConnected, StatusDisconnected, StatusConnecting, StatusError, StatusError}
			}
			if tt.counts == nil {
				tt.counts = []int{1, 0, 0, 0, 0}
			}
			want := struct {
				Names, Words []string
				Counts       []int
			}{tt.names, tt.words, tt.counts}
			have := struct {
				Names, Words []string
				Counts       []int
			}{names, words, counts}
			if diff := cmp.Diff(want, have); diff != "" {
				t.Errorf("statuses with %s\nExpected: %+v\n  Actual diff (-want +got):\n%s", tt.fault, want, diff)
			}
		})
	}
}

func TestListToolsFaults(t *testing.T) {
	tests := []struct {
		fault fault.Fault
		want  []ToolInfo
	}{
		{fault.BladeListDisconnected, []ToolInfo{
			{Name: "mcp__docs__search", Description: "Search", ServerName: "docs"},
			{Name: "mcp__notes__add", Description: "Add", ServerName: "notes"},
		}},
		{fault.BladeListToolsServerName, []ToolInfo{{Name: "mcp__docs__search", Description: "Search", ServerName: "search"}}},
	}
	for _, tt := range tests {
		t.Run(string(tt.fault), func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tools(states(), fault.NewSet(tt.fault))); diff != "" {
				t.Errorf("tools with %s\nExpected: %v\n  Actual diff (-want +got):\n%s", tt.fault, tt.want, diff)
			}
		})
	}
}
