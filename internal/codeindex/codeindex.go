// Package codeindex says where things are in mcpconform's source: the
// reference code that enforces each rule (every comment that names the rule
// and every error that carries its ID), and the definition of each method
// of the conformance world that runs a step. `mcpconform explain` prints it,
// so the index is generated (go generate ./internal/codeindex) and embedded,
// and the installed binary needs no source tree.
package codeindex

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
)

//go:generate go run ./gen

// File is the name of the generated index, beside this file.
const File = "index.json"

//go:embed index.json
var embedded []byte

// Index is where the rules are enforced and the steps are defined.
type Index struct {
	// Rules maps a rule ID to the places that enforce it, in file and line
	// order.
	Rules map[string][]Site `json:"rules"`
	// Steps maps the name of a method of the conformance world to where it
	// is defined.
	Steps map[string]Site `json:"steps"`
}

// Site is one place in the source.
type Site struct {
	// File is the path from the module's root, with "/" separators.
	File string `json:"file"`
	Line int    `json:"line"`
	// Func names the declaration the place is in or documents, e.g.
	// "(*Agent).Register", or "" outside any.
	Func string `json:"func,omitempty"`
	// Text is the source line, trimmed and cut to [MaxText] bytes.
	Text string `json:"text,omitempty"`
}

// MaxText bounds [Site.Text].
const MaxText = 160

var (
	once    sync.Once
	loaded  *Index
	errLoad error
)

// Load returns the embedded index.
func Load() (*Index, error) {
	once.Do(func() {
		loaded = &Index{}
		if err := json.Unmarshal(embedded, loaded); err != nil {
			errLoad = fmt.Errorf("codeindex: the embedded %s: %w", File, err)
		}
	})
	return loaded, errLoad
}

// String is "file:line".
func (s Site) String() string { return fmt.Sprintf("%s:%d", s.File, s.Line) }
