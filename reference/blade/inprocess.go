package blade

import (
	"context"
	"encoding/json"

	"github.com/mcpconform/mcpconform/internal/fault"
	"github.com/mcpconform/mcpconform/reference/internal/core"
)

// In-process MCP servers (BL-INP): tools written in Go, served inside the
// host process, used as an mcpServers value beside external servers. The
// session connects them over go-sdk's in-memory transport: no child
// process is started, and every handler runs in the host process with the
// model's arguments.

// TransportInProcess is the type of an in-process server's [ServerConfig]
// (BL-INP-03).
const TransportInProcess = core.TransportInProcess

// SDKTool is one tool of an in-process server, made by [Tool] (Blade's
// SdkTool).
type SDKTool = core.InProcessTool

// ToolHandler runs one call of an [SDKTool]: params are the model's
// arguments, a JSON object that matched the tool's schema, with the
// schema's defaults filled in where they were left out (interpretation
// B-10). An error is a tool error the model sees.
type ToolHandler = core.InProcessHandler

// ToolCallResponse is what a [ToolHandler] returns (Blade's
// McpToolCallResponse): content items, and IsError to mark the result as
// a tool error.
type ToolCallResponse = core.InProcessResponse

// Content is one item of a [ToolCallResponse]: Type "text" with Text,
// "image" with Data (base64) and MimeType, or "resource" with Text (or
// base64 Data) and MimeType.
type Content = core.InProcessContent

// Tool is Blade's tool(name, description, schema, handler) (BL-INP-01):
// schema is the JSON Schema of the tool's input, of type "object", with
// its properties' descriptions and defaults (what TypeBox's Type.Object
// produces); the model is shown it and the description as they are
// (BL-INP-11). An empty name, a schema that is not an object schema, or a
// nil handler is an error that names the field.
func Tool(name, description string, schema json.RawMessage, handler ToolHandler) (*SDKTool, error) {
	return core.NewInProcessTool(name, description, schema, handler)
}

// SDKServerOptions configure [CreateSDKMCPServer]: the server's Name and
// Version, as it reports them to the session, and its Tools.
type SDKServerOptions struct {
	Name    string
	Version string
	Tools   []*SDKTool

	// faults break rules on purpose, for the conformance suite's
	// mutation tests only; nothing outside this module can set them.
	faults fault.Set
}

func init() {
	fault.Register(func(o *SDKServerOptions, s fault.Set) { o.faults = s })
}

// SDKServerHandle is an in-process server (Blade's SdkMcpServerHandle):
// its Type is "in-process" (BL-INP-03), and its ServerConfig is the
// [ServerConfig] that puts it in a session's mcpServers, alone or beside
// external servers (BL-INP-04). One handle may serve several sessions.
type SDKServerHandle = core.InProcessServer

// CreateSDKMCPServer is Blade's createSdkMcpServer({name, version, tools})
// (BL-INP-02): a server in this process that serves the tools, in the
// order given. A server without a name, or two tools of one name, is an
// error. ctx is not kept; nothing runs until a session connects.
func CreateSDKMCPServer(ctx context.Context, opts SDKServerOptions) (*SDKServerHandle, error) {
	return core.NewInProcessServer(opts.Name, opts.Version, opts.Tools, opts.faults)
}
