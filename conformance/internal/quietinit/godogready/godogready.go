// Package godogready ends the window of [quietinit]: it imports godog, so
// it is initialized as soon as godog is, and puts PATH back then, before
// most of the runner's other dependencies (and any package of a program
// that links the runner) are initialized.
package godogready

import (
	_ "github.com/cucumber/godog" // initialized first: its builder has run

	"github.com/mcpconform/mcpconform/conformance/internal/quietinit"
)

func init() { quietinit.Restore() }
