package core

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// okHandler answers "ok".
func okHandler(context.Context, json.RawMessage) (*InProcessResponse, error) {
	return &InProcessResponse{Content: []InProcessContent{{Type: "text", Text: "ok"}}}, nil
}

func TestInProcessToolAndServerErrors(t *testing.T) {
	good, err := NewInProcessTool("t", "d", json.RawMessage(`{"type":"object"}`), okHandler)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		build func() error
		rule  string
		want  string // in the error
	}{
		{"tool without a name", func() error {
			_, err := NewInProcessTool("", "d", json.RawMessage(`{"type":"object"}`), okHandler)
			return err
		}, "BL-INP-01", "name"},
		{"tool without a handler", func() error {
			_, err := NewInProcessTool("t", "d", json.RawMessage(`{"type":"object"}`), nil)
			return err
		}, "BL-INP-01", "handler"},
		{"schema not an object schema", func() error {
			_, err := NewInProcessTool("t", "d", json.RawMessage(`{"type":"string"}`), okHandler)
			return err
		}, "BL-INP-01", "schema"},
		{"server without a name", func() error { _, err := NewInProcessServer("", "1", []*InProcessTool{good}, fault.Set{}); return err }, "BL-INP-02", "name"},
		{"two tools of one name", func() error {
			_, err := NewInProcessServer("s", "1", []*InProcessTool{good, good}, fault.Set{})
			return err
		}, "BL-INP-02", "tools[1].name"},
		{"a nil tool", func() error { _, err := NewInProcessServer("s", "1", []*InProcessTool{nil}, fault.Set{}); return err }, "BL-INP-01", "tools[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.build()
			if err == nil {
				t.Fatal("Expected: an error; Actual: accepted")
			}
			if RuleOf(err) != tc.rule || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Expected: rule %s naming %s; Actual: %q (rule %s)", tc.rule, tc.want, err, RuleOf(err))
			}
		})
	}
}

func TestInProcessContent(t *testing.T) {
	s := &InProcessServer{}
	for _, tc := range []struct {
		name string
		item InProcessContent
		want string // the MCP content's type, "" for an error
	}{
		{"text", InProcessContent{Type: "text", Text: "x"}, "*mcp.TextContent"},
		{"image", InProcessContent{Type: "image", Data: "aGk=", MimeType: "image/png"}, "*mcp.ImageContent"},
		{"resource text", InProcessContent{Type: "resource", Text: "r", MimeType: "text/plain"}, "*mcp.EmbeddedResource"},
		{"resource data", InProcessContent{Type: "resource", Data: "aGk="}, "*mcp.EmbeddedResource"},
		{"image not base64", InProcessContent{Type: "image", Data: "%%%"}, ""},
		{"unknown type", InProcessContent{Type: "audio"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := s.content(tc.item)
			got := ""
			if err == nil {
				got = fmt.Sprintf("%T", c)
			}
			if got != tc.want {
				t.Errorf("Expected: %q; Actual: %q (%v)", tc.want, got, err)
			}
		})
	}
}

func TestInProcessDefaults(t *testing.T) {
	tool, err := NewInProcessTool("q", "", json.RawMessage(`{"type":"object","properties":{"db":{"type":"string","default":"main"}}}`), okHandler)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{`{}`, `{"db":"main"}`},
		{`{"db":"other"}`, `{"db":"other"}`},
		{``, `{"db":"main"}`},
		{`[1]`, `[1]`}, // not an object: as it is (validation refused it before)
	} {
		if got := string(tool.withDefaults(json.RawMessage(tc.in))); got != tc.want {
			t.Errorf("withDefaults(%s): Expected: %s; Actual: %s", tc.in, tc.want, got)
		}
	}
}

// TestBladeKeyLength: a Blade server key has lite-agent's syntax but no
// 24-character bound (interpretation B-22).
func TestBladeKeyLength(t *testing.T) {
	for _, tc := range []struct {
		key  string
		rule string // "" for accepted
	}{
		{strings.Repeat("k", 25), ""},
		{strings.Repeat("k", 60), ""},
		{"", "LA-NAME-02"},
		{"a.b", "LA-NAME-03"},
		{"a__b", "LA-NAME-04"},
	} {
		err := validateBladeKey(tc.key, fault.Set{})
		if got := RuleOf(err); (err == nil) != (tc.rule == "") || got != tc.rule {
			t.Errorf("validateBladeKey(%q): Expected: rule %q; Actual: %v", tc.key, tc.rule, err)
		}
	}
}
