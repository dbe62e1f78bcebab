package conformance

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Steps that read the session archive back (LA-ARC, interpretation A-42):
// a reference is only worth something if what it points to is what the
// server sent, every byte of it, and the pages lead from the first byte
// to the last.

// registerArchiveSteps defines the steps whose methods are in this file.
func (w *world) registerArchiveSteps(sc stepDefiner) {
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" returns ((?:an image|an audio clip|a text resource|a blob resource)(?:(?:, | and )(?:an image|an audio clip|a text resource|a blob resource))*) of (\d+ (?:bytes|KiB))(?: each)?$`, w.toolReturnsMedia)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" returns a text of (\d+ (?:bytes|KiB)) in characters of every UTF-8 length$`, w.toolReturnsEveryLength)
	sc.Step(`^the model reads back everything archived in the result of "([^"]*)", following next to the end$`, w.modelReadsBack)
	sc.Step(`^everything archived in the result of "([^"]*)" read back through the context tool is what "([^"]*)" sent, byte for byte$`, w.readBackIsSent)
}

// archiveState is the slice of the world this file's steps own: what the model read back of the archive.
type archiveState struct {
	readBacks map[string]*readBack // the model's reads of the archive, by tool
}

// maxArchiveReads bounds the context calls of one read-back: well under
// any implementation's limit of model turns, and enough for every
// scenario's pages.
const maxArchiveReads = 48

// archiveReadPrefix starts the ids of the read-back's context calls
// ([lastContextRef] leaves them out: they read, they are not results).
const archiveReadPrefix = "ctx_r"

// readBack is the scripted model reading back everything archived in
// the result of one tool, and what it got.
type readBack struct {
	tool    string     // the fake's name of the tool
	started bool       // the refs were collected from the result
	refs    []readPage // every reference, in the order the result has them
	cur     int        // the reference being read
	lastID  string     // the id of the context call last made
	reads   int
	problem string // why reading stopped before the end
}

// readPage is one reference and the pages read from it.
type readPage struct {
	what  string // "the result", or "item 2 (image)"
	ref   adapter.ContextRef
	pages []adapter.ContextPage
}

// everyLengthText returns a text of exactly n bytes with characters of
// every UTF-8 length: ASCII characters JSON escapes (quote, backslash,
// newline, tab, a control), characters JavaScript and HTML treat
// specially, a 2-byte and a 4-byte character, then 3-byte characters up
// to the end, padded with ASCII. With 16 KiB pages, three or more page
// ends fall inside a 3-byte character whatever precedes the text.
func everyLengthText(n int) string {
	var b strings.Builder
	b.WriteString("a\"\\\n\t\x01<&\u2028é😀")
	for b.Len()+len("文") <= n {
		b.WriteString("文")
	}
	s := b.String()
	for len(s) > n { // only when n is smaller than the opening
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s + strings.Repeat("a", n-len(s))
}

// binaryData returns n bytes of every value, from a simple generator
// seeded by seed, so that two items never hold the same data.
func binaryData(n int, seed uint32) []byte {
	out := make([]byte, n)
	x := seed*2654435761 + 1
	for i := range out {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		out[i] = byte(x)
	}
	return out
}

// toolReturnsMedia: Given the tool "t" of "p" returns an image, an audio
// clip, a text resource and a blob resource of 40 KiB each — or any of
// them: "a blob resource of 64 bytes"
func (w *world) toolReturnsMedia(tool, name, list, size string) error {
	n, err := parseSize(size)
	if err != nil {
		return err
	}
	enc := base64.StdEncoding.EncodeToString
	var content []any
	for i, what := range strings.Split(strings.ReplaceAll(list, " and ", ", "), ", ") {
		seed := uint32(i + 1)
		switch what {
		case "an image":
			content = append(content, map[string]any{"type": "image", "mimeType": "image/png", "data": enc(binaryData(int(n), seed))})
		case "an audio clip":
			content = append(content, map[string]any{"type": "audio", "mimeType": "audio/wav", "data": enc(binaryData(int(n), seed))})
		case "a text resource":
			content = append(content, map[string]any{"type": "resource", "resource": map[string]any{"uri": fmt.Sprintf("la-test://archive/%d", i), "mimeType": "text/plain", "text": everyLengthText(int(n))}})
		case "a blob resource":
			content = append(content, map[string]any{"type": "resource", "resource": map[string]any{"uri": fmt.Sprintf("la-test://archive/%d", i), "mimeType": "application/octet-stream", "blob": enc(binaryData(int(n), seed))}})
		default:
			return fmt.Errorf("unknown content %q: an image, an audio clip, a text resource or a blob resource", what)
		}
	}
	result, err := json.Marshal(map[string]any{"content": content})
	if err != nil {
		return err
	}
	return w.setCall(tool, name, func(c *mcpfake.Call) { c.Result = result })
}

// toolReturnsEveryLength: Given the tool "t" of "p" returns a text of 64 KiB
// in characters of every UTF-8 length
func (w *world) toolReturnsEveryLength(tool, name, size string) error {
	n, err := parseSize(size)
	if err != nil {
		return err
	}
	text := everyLengthText(int(n))
	return w.setCall(tool, name, func(c *mcpfake.Call) { c.Text = text })
}

// modelReadsBack: Given the model reads back everything archived in the
// result of "t", following next to the end — after its call of the tool,
// the scripted model calls the context tool with each reference the
// result holds, at the reference's offset, then at each page's next
// offset until a page has none; then it answers.
func (w *world) modelReadsBack(tool string) error {
	if w.readBacks == nil {
		w.readBacks = map[string]*readBack{}
	}
	if _, dup := w.readBacks[tool]; dup {
		return fmt.Errorf("the scenario reads the archive of %q back twice", tool)
	}
	rb := &readBack{tool: tool}
	w.readBacks[tool] = rb
	var turn modelTurn
	turn = func(_ context.Context, req adapter.ModelRequest) (adapter.ModelResponse, error) {
		if call, ok := rb.next(req); ok {
			w.host.scriptNext(turn)
			return adapter.ModelResponse{ToolCalls: []adapter.ToolCall{call}}, nil
		}
		return adapter.ModelResponse{Text: "read"}, nil
	}
	w.host.scriptTurn(turn)
	return nil
}

// next takes in what the model was just given and returns the next
// context call to make, or false when reading is over (done, or stopped
// for rb.problem).
func (rb *readBack) next(req adapter.ModelRequest) (adapter.ToolCall, bool) {
	if !rb.started {
		rb.started = true
		m, ok := resultOfTool(req, rb.tool)
		if !ok {
			rb.problem = fmt.Sprintf("the model was given no result of a call of %q to read back", rb.tool)
			return adapter.ToolCall{}, false
		}
		rb.refs = refsOf(m)
		if len(rb.refs) == 0 {
			rb.problem = fmt.Sprintf("the result of %q holds no context reference the adapter parses: %s", rb.tool, safetext.Cap(m.Text, 200))
			return adapter.ToolCall{}, false
		}
		return rb.read(rb.refs[0].ref.Offset), true
	}
	m, ok := messageAnswering(req, rb.lastID)
	switch {
	case !ok:
		rb.problem = fmt.Sprintf("the model was not given the answer to its context call %s", rb.lastID)
		return adapter.ToolCall{}, false
	case m.IsError || m.Page == nil:
		rb.problem = fmt.Sprintf("the context call %s for %s gave no page the adapter parses: %s", rb.lastID, rb.refs[rb.cur].what, safetext.Cap(m.Text, 200))
		return adapter.ToolCall{}, false
	}
	r := &rb.refs[rb.cur]
	r.pages = append(r.pages, *m.Page)
	if next := m.Page.Next; next != nil {
		switch {
		case *next <= m.Page.Offset:
			rb.problem = fmt.Sprintf("the page of %s at offset %d names %d as the next: reading would not advance", r.what, m.Page.Offset, *next)
			return adapter.ToolCall{}, false
		case rb.reads >= maxArchiveReads:
			rb.problem = fmt.Sprintf("%d context calls did not reach the last page", rb.reads)
			return adapter.ToolCall{}, false
		}
		return rb.read(*next), true
	}
	if rb.cur++; rb.cur < len(rb.refs) {
		return rb.read(rb.refs[rb.cur].ref.Offset), true
	}
	return adapter.ToolCall{}, false
}

// read is the context call for the current reference at offset.
func (rb *readBack) read(offset int) adapter.ToolCall {
	rb.reads++
	rb.lastID = fmt.Sprintf("%s%d", archiveReadPrefix, rb.reads)
	args, _ := json.Marshal(map[string]any{"ref": rb.refs[rb.cur].ref.Ref, "offset": offset})
	return adapter.ToolCall{ID: rb.lastID, Name: "context", Arguments: args}
}

// resultOfTool returns the last tool message of req answering a call of
// an MCP tool whose name ends in __tool.
func resultOfTool(req adapter.ModelRequest, tool string) (adapter.Message, bool) {
	ids := map[string]bool{}
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			if strings.HasSuffix(c.Name, "__"+tool) {
				ids[c.ID] = true
			}
		}
	}
	var out adapter.Message
	found := false
	for _, m := range req.Messages {
		if m.Role == "tool" && ids[m.ToolCallID] {
			out, found = m, true
		}
	}
	return out, found
}

// messageAnswering returns the tool message of req answering call id.
func messageAnswering(req adapter.ModelRequest, id string) (adapter.Message, bool) {
	for _, m := range req.Messages {
		if m.Role == "tool" && m.ToolCallID == id {
			return m, true
		}
	}
	return adapter.Message{}, false
}

// refsOf lists the references of a tool message: the whole result's, or
// each archived item's.
func refsOf(m adapter.Message) []readPage {
	if m.Context != nil {
		return []readPage{{what: "the result", ref: *m.Context}}
	}
	var out []readPage
	if m.Projection != nil {
		for i, it := range m.Projection.Content {
			if it.Context != nil {
				out = append(out, readPage{what: fmt.Sprintf("item %d (%s)", i+1, it.Type), ref: *it.Context})
			}
		}
	}
	return out
}

// archivedSent is what the server sent of a result that the
// implementation archives: the data of each image, audio and embedded
// resource item, in order, or, when the whole result is archived, its
// texts.
type archivedSent struct {
	items []sentItem
	texts []string
}

// sentItem is one archived item as the server sent it: its data is the
// base64 of an image, audio clip or blob, or the text of a text resource.
type sentItem struct {
	typ, data string
}

// sentByScript returns what the fake's script makes it send for tool.
func (w *world) sentByScript(tool, name string) (archivedSent, error) {
	f, err := w.fake(name)
	if err != nil {
		return archivedSent{}, err
	}
	c, ok := f.script.Calls[tool]
	if !ok {
		return archivedSent{}, fmt.Errorf("the scenario scripts no answer of the tool %q of %q", tool, name)
	}
	var out archivedSent
	if c.Result == nil {
		out.texts = []string{c.Text}
		return out, nil
	}
	var res struct {
		Content []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			Data     string `json:"data"`
			Resource *struct {
				Text *string `json:"text"`
				Blob *string `json:"blob"`
			} `json:"resource"`
		} `json:"content"`
	}
	if err := json.Unmarshal(c.Result, &res); err != nil {
		return archivedSent{}, fmt.Errorf("the scripted result of %q: %w", tool, err)
	}
	for _, it := range res.Content {
		switch {
		case it.Type == "text":
			out.texts = append(out.texts, it.Text)
		case it.Type == "image" || it.Type == "audio":
			out.items = append(out.items, sentItem{it.Type, it.Data})
		case it.Type == "resource" && it.Resource != nil && it.Resource.Blob != nil:
			out.items = append(out.items, sentItem{it.Type, *it.Resource.Blob})
		case it.Type == "resource" && it.Resource != nil && it.Resource.Text != nil:
			out.items = append(out.items, sentItem{it.Type, *it.Resource.Text})
		}
	}
	return out, nil
}

// readBackIsSent: Then everything archived in the result of "t" read back
// through the context tool is what "p" sent, byte for byte — each
// reference's pages follow one another from its offset (each starts at
// the next of the one before, none is empty), and together they hold
// exactly the data the server sent: the item's data, or, for a whole
// archived result, a JSON projection with each of its texts.
func (w *world) readBackIsSent(tool, name string) error {
	rb := w.readBacks[tool]
	if rb == nil {
		return fmt.Errorf("the scenario does not read the archive of %q back", tool)
	}
	sent, err := w.sentByScript(tool, name)
	if err != nil {
		return err
	}
	if err := w.expect(rb.problem == "", fmt.Sprintf("the model read back everything archived in the result of %q", tool), "%s", rb.problem); err != nil {
		return err
	}
	if rb.cur < len(rb.refs) || len(rb.refs) == 0 {
		return w.expect(false, fmt.Sprintf("the model read back every reference of the result of %q", tool), "it read %d of %d", rb.cur, len(rb.refs))
	}
	whole := len(rb.refs) == 1 && rb.refs[0].what == "the result"
	if !whole {
		if err := w.expect(len(rb.refs) == len(sent.items), fmt.Sprintf("a reference for each of the %d archived items %q sent", len(sent.items), name), "%d references", len(rb.refs)); err != nil {
			return err
		}
	}
	for i, r := range rb.refs {
		got, err := w.pagesInOrder(r)
		if err != nil {
			return err
		}
		if whole {
			for _, text := range sent.texts {
				if err := w.expect(jsonHoldsString(got, text), fmt.Sprintf("the archived result of %q is JSON holding its %d-byte text, byte for byte", tool, len(text)), "%s", describeStrings(got, text)); err != nil {
					return err
				}
			}
			continue
		}
		want := sent.items[i]
		if err := w.expect(got == want.data || jsonHoldsString(got, want.data), fmt.Sprintf("%s read back is the %d bytes of the %s %q sent, byte for byte", r.what, len(want.data), want.typ, name), "%s", firstDifference(got, want.data)); err != nil {
			return err
		}
	}
	return nil
}

// pagesInOrder checks that the pages of a reference follow one another
// and returns their text.
func (w *world) pagesInOrder(r readPage) (string, error) {
	var b strings.Builder
	for k, p := range r.pages {
		at := r.ref.Offset
		if k > 0 {
			at = *r.pages[k-1].Next
		}
		if err := w.expect(p.Ref == r.ref.Ref && p.Offset >= at && p.Offset <= at+utf8.UTFMax-1, fmt.Sprintf("page %d of %s is of %q and starts where it was asked to, at %d", k+1, r.what, r.ref.Ref, at), "it is of %q and starts at %d", p.Ref, p.Offset); err != nil {
			return "", err
		}
		if err := w.expect(p.Text != "" || len(r.pages) == 1, fmt.Sprintf("page %d of %s holds bytes: the page before it announced more", k+1, r.what), "it is empty, at offset %d", p.Offset); err != nil {
			return "", err
		}
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// jsonStrings returns every string value of the JSON document doc.
func jsonStrings(doc string) ([]string, error) {
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		return nil, err
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return out, nil
}

// jsonHoldsString reports whether doc is JSON with a string value equal
// to want, anywhere in it.
func jsonHoldsString(doc, want string) bool {
	ss, err := jsonStrings(doc)
	return err == nil && slices.Contains(ss, want)
}

// describeStrings says why the JSON document doc holds no string equal to
// want: it is no JSON, or where its closest string differs.
func describeStrings(doc, want string) string {
	ss, err := jsonStrings(doc)
	if err != nil {
		return fmt.Sprintf("the %d bytes read back are not JSON: %v", len(doc), err)
	}
	closest := ""
	for _, s := range ss {
		if len(s) > len(closest) {
			closest = s
		}
	}
	return "its longest string: " + firstDifference(closest, want)
}

// firstDifference describes where got first differs from want.
func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	return fmt.Sprintf("%d bytes read back; the first difference from the %d sent is at byte %d: %q against %q",
		len(got), len(want), i, safetext.Cap(got[i:], 24), safetext.Cap(want[i:], 24))
}
