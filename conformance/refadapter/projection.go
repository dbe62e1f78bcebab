package refadapter

import (
	"encoding/json"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// refWire is the reference's context reference, as it writes it.
type refWire struct {
	Ref    string `json:"ref"`
	Offset int    `json:"offset"`
}

// toolText is what the reference writes in a tool message: a JSON
// projection ({"content": [...], ...}), or an archive reference
// ({"context": {...}, "bytes": N}).
type toolText struct {
	Content *[]struct {
		Type     string   `json:"type"`
		Text     string   `json:"text"`
		URI      string   `json:"uri"`
		Name     string   `json:"name"`
		MIMEType string   `json:"mimeType"`
		Context  *refWire `json:"context"`
		Bytes    int      `json:"bytes"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
	Context           *refWire        `json:"context"`
	Bytes             int             `json:"bytes"`
	// A page of the archive: {"ref", "offset", "bytes", "text", "next"?}.
	Ref    string  `json:"ref"`
	Offset int     `json:"offset"`
	Text   *string `json:"text"`
	Next   *int    `json:"next"`
}

// parseToolText is the adapter's parser of the reference's tool messages
// (rule catalog A-26): it returns the projection, the archive reference or
// the page of the archive the text holds, or none of them.
func parseToolText(text string) (*adapter.ProjectedResult, *adapter.ContextRef, *adapter.ContextPage) {
	var t toolText
	if json.Unmarshal([]byte(text), &t) != nil {
		return nil, nil, nil
	}
	if t.Ref != "" && t.Text != nil {
		return nil, nil, &adapter.ContextPage{Ref: t.Ref, Offset: t.Offset, Text: *t.Text, Next: t.Next}
	}
	if t.Content != nil {
		p := &adapter.ProjectedResult{Content: []adapter.ProjectedItem{}, StructuredContent: t.StructuredContent, IsError: t.IsError}
		for _, it := range *t.Content {
			item := adapter.ProjectedItem{Type: it.Type, Text: it.Text, URI: it.URI, Name: it.Name, MIMEType: it.MIMEType}
			if it.Context != nil {
				item.Context = &adapter.ContextRef{Ref: it.Context.Ref, Offset: it.Context.Offset, Bytes: it.Bytes}
			}
			p.Content = append(p.Content, item)
		}
		return p, nil, nil
	}
	if t.Context != nil {
		return nil, &adapter.ContextRef{Ref: t.Context.Ref, Offset: t.Context.Offset, Bytes: t.Bytes}, nil
	}
	return nil, nil, nil
}
