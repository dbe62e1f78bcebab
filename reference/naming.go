package reference

import "github.com/mcpconform/mcpconform/reference/internal/core"

// ToolPrefix starts every MCP tool name offered to the model.
const ToolPrefix = core.ToolPrefix

// ToolName returns the name under which tool of server alias is offered to
// the model and authorized: mcp__<alias>__<tool> (LA-NAME-01).
func ToolName(alias, tool string) string { return core.ToolName(alias, tool) }

// ValidateAlias checks a server alias: 1 to 24 letters, digits, '_' or '-',
// without "__" (LA-NAME-02..04). The error is a [KindName] [*Error].
func ValidateAlias(alias string) error { return core.ValidateAlias(alias) }

// ValidateToolName checks the full name of a discovered tool: at most 64
// letters, digits, '_' or '-' (LA-NAME-05, LA-NAME-06). raw is the server's
// own name for the tool, quoted in the error.
func ValidateToolName(full, raw string) error { return core.ValidateToolName(full, raw) }
