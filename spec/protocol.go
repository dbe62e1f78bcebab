package spec

import "embed"

// ProtocolSchemas holds the JSON Schema (draft 2020-12) of every message of
// the adapter protocol (adapter-protocol.md), under protocol/:
// <method>.params.schema.json and <method>.result.schema.json with "/"
// replaced by ".", cancelRequest.params.schema.json, error.schema.json and
// definitions.schema.json. Each schema's $id is
// https://mcpconform.dev/protocol/v1/<file name>.
//
//go:embed protocol/*.json
var ProtocolSchemas embed.FS
