package core

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestProject: what the model receives of each kind of tool result.
func TestProject(t *testing.T) {
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG-data"))
	large := strings.Repeat("x", ArchiveThreshold)
	tests := []struct {
		name     string
		result   string
		text     []string // the projection holds these
		not      []string // and none of these
		archived bool
		isError  bool
		rule     string
	}{
		{name: "text", result: `{"content":[{"type":"text","text":"hi"}]}`, text: []string{`{"content":[{"type":"text","text":"hi"}]}`}},
		{name: "structured scalar", result: `{"content":[],"structuredContent":42}`, text: []string{`"structuredContent":42`}},
		{name: "a link is kept, never read", result: `{"content":[{"type":"resource_link","uri":"file:///etc/passwd","name":"p","mimeType":"text/plain"}]}`,
			text: []string{`"type":"resource_link","uri":"file:///etc/passwd","name":"p"`}, not: []string{"root:"}},
		{name: "an image is archived", result: `{"content":[{"type":"image","data":"` + png + `","mimeType":"image/png"}]}`,
			text: []string{`"type":"image","mimeType":"image/png","context":{"ref":"arc-1","offset":0},"bytes":9`}, not: []string{png}},
		{name: "audio is archived", result: `{"content":[{"type":"audio","data":"` + png + `","mimeType":"audio/wav"}]}`,
			text: []string{`"type":"audio"`, `"context":{"ref":"arc-1"`}, not: []string{png}},
		{name: "an embedded resource is archived", result: `{"content":[{"type":"resource","resource":{"uri":"mem://a","mimeType":"text/plain","text":"secret body"}}]}`,
			text: []string{`"type":"resource","uri":"mem://a"`, `"bytes":11`}, not: []string{"secret body"}},
		{name: "a blob resource is archived", result: `{"content":[{"type":"resource","resource":{"uri":"mem://b","blob":"` + png + `"}}]}`,
			text: []string{`"uri":"mem://b"`, `"context":{"ref":"arc-1"`}},
		{name: "isError", result: `{"content":[{"type":"text","text":"no"}],"isError":true}`, text: []string{`"isError":true`}, isError: true},
		{name: "over 16 KiB is archived", result: `{"content":[{"type":"text","text":"` + large + `"}]}`,
			text: []string{`{"context":{"ref":"arc-1","offset":0},"bytes":`}, not: []string{large}, archived: true},
		{name: "over 4 MiB fails", result: `{"content":[{"type":"text","text":"` + strings.Repeat("y", MaxMessageBytes) + `"}]}`, rule: "LA-LIM-08"},
		{name: "not a result", result: `{"content":[{"type":"nonsense"}]}`, rule: "LA-VAL-05"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := testHost(t, LiteAgent(), Options{}, nil)
			p, err := h.Project(json.RawMessage(tt.result))
			if tt.rule != "" {
				if RuleOf(err) != tt.rule {
					t.Errorf("Project:\n  Expected: rule %s\n  Actual:   %v", tt.rule, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			contains(t, "the projection", p.Text, tt.text...)
			for _, n := range tt.not {
				if strings.Contains(p.Text, n) {
					t.Errorf("the projection holds %.40q: %.200s", n, p.Text)
				}
			}
			if p.Archived != tt.archived || p.IsError != tt.isError {
				t.Errorf("archived, isError: Expected %v, %v; Actual %v, %v", tt.archived, tt.isError, p.Archived, p.IsError)
			}
		})
	}
}

// TestArchivePages: the context tool reads an archived result in pages cut
// on character boundaries, with the next offset while bytes remain, and
// refuses references and offsets it never gave.
func TestArchivePages(t *testing.T) {
	body := strings.Repeat("é", 3*contextPage/2) // 2 bytes each: 3 pages of 16 KiB
	ar := &archive{}
	ref := ar.put([]byte(body)).Ref
	var got strings.Builder
	offset := 0
	for pages := 0; ; pages++ {
		if pages > 4 {
			t.Fatal("more than 4 pages")
		}
		text, isError := ar.read(ref, offset)
		if isError {
			t.Fatalf("read(%d): %s", offset, text)
		}
		var page struct {
			Offset, Bytes int
			Text          string
			Next          *int
		}
		if err := json.Unmarshal([]byte(text), &page); err != nil {
			t.Fatal(err)
		}
		if !utf8.ValidString(page.Text) || page.Offset != offset || page.Bytes != len(body) {
			t.Fatalf("page at %d: Expected valid UTF-8 from %d of %d bytes; Actual offset %d, bytes %d", offset, offset, len(body), page.Offset, page.Bytes)
		}
		got.WriteString(page.Text)
		if page.Next == nil {
			break
		}
		offset = *page.Next
	}
	if got.String() != body {
		t.Errorf("the pages joined: Expected the archived text (%d bytes); Actual %d bytes", len(body), got.Len())
	}
	if text, _ := ar.read(ref, 1); !strings.Contains(text, `"offset":2`) {
		t.Errorf("a read inside a character: Expected the page to start at its end (2); Actual %.80s", text)
	}
	for _, tt := range []struct {
		ref    string
		offset int
		want   string
	}{{"arc-9", 0, `no archived result "arc-9"`}, {ref, len(body) + 1, "is outside"}, {ref, -1, "is outside"}} {
		if text, isError := ar.read(tt.ref, tt.offset); !isError || !strings.Contains(text, tt.want) {
			t.Errorf("read(%s, %d): Expected a tool error %q; Actual %v %q", tt.ref, tt.offset, tt.want, isError, text)
		}
	}
}

// TestContextToolInARun: a large result is archived behind a reference
// the model reads back with the context tool in the same run.
func TestContextToolInARun(t *testing.T) {
	big := strings.Repeat("z", 2*ArchiveThreshold)
	s := newFake("s", fakeTool{name: "big", answer: func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return textResult(big), nil }})
	model := &script{turns: []ModelResponse{
		{ToolCalls: []ToolCall{call(1, "mcp__s__big", `{}`)}},
		{ToolCalls: []ToolCall{call(2, ContextTool, `{"ref":"arc-1","offset":0}`), call(3, ContextTool, `{"offset":0}`)}},
	}}
	h := testHost(t, LiteAgent(), Options{MCPServers: declared("s"), Model: model, Permission: allowAll}, map[string]*fakeServer{"s": s})
	if _, err := h.Send(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	reqs := model.requests()
	first := toolTexts(reqs[1])
	if len(first) != 1 || !strings.Contains(first[0], `"context":{"ref":"arc-1","offset":0}`) || strings.Contains(first[0], big) {
		t.Fatalf("the big result: Expected a context reference; Actual %.200q", first)
	}
	second := toolTexts(reqs[2])
	if len(second) != 3 || !strings.Contains(second[1], `"ref":"arc-1","offset":0`) || !strings.Contains(second[1], `"next":16384`) {
		t.Errorf("the context read: Expected the first page with a next offset; Actual %.200q", second)
	}
	if !strings.Contains(second[2], "context needs") {
		t.Errorf("a read without ref: Expected a tool error saying what context needs; Actual %q", second[2])
	}
}

// toolTexts returns the texts of a request's tool messages.
func toolTexts(req ModelRequest) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == "tool" {
			out = append(out, m.Text)
		}
	}
	return out
}
