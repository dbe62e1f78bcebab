package reference

import (
	"encoding/json"

	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// Tool is a tool the host defines (lite-agent's core Tool interface),
// offered to the model beside the MCP tools and under the same permission
// policy, hooks and events. Its methods: Name, the name the model sees;
// Description; Schema, which validates the input and exports its JSON
// Schema; and Execute(ctx, input), which runs it with input that passed
// the schema and returns a [ToolResult].
type Tool = core.Tool

// Schema is a tool's input schema in the shape of Standard Schema:
// Validate(ctx, input) returns the [Issue]s it finds (none means valid),
// the standard entry point the reference calls without assuming a schema
// library (LA-TOOL-02); InputJSONSchema is the JSON Schema the model is
// offered (LA-TOOL-03).
type Schema = core.Schema

// Issue is one problem a [Schema] found: a Message and the Path to the
// offending value.
type Issue = core.Issue

// ToolResult is what a [Tool] returns: Content, a text for the model, and
// IsError, which makes it a tool error (LA-TOOL-06, LA-TOOL-07).
type ToolResult = core.ToolResult

// JSONSchema returns a [Schema] backed by the reference's own schema
// library (github.com/google/jsonschema-go): the Go counterpart of a tool
// written with a library schema such as Zod (LA-TOOL-04). It fails if raw
// is not a valid JSON Schema object of type "object".
func JSONSchema(raw json.RawMessage) (Schema, error) { return core.JSONSchema(raw) }
