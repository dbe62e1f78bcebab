package mcpfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/internal/jsontext"
)

// paddingKey is the _meta key that pads results without a better place.
const paddingKey = "mcpconform/padding"

// padMarker stands for the padding in a rendering; JSON keeps it as it is.
const padMarker = "mcpconform-padding-goes-here"

// padResponse pads the JSON-RPC response raw, an answer to method, to
// exactly size bytes (no trailing newline), keeping it a valid response to
// the same request: the padding goes into the first text content of a
// tools/call result, the description of the last tool of a tools/list
// result, the message of an error, and result._meta otherwise. It fails
// when raw is not a response or is already longer than size.
func padResponse(raw []byte, method string, size int64) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("padding a response: %w", err)
	}
	build, err := padder(top, method)
	if err != nil {
		return nil, err
	}
	base, err := build("")
	if err != nil {
		return nil, err
	}
	if int64(len(base)) > size {
		return nil, fmt.Errorf("the %s response takes %d bytes unpadded, more than the %d scripted", method, len(base), size)
	}
	if int64(len(base)) == size {
		return base, nil
	}
	missing := int(size - int64(len(base)))
	// Render once with a marker, and put the padding in its place, rather
	// than rendering megabytes of padding through encoding/json.
	marked, err := build(padMarker)
	if err != nil {
		return nil, err
	}
	var out []byte
	if i := bytes.Index(marked, []byte(padMarker)); i >= 0 && bytes.Count(marked, []byte(padMarker)) == 1 {
		out = make([]byte, 0, size)
		out = append(out, marked[:i]...)
		out = append(out, bytes.Repeat([]byte("x"), missing)...)
		out = append(out, marked[i+len(padMarker):]...)
	} else if out, err = build(strings.Repeat("x", missing)); err != nil {
		return nil, err
	}
	if int64(len(out)) != size {
		return nil, fmt.Errorf("padding a %s response gave %d bytes, not %d", method, len(out), size)
	}
	return out, nil
}

// padder returns a function that renders the response top with pad
// inserted at the place for method. Adding n ASCII letters to pad adds
// exactly n bytes to the rendering.
func padder(top map[string]json.RawMessage, method string) (func(pad string) ([]byte, error), error) {
	if e, ok := top["error"]; ok {
		var obj map[string]json.RawMessage
		var msg string
		if err := json.Unmarshal(e, &obj); err != nil {
			return nil, fmt.Errorf("padding an error response: %w", err)
		}
		_ = json.Unmarshal(obj["message"], &msg)
		return func(pad string) ([]byte, error) {
			obj["message"] = marshal(msg + pad)
			top["error"] = marshal(obj)
			return jsontext.Marshal(top)
		}, nil
	}
	var result map[string]json.RawMessage
	if err := json.Unmarshal(top["result"], &result); err != nil || result == nil {
		return nil, fmt.Errorf("padding a response without a result object")
	}
	render := func() ([]byte, error) {
		top["result"] = marshal(result)
		return jsontext.Marshal(top)
	}
	switch method {
	case "tools/call":
		var content []map[string]json.RawMessage
		_ = json.Unmarshal(result["content"], &content)
		at, text := -1, ""
		for i, c := range content {
			var typ string
			if json.Unmarshal(c["type"], &typ) == nil && typ == "text" && json.Unmarshal(c["text"], &text) == nil {
				at = i
				break
			}
		}
		if at < 0 {
			content = append(content, map[string]json.RawMessage{"type": marshal("text")})
			at = len(content) - 1
		}
		return func(pad string) ([]byte, error) {
			content[at]["text"] = marshal(text + pad)
			result["content"] = marshal(content)
			return render()
		}, nil
	case "tools/list":
		var tools []map[string]json.RawMessage
		if json.Unmarshal(result["tools"], &tools) == nil && len(tools) > 0 {
			last := tools[len(tools)-1]
			var desc string
			_ = json.Unmarshal(last["description"], &desc)
			return func(pad string) ([]byte, error) {
				last["description"] = marshal(desc + pad)
				result["tools"] = marshal(tools)
				return render()
			}, nil
		}
	}
	var meta map[string]json.RawMessage
	_ = json.Unmarshal(result["_meta"], &meta)
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	return func(pad string) ([]byte, error) {
		meta[paddingKey] = marshal(pad)
		result["_meta"] = marshal(meta)
		return render()
	}, nil
}

// marshal renders v as JSON without HTML escaping; v is always
// marshalable here.
func marshal(v any) json.RawMessage {
	b, err := jsontext.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// stderrChunk is the size of each write of scripted stderr.
const stderrChunk = 64 << 10

// writeStderr writes exactly n bytes to w in chunks of at most 64 KiB:
// whole lines of about 1 KiB, each holding text, except that the last line
// is shorter (and may be too short to hold text).
func writeStderr(w io.Writer, n int64, text string) error {
	if n <= 0 || w == nil {
		return nil
	}
	line := text + "\n"
	if len(line) < 1024 {
		line = text + " " + strings.Repeat("x", 1024-len(text)-2) + "\n"
	}
	chunk := bytes.Repeat([]byte(line), stderrChunk/len(line)+1)[:stderrChunk]
	// Cut chunks at a line end so that every line holds text.
	if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
		chunk = chunk[:i+1]
	}
	for n > 0 {
		c := chunk
		if int64(len(c)) > n {
			// The last piece ends a (shorter) line too.
			c = append(slices.Clone(c[:n-1]), '\n')
		}
		if _, err := w.Write(c); err != nil {
			return err
		}
		n -= int64(len(c))
	}
	return nil
}
