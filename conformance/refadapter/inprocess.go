package refadapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/internal/fault"
	"github.com/mcpconform/mcpconform/reference/blade"
)

// Blade in-process servers through the contract: an mcpServers value
// {"type": "in-process", "name", "version", "tools": [{"name",
// "description", "schema"}]} is createSdkMcpServer({name, version, tools})
// over tool(name, description, schema, handler) values, each handler a
// call of the host's [adapter.InProcessHost] with this process's PID.

// inProcessEntry is an in-process mcpServers value of the contract.
type inProcessEntry struct {
	Type    string `json:"type"`
	Name    string `json:"name"`
	Version string `json:"version"`
	Tools   []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"schema"`
	} `json:"tools"`
}

// member is one member of a JSON object, in order.
type member struct {
	key   string
	value json.RawMessage
}

// members reads a JSON object's members in order; ok is false when raw is
// not an object or repeats a key.
func members(raw json.RawMessage) (out []member, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey || seen[key] {
			return nil, false
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, member{key, v})
	}
	return out, true
}

// bladeServers decodes a Blade mcpServers option whose values may be
// in-process servers of the contract; the others go to
// [blade.DecodeServers], which judges them, and the order is the
// option's.
func (a *refAdapter) bladeServers(ctx context.Context, raw json.RawMessage, host adapter.Host) ([]blade.NamedServer, error) {
	ms, ok := members(raw)
	var typed struct {
		Type string `json:"type"`
	}
	inProcess := map[string]*blade.SDKServerHandle{}
	var rest bytes.Buffer
	rest.WriteByte('{')
	for _, m := range ms {
		if !ok || json.Unmarshal(m.value, &typed) != nil || typed.Type != blade.TransportInProcess {
			if rest.Len() > 1 {
				rest.WriteByte(',')
			}
			k, _ := json.Marshal(m.key)
			rest.Write(k)
			rest.WriteByte(':')
			rest.Write(m.value)
			continue
		}
		h, err := a.inProcessServer(ctx, m.key, m.value, host)
		if err != nil {
			return nil, err
		}
		inProcess[m.key] = h
	}
	rest.WriteByte('}')
	if !ok || len(inProcess) == 0 {
		return blade.DecodeServers(raw)
	}
	external, err := blade.DecodeServers(rest.Bytes())
	if err != nil {
		return nil, err
	}
	out := make([]blade.NamedServer, 0, len(ms))
	for _, m := range ms {
		if h := inProcess[m.key]; h != nil {
			out = append(out, blade.NamedServer{Name: m.key, Config: h.ServerConfig()})
			continue
		}
		out, external = append(out, external[0]), external[1:]
	}
	return out, nil
}

// inProcessServer builds the in-process server of one mcpServers value.
func (a *refAdapter) inProcessServer(ctx context.Context, key string, raw json.RawMessage, host adapter.Host) (*blade.SDKServerHandle, error) {
	var e inProcessEntry
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return nil, adapter.Errorf(adapter.KindConfig, "mcpServers.%s: an in-process server is {type, name, version, tools: [{name, description, schema}]}: %v", key, err)
	}
	ih, _ := host.(adapter.InProcessHost)
	opts := blade.SDKServerOptions{Name: e.Name, Version: e.Version}
	fault.Inject(&opts, a.faults)
	for i, t := range e.Tools {
		tool, name := t.Name, e.Name
		st, err := blade.Tool(t.Name, t.Description, t.Schema, func(ctx context.Context, params json.RawMessage) (*blade.ToolCallResponse, error) {
			if ih == nil {
				return nil, fmt.Errorf("the host serves no in-process tool handlers")
			}
			res, err := ih.InProcessTool(ctx, adapter.InProcessToolRequest{Server: name, Tool: tool, Arguments: params, PID: os.Getpid()})
			if err != nil {
				return nil, err
			}
			var resp blade.ToolCallResponse
			if err := json.Unmarshal(res, &resp); err != nil {
				return nil, fmt.Errorf("the host's answer for %q is no McpToolCallResponse: %v", tool, err)
			}
			return &resp, nil
		})
		if err != nil {
			return nil, contractError(fmt.Errorf("mcpServers.%s.tools[%d]: %w", key, i, err))
		}
		opts.Tools = append(opts.Tools, st)
	}
	h, err := blade.CreateSDKMCPServer(ctx, opts)
	if err != nil {
		return nil, contractError(fmt.Errorf("mcpServers.%s: %w", key, err))
	}
	return h, nil
}

// ImplementationPID implements [adapter.ProcessOwner]: the reference runs
// in this process.
func (a *refAdapter) ImplementationPID() int { return os.Getpid() }
