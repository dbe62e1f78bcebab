package core

import (
	"encoding/json"
	"os"
)

// What the faults do that the reference itself never does lives beside the
// code it breaks, except for the helpers below, which only a fault calls.

// removeFromFile deletes server name from the mcpServers of a configuration
// file. It exists only for [fault.UnregisterEditsFile]: the reference never
// writes configuration files (LA-REG-13).
func removeFromFile(path, name string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var doc map[string]map[string]json.RawMessage
	if json.Unmarshal(data, &doc) != nil {
		return
	}
	delete(doc["mcpServers"], name)
	if out, err := json.MarshalIndent(doc, "", "  "); err == nil {
		_ = os.WriteFile(path, out, 0o644)
	}
}
