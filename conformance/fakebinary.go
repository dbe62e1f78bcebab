package conformance

import (
	"debug/buildinfo"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
)

// fakeBinaryName is the small binary of the fakes (cmd/mcpconform-fake),
// looked for beside the runner's executable.
const fakeBinaryName = "mcpconform-fake"

// defaultFakeCommand is the command that runs the stdio fakes when
// [Options.FakeCommand] is not set: [fakeBinary] of the running
// executable, decided once per process.
var defaultFakeCommand = sync.OnceValues(func() ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return []string{fakeBinary(exe)}, nil
})

// fakeBinary returns the mcpconform-fake beside exe when it is a regular
// executable file of the same build as exe ([sameBuild]), and exe itself
// otherwise: a fake from another build could behave otherwise than the
// runner expects, so only one that provably links the same code is used.
// A fake process of it costs about a quarter of the CPU of one of exe,
// which links the runner, godog, fosite and the reference besides.
func fakeBinary(exe string) string {
	sibling := filepath.Join(filepath.Dir(exe), fakeBinaryName)
	st, err := os.Stat(sibling)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return exe
	}
	runner, err := buildinfo.ReadFile(exe)
	if err != nil {
		return exe
	}
	fake, err := buildinfo.ReadFile(sibling)
	if err != nil || !sameBuild(runner, fake) {
		return exe
	}
	return sibling
}

// buildKeys are the build settings that change the code of a binary,
// which the runner and its fake binary must share.
var buildKeys = []string{"-compiler", "-tags", "-race", "-msan", "-asan", "-ldflags", "-gcflags", "-asmflags",
	"CGO_ENABLED", "GOOS", "GOARCH", "GOAMD64", "GOARM64", "GOEXPERIMENT", "vcs", "vcs.revision", "vcs.modified"}

// sameBuild reports whether fake provably comes from the same source as
// runner: the same Go, the same main module at one released version (go
// install ...@version) or at one clean VCS revision (a build in a checkout
// without uncommitted changes), every module fake links at the version
// runner links, and the same build settings. A build from a modified
// checkout proves nothing, as the two could have been built from
// different edits.
func sameBuild(runner, fake *debug.BuildInfo) bool {
	if runner.GoVersion != fake.GoVersion || runner.Main != fake.Main {
		return false
	}
	setting := func(bi *debug.BuildInfo, key string) string {
		for _, s := range bi.Settings {
			if s.Key == key {
				return s.Value
			}
		}
		return ""
	}
	for _, k := range buildKeys {
		if setting(runner, k) != setting(fake, k) {
			return false
		}
	}
	released := runner.Main.Version != "" && runner.Main.Version != "(devel)"
	clean := setting(runner, "vcs.revision") != "" && setting(runner, "vcs.modified") == "false"
	if !released && !clean {
		return false
	}
	for _, d := range fake.Deps {
		i := slices.IndexFunc(runner.Deps, func(r *debug.Module) bool { return r.Path == d.Path })
		if i < 0 || !sameModule(runner.Deps[i], d) {
			return false
		}
	}
	return true
}

// sameModule reports whether two modules of build information are the
// same version of the same module, replacements included.
func sameModule(a, b *debug.Module) bool {
	if a.Path != b.Path || a.Version != b.Version || a.Sum != b.Sum || (a.Replace == nil) != (b.Replace == nil) {
		return false
	}
	return a.Replace == nil || sameModule(a.Replace, b.Replace)
}
