package core

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// ArchiveThreshold is the largest projection given to the model inline;
// a larger one goes to the session archive (LA-ARC-01).
const ArchiveThreshold = 16 << 10

// ContextTool is the built-in tool through which the model reads the
// session archive in pages (LA-ARC-05).
const ContextTool = "context"

// contextPage is the most archived bytes one context call returns.
const contextPage = 16 << 10

// Projection is a tool result as the model receives it.
type Projection struct {
	// Text is what the model is given: the JSON projection, or a context
	// reference when it was archived.
	Text string `json:"text"`
	// Bytes is the size of the JSON projection (before archiving).
	Bytes int `json:"bytes"`
	// Archived says the projection went to the session archive.
	Archived bool `json:"archived"`
	// IsError marks a tool error.
	IsError bool `json:"isError"`
}

// contextRef points into the archive: the model reads it with
// context({ref, offset}) (LA-ARC-04).
type contextRef struct {
	Ref    string `json:"ref"`
	Offset int    `json:"offset"`
}

// projectedItem is one content item of a projection.
type projectedItem struct {
	Type     string      `json:"type"`
	Text     string      `json:"text,omitempty"`
	URI      string      `json:"uri,omitempty"`
	Name     string      `json:"name,omitempty"`
	MIMEType string      `json:"mimeType,omitempty"`
	Context  *contextRef `json:"context,omitempty"`
	Bytes    int         `json:"bytes,omitempty"`
}

// projected is the JSON projection of a tool result: text, resource links
// and structuredContent, scalars included (LA-VAL-05..07). Media and
// embedded resources are never inline: each is archived and replaced by a
// context reference (LA-ARC-02, LA-ARC-03). A remote file:// link is kept
// as a link: never opened, never read (LA-SEC-23, LA-SEC-24).
type projected struct {
	Content           []projectedItem `json:"content"`
	StructuredContent any             `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
}

// archive is a session's archive of tool results too large or too rich
// to give the model inline.
type archive struct {
	mu      sync.Mutex
	entries map[string][]byte
	next    int
	// mut holds the mutations that break reading the archive back.
	faults fault.Set
}

// put stores data and returns its reference.
func (ar *archive) put(data []byte) *contextRef {
	ar.mu.Lock()
	defer ar.mu.Unlock()
	if ar.entries == nil {
		ar.entries = map[string][]byte{}
	}
	ar.next++
	ref := fmt.Sprintf("arc-%d", ar.next)
	ar.entries[ref] = data
	return &contextRef{Ref: ref, Offset: 0}
}

// read returns one page of an archived entry: at most [contextPage] bytes
// from offset, cut on character boundaries so that the page's text is the
// archived bytes exactly, and the offset of the next page while bytes
// remain (LA-ARC-05, interpretation A-42). An offset inside a character
// starts the page at the character's end; the page says where it starts.
// A reference the session never gave, or an offset past the end, is a
// tool error.
func (ar *archive) read(ref string, offset int) (string, bool) {
	m := ar.faults
	ar.mu.Lock()
	data, ok := ar.entries[ref]
	ar.mu.Unlock()
	// LA-ARC-05: a read of an unknown reference or past the end is a tool error.
	if m.Has(fault.AnyReadServed) {
		offset = max(0, min(offset, len(data)))
	}
	// LA-ARC-05: an unknown reference is a tool error.
	if !ok && !m.Has(fault.AnyReadServed) {
		return fmt.Sprintf("no archived result %q", ref), true
	}
	if offset < 0 || offset > len(data) {
		return fmt.Sprintf("offset %d is outside the %d bytes of %q", offset, len(data), ref), true
	}
	// LA-ARC-05: a page starts at the offset asked for.
	if m.Has(fault.ContextIgnoresOffset) {
		offset = 0
	}
	// LA-ARC-05: pages are cut on character boundaries.
	for offset < len(data) && !utf8.RuneStart(data[offset]) && !m.Has(fault.PagesCutMidCharacter) {
		offset++
	}
	end := min(offset+contextPage, len(data))
	// LA-ARC-05: at both ends.
	for end < len(data) && !utf8.RuneStart(data[end]) && !m.Has(fault.PagesCutMidCharacter) {
		end--
	}
	page := struct {
		Ref    string `json:"ref"`
		Offset int    `json:"offset"`
		Bytes  int    `json:"bytes"`
		Text   string `json:"text"`
		Next   *int   `json:"next,omitempty"`
	}{Ref: ref, Offset: offset, Bytes: len(data), Text: string(data[offset:end])}
	switch {
	case m.Has(fault.NoNextBeforeTheEnd): // LA-ARC-05: the next offset while bytes remain
	case end < len(data), m.Has(fault.NextOnTheLastPage): // LA-ARC-05: and only then
		page.Next = &end
	}
	return marshal(page), false
}

// marshalBuffers are marshal's buffers, reused: a tool call's projection
// would otherwise grow a new one every call.
var marshalBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer is the largest buffer marshal keeps for reuse.
const maxPooledBuffer = 64 << 10

// marshal encodes v as JSON without HTML escaping.
func marshal(v any) string {
	b := marshalBuffers.Get().(*bytes.Buffer)
	b.Reset()
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	s := string(bytes.TrimRight(b.Bytes(), "\n"))
	if b.Cap() <= maxPooledBuffer {
		marshalBuffers.Put(b)
	}
	return s
}

// project turns a tool result into what the model receives: the JSON
// projection, archived behind a context reference when it is over
// [ArchiveThreshold]. A projection over [MaxMessageBytes] fails explicitly
// and is not archived (LA-LIM-08).
func (a *Host) project(res *mcp.CallToolResult) (Projection, error) {
	m := a.faults
	p := projected{Content: []projectedItem{}, StructuredContent: res.StructuredContent, IsError: res.IsError}
	// LA-VAL-07: structuredContent is projected.
	if m.Has(fault.DropStructured) {
		p.StructuredContent = nil
	}
	// LA-VAL-04: isError makes a tool error.
	if m.Has(fault.DropIsError) {
		p.IsError, res.IsError = false, false
	}
	var media [][]byte // archived once the size is known to be acceptable
	for _, c := range res.Content {
		items, data, archive, err := projectItem(c, m)
		if err != nil {
			return Projection{}, err
		}
		p.Content = append(p.Content, items...)
		if archive {
			media = append(media, data)
		}
	}
	// Size the projection with placeholder references, then archive.
	i := 0
	for k := range p.Content {
		if t := p.Content[k].Type; t == "image" || t == "audio" || t == "resource" {
			p.Content[k].Context = &contextRef{Ref: "arc-?"}
			i++
		}
	}
	text := marshal(p)
	limit := MaxMessageBytes
	// LA-LIM-08: a projection of at most 4 MiB.
	if m.Has(fault.NoProjectionCap) {
		limit = 1 << 30
	}
	if len(text) > limit {
		return Projection{}, newError(KindLimit, "LA-LIM-08", "the tool result's projection has %d bytes; at most %d (4 MiB)", len(text), MaxMessageBytes)
	}
	if len(media) > 0 {
		i = 0
		for k := range p.Content {
			if p.Content[k].Context != nil {
				p.Content[k].Context = a.archive.put(media[i])
				i++
			}
		}
		text = marshal(p) // with the real references
	}
	// LA-VAL-05: the model gets the JSON projection.
	if m.Has(fault.PlainText) {
		var b strings.Builder
		for _, it := range p.Content {
			b.WriteString(it.Text)
		}
		text = b.String()
	}
	out := Projection{Text: text, Bytes: len(text), IsError: res.IsError}
	// LA-ARC-01: a projection over 16 KiB is archived.
	if len(text) > ArchiveThreshold && !m.Has(fault.InlineLarge) {
		ref := a.archive.put([]byte(text))
		// LA-ARC-04: behind a context reference.
		if m.Has(fault.NoContextRef) {
			ref = nil
		}
		out.Text = marshal(struct {
			Context *contextRef `json:"context,omitempty"`
			Bytes   int         `json:"bytes"`
			IsError bool        `json:"isError,omitempty"`
		}{ref, len(text), res.IsError})
		out.Archived = true
	}
	return out, nil
}

// projectItem projects one content item of a tool result: the items the
// model sees for it and, for media and embedded resources, the data to
// archive (archive says there is some, possibly empty).
func projectItem(c mcp.Content, m fault.Set) (items []projectedItem, data []byte, archive bool, err error) {
	switch c := c.(type) {
	case *mcp.TextContent:
		items = append(items, projectedItem{Type: "text", Text: c.Text})
	case *mcp.ResourceLink:
		// LA-VAL-06: resource links are projected.
		if !m.Has(fault.DropLinks) {
			items = append(items, projectedItem{Type: "resource_link", URI: c.URI, Name: c.Name, MIMEType: c.MIMEType})
		}
		if text, ok := followLink(c.URI, m); ok {
			items = append(items, projectedItem{Type: "text", Text: text})
		}
	case *mcp.ImageContent, *mcp.AudioContent:
		typ, mime, raw := "image", "", []byte(nil)
		if img, ok := c.(*mcp.ImageContent); ok {
			mime, raw = img.MIMEType, img.Data
		} else {
			aud := c.(*mcp.AudioContent)
			typ, mime, raw = "audio", aud.MIMEType, aud.Data
		}
		encoded := base64.StdEncoding.EncodeToString(raw)
		// LA-ARC-02: media are archived, never inline.
		if m.Has(fault.InlineMedia) {
			return append(items, projectedItem{Type: typ, MIMEType: mime, Text: encoded}), nil, false, nil
		}
		// LA-ARC-02: with their data.
		if m.Has(fault.ArchiveMediaEmpty) {
			encoded = ""
		}
		return append(items, projectedItem{Type: typ, MIMEType: mime, Bytes: len(raw)}), []byte(encoded), true, nil
	case *mcp.EmbeddedResource:
		data = []byte{}
		uri, mime := "", ""
		if r := c.Resource; r != nil {
			uri, mime = r.URI, r.MIMEType
			data = []byte(r.Text)
			if r.Blob != nil {
				data = []byte(base64.StdEncoding.EncodeToString(r.Blob))
			}
		}
		// LA-ARC-03: embedded resources are archived, never inline.
		if m.Has(fault.InlineResources) {
			return append(items, projectedItem{Type: "resource", URI: uri, MIMEType: mime, Text: string(data)}), nil, false, nil
		}
		// LA-ARC-03: with their data.
		if m.Has(fault.ArchiveResourcesEmpty) {
			data = []byte{}
		}
		return append(items, projectedItem{Type: "resource", URI: uri, MIMEType: mime, Bytes: len(data)}), data, true, nil
	default:
		return nil, nil, false, newError(KindValidation, "LA-VAL-05", "the result holds content of an unsupported type %T", c)
	}
	return items, nil, false, nil
}

// followLink opens a resource link. It serves only [fault.ReadFileLinks] and
// [fault.FetchLinks]: the reference never opens a link (LA-SEC-23,
// LA-SEC-24).
func followLink(uri string, m fault.Set) (string, bool) {
	switch {
	case m.Has(fault.ReadFileLinks) && strings.HasPrefix(uri, "file://"):
		data, err := os.ReadFile(strings.TrimPrefix(uri, "file://"))
		return string(data), err == nil
	case m.Has(fault.FetchLinks) && (strings.HasPrefix(uri, "http://") || strings.HasPrefix(uri, "https://")):
		resp, err := http.Get(uri)
		if err != nil {
			return "", false
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return string(data), true
	}
	return "", false
}

// Project projects a tool result given as MCP JSON, as the agent would
// for the model, archiving it in the agent's session when it would; for
// hosts and adapters that need to measure projections (the conformance
// capability "projection").
func (a *Host) Project(result json.RawMessage) (Projection, error) {
	var res mcp.CallToolResult
	if err := json.Unmarshal(result, &res); err != nil {
		return Projection{}, &Error{Kind: KindValidation, Rule: "LA-VAL-05", Msg: "the tool result does not decode", Err: err}
	}
	return a.project(&res)
}
