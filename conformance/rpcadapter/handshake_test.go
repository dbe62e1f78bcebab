package rpcadapter

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// hugeList is a JSON array of n unknown capabilities around two known
// ones.
func hugeList(n int) string {
	var b strings.Builder
	b.WriteString(`["clock"`)
	for i := range n {
		fmt.Fprintf(&b, `,"x-%06d"`, i)
	}
	b.WriteString(`,"home","clock"]`)
	return b.String()
}

func TestHandshakeListsAreBounded(t *testing.T) {
	tests := []struct {
		name         string
		capabilities string
		want         []adapter.Capability
		unknown      string
	}{
		{"known values once each, in order", `["home", "clock", "home"]`, []adapter.Capability{"home", "clock"}, ""},
		{"an escaped known value", `["\u0068ome"]`, []adapter.Capability{"home"}, ""},
		{"unknown values counted, the first kept", hugeList(1_000_000), []adapter.Capability{"clock", "home"},
			`unknown capabilities ["x-000000" "x-000001" "x-000002" "x-000003" "x-000004" "x-000005" "x-000006" "x-000007"] and 999992 more (of 1000003 entries)`},
		{"a system is no capability", `["lite-agent"]`, []adapter.Capability{}, `unknown capabilities ["lite-agent"]`},
		{"empty", `[]`, []adapter.Capability{}, ""},
		{"absent", `null`, []adapter.Capability{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line := `{"protocolVersion":"1","adapter":{"name":"a","version":"1"},"implementation":{"name":"i","version":"1"},"systems":["blade"],"operations":["agent/create"],"capabilities":` + tt.capabilities + `}`
			var h handshake
			if err := json.Unmarshal([]byte(line), &h); err != nil {
				t.Fatal(err)
			}
			info, unknown := h.decoded()
			if !slices.Equal(info.Capabilities, tt.want) {
				t.Errorf("capabilities\n  Expected: %v\n  Actual:   %v", tt.want, info.Capabilities)
			}
			if got := strings.Join(unknown, "; "); got != tt.unknown {
				t.Errorf("unknown\n  Expected: %s\n  Actual:   %s", tt.unknown, got)
			}
			if !slices.Equal(info.Systems, []adapter.System{adapter.Blade}) || !info.Implements(adapter.OpCreate) {
				t.Errorf("systems %v, operations %v", info.Systems, info.Operations)
			}
		})
	}
	for _, bad := range []string{`"home"`, `[1]`, `["a" "b"]`, `{"a":1}`} {
		var l handshakeList
		if err := l.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s was read as a list of strings", bad)
		}
	}
}

func TestHandshakeNamesAreCapped(t *testing.T) {
	long := strings.Repeat("n", 1<<20)
	h := handshake{Adapter: Peer{Name: long, Version: "1"}, Implementation: Peer{Name: "i", Version: long}}
	info, _ := h.decoded()
	if len(info.Name) > 2<<10 || len(info.Implementation.Version) > 2<<10 || !strings.Contains(info.Name, "1048576 in all") {
		t.Errorf("a 1 MiB name was kept as %d bytes: %.80q", len(info.Name), info.Name)
	}
}

// BenchmarkHugeHandshakeList measures reading a million-entry list.
func BenchmarkHugeHandshakeList(b *testing.B) {
	list := []byte(hugeList(1_000_000))
	b.SetBytes(int64(len(list)))
	for b.Loop() {
		var l handshakeList
		if err := l.UnmarshalJSON(list); err != nil {
			b.Fatal(err)
		}
	}
}
