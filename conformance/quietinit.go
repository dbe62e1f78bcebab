package conformance

// The runner's binaries start hundreds of processes from themselves (the
// stdio fakes, the sandbox wrapper, `adapter serve-reference`); package
// quietinit keeps godog's initialization from running the go command in
// each of them, and package godogready ends that window as soon as godog
// is initialized.
import _ "github.com/mcpconform/mcpconform/conformance/internal/quietinit/godogready"
