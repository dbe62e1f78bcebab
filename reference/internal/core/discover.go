package core

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// tool is one discovered MCP tool.
type tool struct {
	server      string // the server alias
	raw         string // the server's own name
	full        string // mcp__<server>__<tool>
	description string
	inputJSON   json.RawMessage
	input       *jsonschema.Resolved
	output      *jsonschema.Resolved // nil without an output schema
	size        int                  // bytes of the definition offered to the model
	conn        *connection
	// readOnly and idempotent are the server's annotations: hints that
	// never authorize anything (LA-SEC-11).
	readOnly, idempotent bool
}

// spec is the tool as offered to the model.
func (t *tool) spec() ToolSpec {
	return ToolSpec{Name: t.full, Description: t.description, InputSchema: t.inputJSON}
}

// discover lists the server's tools page by page and validates all of them:
// at most 16 pages (the 17th is never asked for) and 128 tools, valid and
// unique names, valid schemas. Any problem fails the whole server; nothing
// is dropped or truncated (LA-NAME-05..08, LA-LIM-02, LA-LIM-03, LA-LIM-09,
// LA-VAL-02).
func (c *connection) discover(ctx context.Context, alias string, m fault.Set) error {
	maxPages, maxTools := MaxDiscoveryPages, MaxToolsPerServer
	if m.Has(fault.PageLimit) {
		maxPages++
	}
	// LA-LIM-02: at most 128 tools per server.
	if m.Has(fault.ToolLimit) {
		maxTools++
	}
	seen := map[string]bool{}
	var cursor string
	for page := 1; ; page++ {
		res, err := c.session.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return c.transportError(ctx, alias, fmt.Errorf("tools/list page %d: %w", page, err))
		}
		c.mu.Lock()
		raw := c.lastRaw
		c.mu.Unlock()
		if raw != len(res.Tools) {
			return &Error{Kind: KindValidation, Rule: "LA-NAME-07", Source: alias,
				Msg: fmt.Sprintf("tools/list page %d holds %d tools, of which %d are malformed (null, or invalid x-mcp-header annotations); the whole server is refused", page, raw, raw-len(res.Tools))}
		}
		for _, mt := range res.Tools {
			t, err := newTool(alias, mt, m)
			if err != nil {
				// LA-NAME-07: one invalid tool fails the whole server.
				if m.Has(fault.DropInvalidTools) {
					continue
				}
				return err
			}
			key := t.raw
			// LA-NAME-08: names that differ in letter case are two tools.
			if m.Has(fault.DuplicatesIgnoringCase) {
				key = strings.ToLower(key)
			}
			if seen[key] {
				// LA-NAME-08: a duplicate tool fails the whole server.
				if m.Has(fault.DedupeTools) {
					continue
				}
				return &Error{Kind: KindName, Rule: c.rules.Duplicate, Source: alias, Msg: fmt.Sprintf("the server offers tool %q twice", t.raw)}
			}
			seen[key] = true
			t.conn = c
			c.tools = append(c.tools, t)
			if len(c.tools) > maxTools {
				// LA-LIM-09: nothing is truncated: too many tools fail the server.
				if m.Has(fault.TruncateTools) {
					c.tools = c.tools[:MaxToolsPerServer]
					return nil
				}
				return &Error{Kind: KindLimit, Rule: "LA-LIM-02", Source: alias, Msg: fmt.Sprintf("the server offers more than %d tools", MaxToolsPerServer)}
			}
		}
		if res.NextCursor == "" {
			return nil
		}
		if page >= maxPages {
			return &Error{Kind: KindLimit, Rule: "LA-LIM-03", Source: alias, Msg: fmt.Sprintf("the server still has more tools after %d pages of tools/list; at most %d pages are read", page, MaxDiscoveryPages)}
		}
		cursor = res.NextCursor
	}
}

// newTool validates one tool of server alias.
func newTool(alias string, mt *mcp.Tool, m fault.Set) (*tool, error) {
	full := ToolName(alias, mt.Name)
	// LA-NAME-01: mcp__<server>__<tool>.
	if m.Has(fault.FlatToolName) {
		full = "mcp_" + alias + "_" + mt.Name
	}
	// BL-NAME-01: Blade exposes the same namespace.
	if m.Has(fault.BladeRawNames) {
		full = mt.Name
	}
	if err := validateToolName(full, mt.Name, m); err != nil {
		e := err.(*Error)
		e.Source = alias
		return nil, e
	}
	t := &tool{server: alias, raw: mt.Name, full: full, description: mt.Description}
	if an := mt.Annotations; an != nil {
		t.readOnly, t.idempotent = an.ReadOnlyHint, an.IdempotentHint
	}
	var err error
	if t.inputJSON, t.input, err = compileSchema(mt.InputSchema); err != nil {
		// LA-VAL-02: a tool with an invalid schema fails the server.
		if !m.Has(fault.AcceptInvalidSchemas) {
			return nil, &Error{Kind: KindValidation, Rule: "LA-VAL-02", Source: alias, Msg: fmt.Sprintf("tool %q has an invalid input schema", mt.Name), Err: err}
		}
		t.inputJSON, t.input, _ = compileSchema(map[string]any{"type": "object"})
	}
	if mt.OutputSchema != nil {
		// LA-VAL-02: an invalid output schema too.
		if _, t.output, err = compileSchema(mt.OutputSchema); err != nil && !m.Has(fault.AcceptInvalidSchemas) {
			return nil, &Error{Kind: KindValidation, Rule: "LA-VAL-02", Source: alias, Msg: fmt.Sprintf("tool %q has an invalid output schema", mt.Name), Err: err}
		}
	}
	def, _ := json.Marshal(struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}{t.full, t.description, t.inputJSON})
	t.size = len(def)
	return t, nil
}

// compileSchema checks that v is a JSON Schema object whose root is of type
// "object", as MCP requires of tool schemas, and resolves it with the
// official JSON Schema implementation. Remote references are not fetched.
func compileSchema(v any) (json.RawMessage, *jsonschema.Resolved, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, nil, err
	}
	var root map[string]json.RawMessage
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, nil, fmt.Errorf("the schema is not a JSON object")
	}
	if string(root["type"]) != `"object"` {
		return nil, nil, fmt.Errorf(`the schema's root must have "type": "object"`)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, nil, err
	}
	resolved, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return nil, nil, err
	}
	return raw, resolved, nil
}
