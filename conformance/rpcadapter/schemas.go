package rpcadapter

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/mcpconform/mcpconform/spec"
)

// Schemas validates protocol messages against the JSON Schemas of
// spec/protocol.
type Schemas struct {
	resolved map[string]*jsonschema.Resolved // by file name
}

// schemaBase is the base of every protocol schema's $id.
const schemaBase = "https://mcpconform.dev/protocol/v1/"

// LoadSchemas resolves every schema of the protocol.
func LoadSchemas() (*Schemas, error) {
	files, err := fs.Glob(spec.ProtocolSchemas, "protocol/*.json")
	if err != nil {
		return nil, err
	}
	raw := map[string]*jsonschema.Schema{}
	for _, f := range files {
		data, err := fs.ReadFile(spec.ProtocolSchemas, f)
		if err != nil {
			return nil, err
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		raw[path.Base(f)] = &s
	}
	loader := func(u *url.URL) (*jsonschema.Schema, error) {
		name := strings.TrimPrefix(u.String(), schemaBase)
		if s, ok := raw[name]; ok {
			return s, nil
		}
		return nil, fmt.Errorf("no protocol schema %s", u)
	}
	out := &Schemas{resolved: map[string]*jsonschema.Resolved{}}
	for name, s := range raw {
		r, err := s.Resolve(&jsonschema.ResolveOptions{BaseURI: schemaBase + name, Loader: loader})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out.resolved[name] = r
	}
	return out, nil
}

// schemaFor names the schema a message must follow.
func schemaFor(t Traffic) string {
	if t.Kind == "error" {
		return "error.schema.json"
	}
	m := strings.ReplaceAll(t.Method, "/", ".")
	if t.Method == methodCancel {
		m = "cancelRequest"
	}
	if t.Kind == "result" {
		return m + ".result.schema.json"
	}
	return m + ".params.schema.json"
}

// Validate checks one message against its schema. A message of a method
// without a schema is an error: every message of the protocol has one.
func (s *Schemas) Validate(t Traffic) error {
	name := schemaFor(t)
	r, ok := s.resolved[name]
	if !ok {
		return fmt.Errorf("no schema %s for a %s of %q", name, t.Kind, t.Method)
	}
	var v any
	payload := t.Payload
	if len(payload) == 0 {
		payload = json.RawMessage("null")
	}
	if err := json.Unmarshal(payload, &v); err != nil {
		return fmt.Errorf("%s of %q is not JSON: %w", t.Kind, t.Method, err)
	}
	if err := r.Validate(v); err != nil {
		return fmt.Errorf("%s of %q does not match %s: %w", t.Kind, t.Method, name, err)
	}
	return nil
}
