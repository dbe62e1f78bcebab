package core

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// Tool is a tool the host defines (lite-agent's core Tool interface),
// offered to the model beside the MCP tools and under the same permission
// policy, hooks and events.
type Tool interface {
	// Name is the tool's name as the model sees it.
	Name() string
	// Description tells the model what the tool does.
	Description() string
	// Schema validates the tool's input and exports its JSON Schema.
	Schema() Schema
	// Execute runs the tool with input that passed the schema.
	Execute(ctx context.Context, input json.RawMessage) (ToolResult, error)
}

// Schema is a tool's input schema in the shape of Standard Schema: the
// reference validates through Validate, the standard entry point, and never
// assumes a particular schema library (LA-TOOL-02); the model is offered
// InputJSONSchema, the Standard JSON Schema input export (LA-TOOL-03).
type Schema interface {
	// Validate checks input and returns the issues found; no issues means
	// valid. It may take its time (an async validate); ctx bounds it.
	Validate(ctx context.Context, input json.RawMessage) ([]Issue, error)
	// InputJSONSchema is the JSON Schema of the input, for the model.
	InputJSONSchema() json.RawMessage
}

// Issue is one problem a [Schema] found.
type Issue struct {
	Message string   `json:"message"`
	Path    []string `json:"path,omitempty"`
}

// ToolResult is what a tool returns: a text for the model, a tool error
// when IsError is set (LA-TOOL-06, LA-TOOL-07).
type ToolResult struct {
	Content string
	IsError bool
}

// JSONSchema returns a [Schema] backed by the reference's own schema
// library (github.com/google/jsonschema-go): the Go counterpart of a tool
// written with a library schema such as Zod (LA-TOOL-04). It fails if raw
// is not a valid JSON Schema object.
func JSONSchema(raw json.RawMessage) (Schema, error) {
	_, resolved, err := compileSchema(raw)
	if err != nil {
		return nil, err
	}
	return &librarySchema{raw: raw, resolved: resolved}, nil
}

type librarySchema struct {
	raw      json.RawMessage
	resolved *jsonschema.Resolved
}

func (s *librarySchema) Validate(ctx context.Context, input json.RawMessage) ([]Issue, error) {
	var v any
	if err := json.Unmarshal(input, &v); err != nil {
		return []Issue{{Message: fmt.Sprintf("the input is not JSON: %v", err)}}, nil
	}
	if err := s.resolved.Validate(v); err != nil {
		return []Issue{{Message: err.Error()}}, nil
	}
	return nil, nil
}

func (s *librarySchema) InputJSONSchema() json.RawMessage { return s.raw }
