package mcpfake

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestListToolsPages(t *testing.T) {
	s := &Script{Tools: []Tool{{Name: "a"}, {Name: "b"}, {Name: "c"}}, PageSize: 2}
	p1, err := s.listTools(nil)
	if err != nil || len(p1.Tools) != 2 || p1.NextCursor != "page-2" {
		t.Fatalf("page 1: %+v %v", p1, err)
	}
	p2, err := s.listTools(&mcp.ListToolsParams{Cursor: p1.NextCursor})
	if err != nil || len(p2.Tools) != 1 || p2.Tools[0].Name != "c" || p2.NextCursor != "" {
		t.Fatalf("page 2: %+v %v", p2, err)
	}
	if _, err := s.listTools(&mcp.ListToolsParams{Cursor: "page-3"}); err == nil {
		t.Error("a page past the end was served")
	}
	if _, err := s.listTools(&mcp.ListToolsParams{Cursor: "bogus"}); err == nil {
		t.Error("an unknown cursor was accepted")
	}
}

func TestEndlessCursor(t *testing.T) {
	s := &Script{Tools: []Tool{{Name: "a"}}, PageSize: 1, EndlessCursor: true}
	cursor, seen := "", map[string]bool{}
	for range 40 {
		p, err := s.listTools(&mcp.ListToolsParams{Cursor: cursor})
		if err != nil || p.NextCursor == "" || len(p.Tools) != 1 {
			t.Fatalf("page after %q: %+v %v", cursor, p, err)
		}
		if seen[p.Tools[0].Name] {
			t.Fatalf("tool %q served twice: endless pages must not repeat names", p.Tools[0].Name)
		}
		seen[p.Tools[0].Name] = true
		cursor = p.NextCursor
	}
}

func TestToolsAreServedVerbatim(t *testing.T) {
	s := &Script{Tools: []Tool{{Name: "bad.name", InputSchema: []byte(`{"type":"object","properties":5}`)}, {Name: "bad.name"}}}
	p, err := s.listTools(nil)
	if err != nil || len(p.Tools) != 2 || p.Tools[0].Name != "bad.name" {
		t.Fatalf("%+v %v", p, err)
	}
	if got := string(p.Tools[0].InputSchema.(json.RawMessage)); got != `{"type":"object","properties":5}` {
		t.Errorf("schema changed: %s", got)
	}
}
