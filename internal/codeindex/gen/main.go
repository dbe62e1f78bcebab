// Command gen writes internal/codeindex/index.json from the module's
// source: run it with `go generate ./internal/codeindex`.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpconform/mcpconform/internal/codeindex"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "codeindex/gen:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := codeindex.ModuleRoot(".")
	if err != nil {
		return err
	}
	ix, err := codeindex.Scan(root)
	if err != nil {
		return err
	}
	b, err := ix.Marshal()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, "internal", "codeindex", codeindex.File), b, 0o644)
}
