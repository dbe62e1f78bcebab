package core

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// In-process MCP servers of the Blade profile (BL-INP): tools written in
// the host's own language, served by a go-sdk server in the host process
// over go-sdk's in-memory transport. The session connects, lists and
// calls them as it does any server, so that they are named, ordered,
// validated and permitted like every other MCP tool; no child process is
// started (BL-INP-05) and each handler runs in the host's goroutines
// (BL-INP-06).

// TransportInProcess is the type of an in-process server's configuration:
// the discriminant that sets it apart from the external ones (BL-INP-03).
const TransportInProcess = "in-process"

// InProcessHandler runs one call of an in-process tool with the model's
// arguments (a JSON object that passed the tool's schema, its defaults
// filled in; interpretation B-10) and returns the tool's response. An
// error is a tool error the model sees.
type InProcessHandler func(ctx context.Context, params json.RawMessage) (*InProcessResponse, error)

// InProcessResponse is Blade's McpToolCallResponse: content items, and
// IsError to mark the result as an error (BL-INP-08, BL-INP-09).
type InProcessResponse struct {
	Content []InProcessContent `json:"content"`
	IsError bool               `json:"isError,omitempty"`
}

// InProcessContent is one content item of an [InProcessResponse]: Type
// "text" (Text), "image" (Data, base64, and MimeType) or "resource" (Text
// or Data, and MimeType; Blade's item has no URI, interpretation B-18).
type InProcessContent struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
}

// InProcessTool is one tool of an in-process server, as tool() makes it
// ([NewInProcessTool]).
type InProcessTool struct {
	name, description string
	schema            json.RawMessage
	resolved          *jsonschema.Resolved
	handler           InProcessHandler
}

// Name is the tool's own name, the one its server declares.
func (t *InProcessTool) Name() string { return t.name }

// NewInProcessTool is Blade's tool(name, description, schema, handler)
// (BL-INP-01): schema is the JSON Schema of the tool's input, an object
// schema with its properties' descriptions and defaults (what TypeBox's
// Type.Object produces). A name that is empty, a schema that is not an
// object schema, or no handler, is an error naming what is wrong.
func NewInProcessTool(name, description string, schema json.RawMessage, handler InProcessHandler) (*InProcessTool, error) {
	switch {
	case name == "":
		return nil, &Error{Kind: KindConfig, Rule: "BL-INP-01", Field: "name", Msg: "an in-process tool needs a name"}
	case handler == nil:
		return nil, &Error{Kind: KindConfig, Rule: "BL-INP-01", Field: "handler", Msg: fmt.Sprintf("in-process tool %q has no handler", name)}
	}
	raw, resolved, err := compileSchema(schema)
	if err != nil {
		return nil, &Error{Kind: KindValidation, Rule: "BL-INP-01", Field: "schema", Msg: fmt.Sprintf("the schema of in-process tool %q is not an object schema", name), Err: err}
	}
	return &InProcessTool{name: name, description: description, schema: raw, resolved: resolved, handler: handler}, nil
}

// InProcessServer is an in-process MCP server (createSdkMcpServer's
// SdkMcpServerHandle, [NewInProcessServer]): a go-sdk server in the host
// process, with one session for every connection a host makes to it.
type InProcessServer struct {
	name, version string
	tools         []*InProcessTool
	srv           *mcp.Server
	faults        fault.Set
}

// NewInProcessServer is Blade's createSdkMcpServer({name, version, tools})
// (BL-INP-02): a server named name at version serving tools, in the order
// given. Two tools of one name are an error; so is a server without a
// name.
func NewInProcessServer(name, version string, tools []*InProcessTool, m fault.Set) (*InProcessServer, error) {
	if name == "" {
		return nil, &Error{Kind: KindConfig, Rule: "BL-INP-02", Field: "name", Msg: "an in-process server needs a name"}
	}
	s := &InProcessServer{name: name, version: version, faults: m}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: name, Version: version}, nil)
	for i, t := range tools {
		switch {
		case t == nil:
			return nil, &Error{Kind: KindConfig, Rule: "BL-INP-01", Field: fmt.Sprintf("tools[%d]", i), Msg: fmt.Sprintf("in-process server %q has no tool at %d", name, i)}
		case slices.ContainsFunc(s.tools, func(o *InProcessTool) bool { return o.name == t.name }):
			return nil, &Error{Kind: KindConfig, Rule: "BL-INP-02", Field: fmt.Sprintf("tools[%d].name", i), Msg: fmt.Sprintf("in-process server %q has two tools named %q", name, t.name)}
		}
		// BL-INP-01: every tool() value is a tool of the server.
		if m.Has(fault.BladeInProcessFirstToolOnly) && i > 0 {
			continue
		}
		s.tools = append(s.tools, t)
		s.srv.AddTool(s.definition(t), s.handle(t))
	}
	return s, nil
}

// Type is the handle's discriminant, "in-process" (BL-INP-03).
func (s *InProcessServer) Type() string { return TransportInProcess }

// Name and Version are the server's, as createSdkMcpServer was given them.
func (s *InProcessServer) Name() string    { return s.name }
func (s *InProcessServer) Version() string { return s.version }

// ServerConfig is the handle as a Blade mcpServers value, usable beside
// external servers (BL-INP-04).
func (s *InProcessServer) ServerConfig() BladeServerConfig {
	return BladeServerConfig{ServerConfig: ServerConfig{Type: TransportInProcess}, InProcess: s}
}

// definition is the MCP tool a tool() value declares: its description and
// its schema, property descriptions and defaults included (BL-INP-11).
func (s *InProcessServer) definition(t *InProcessTool) *mcp.Tool {
	schema := t.schema
	// BL-INP-11: the model is shown the schema's property descriptions.
	if s.faults.Has(fault.BladeInProcessBareSchema) {
		schema = withoutDescriptions(schema)
	}
	return &mcp.Tool{Name: t.name, Description: t.description, InputSchema: schema}
}

// withoutDescriptions drops the descriptions of a schema's properties; it
// serves only [fault.BladeInProcessBareSchema].
func withoutDescriptions(raw json.RawMessage) json.RawMessage {
	var v map[string]any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	if props, ok := v["properties"].(map[string]any); ok {
		for _, p := range props {
			if pm, ok := p.(map[string]any); ok {
				delete(pm, "description")
			}
		}
	}
	out, _ := json.Marshal(v)
	return out
}

// handle is the go-sdk handler of a tool: it fills in the schema's
// defaults (interpretation B-10), runs the tool's handler in this process
// and turns its response into an MCP result (BL-INP-06..10). The session
// validated the arguments before it sent the call (BL-INP-07, LA-VAL-01).
func (s *InProcessServer) handle(t *InProcessTool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := json.RawMessage(req.Params.Arguments)
		// BL-INP-07: the handler gets the model's arguments.
		if s.faults.Has(fault.BladeInProcessNoArguments) {
			args = json.RawMessage(`{}`)
		}
		args = t.withDefaults(args)
		// BL-INP-06: the handler runs in this process, within the call.
		if s.faults.Has(fault.BladeInProcessDetached) {
			go func() { _, _ = t.handler(context.WithoutCancel(ctx), args) }()
			return &mcp.CallToolResult{Content: []mcp.Content{}}, nil
		}
		resp, err := t.handler(ctx, args)
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
		}
		return s.result(t, resp)
	}
}

// withDefaults fills in the defaults of the schema's properties that the
// arguments leave out (interpretation B-10); arguments that are not an
// object are left as they are.
func (t *InProcessTool) withDefaults(args json.RawMessage) json.RawMessage {
	var v map[string]any
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	if json.Unmarshal(args, &v) != nil || v == nil {
		return args
	}
	if err := t.resolved.ApplyDefaults(&v); err != nil {
		return args
	}
	out, err := json.Marshal(v)
	if err != nil {
		return args
	}
	return out
}

// result turns a handler's response into an MCP result: text, image and
// resource items (BL-INP-08, BL-INP-10) and isError (BL-INP-09).
func (s *InProcessServer) result(t *InProcessTool, resp *InProcessResponse) (*mcp.CallToolResult, error) {
	if resp == nil {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("BL-INP-08: in-process tool %q returned no response", t.name)}}}, nil
	}
	out := &mcp.CallToolResult{Content: []mcp.Content{}, IsError: resp.IsError}
	// BL-INP-09: isError marks the result as an error.
	if s.faults.Has(fault.BladeInProcessIgnoreIsError) {
		out.IsError = false
	}
	for i, c := range resp.Content {
		item, err := s.content(c)
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("in-process tool %q: content[%d]: %v", t.name, i, err)}}}, nil
		}
		if item != nil {
			out.Content = append(out.Content, item)
		}
	}
	return out, nil
}

// content converts one McpToolCallResponse item.
func (s *InProcessServer) content(c InProcessContent) (mcp.Content, error) {
	switch c.Type {
	case "text":
		// BL-INP-08: the text reaches the model.
		if s.faults.Has(fault.BladeInProcessDropText) {
			return nil, nil
		}
		return &mcp.TextContent{Text: c.Text}, nil
	case "image", "resource":
		// BL-INP-10: image and resource items are accepted.
		if s.faults.Has(fault.BladeInProcessTextOnly) {
			return nil, &Error{Kind: KindUnsupported, Rule: "BL-INP-10", Msg: fmt.Sprintf("content of type %q is not supported (mutated)", c.Type)}
		}
	default:
		return nil, &Error{Kind: KindValidation, Rule: "BL-INP-08", Field: "type", Msg: fmt.Sprintf("content type %q is none of text, image and resource", c.Type)}
	}
	if c.Type == "image" {
		data, err := base64.StdEncoding.DecodeString(c.Data)
		if err != nil {
			return nil, &Error{Kind: KindValidation, Rule: "BL-INP-10", Field: "data", Msg: "an image item's data is not base64", Err: err}
		}
		return &mcp.ImageContent{Data: data, MIMEType: c.MimeType}, nil
	}
	// Blade's resource item has no URI (interpretation B-18): it is
	// embedded under one that names it as the tool's own.
	rc := &mcp.ResourceContents{URI: "blade-inprocess:resource", MIMEType: c.MimeType, Text: c.Text}
	if c.Data != "" {
		data, err := base64.StdEncoding.DecodeString(c.Data)
		if err != nil {
			return nil, &Error{Kind: KindValidation, Rule: "BL-INP-10", Field: "data", Msg: "a resource item's data is not base64", Err: err}
		}
		rc.Blob, rc.Text = data, ""
	}
	return &mcp.EmbeddedResource{Resource: rc}, nil
}

// transport connects a new session of the server over go-sdk's in-memory
// transport and returns the client's end (BL-INP-05: no process).
func (s *InProcessServer) transport(ctx context.Context, environ []string) (mcp.Transport, func(), error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.srv.Connect(ctx, st, nil)
	if err != nil {
		return nil, nil, err
	}
	stop := func() { _ = ss.Close() }
	// BL-INP-05: an in-process server starts no child process.
	if s.faults.Has(fault.BladeInProcessSpawns) {
		cmd := exec.Command("sh", "-c", "read -r _")
		cmd.Env = environ
		stdin, perr := cmd.StdinPipe()
		if perr == nil && cmd.Start() == nil {
			stop = func() {
				_ = ss.Close()
				_ = stdin.Close()
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
			}
		}
	}
	return ct, stop, nil
}
