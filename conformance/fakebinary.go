package conformance

import (
	"context"
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpconform/mcpconform/fakes"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/internal/fakebin"
)

// fakeBinaryName is the small binary of the fakes (cmd/mcpconform-fake),
// looked for beside the runner's executable.
const fakeBinaryName = "mcpconform-fake"

// defaultFakeCommand is the command that runs the stdio fakes when
// [Options.FakeCommand] is not set, decided once per process:
// [fakeBinary] beside the running executable, or else the executable
// itself when it serves the fakes ([mcpfake.Main]). In this module's own
// test binaries, the small binary of the fakes built for them
// ([fakebin.Command]).
var defaultFakeCommand = sync.OnceValues(func() ([]string, error) {
	if cmd, ok := fakebin.Command(); ok {
		return cmd, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("conformance: cannot find the running executable to serve stdio fakes: %w", err)
	}
	return fakeCommandFor(exe, mcpfake.Served())
})

// fakeCommandFor is [defaultFakeCommand] for the executable exe, which
// serves the fakes itself when served is true.
func fakeCommandFor(exe string, served bool) ([]string, error) {
	if sibling, ok := fakeBinary(exe); ok {
		return []string{sibling}, nil
	}
	if !served {
		return nil, &UsageError{Msg: fmt.Sprintf("no command serves the stdio fakes: %q has no %s of the same build beside it "+
			"and does not call mcpfake.Main (call it first in main or TestMain, or set Options.FakeCommand)",
			exe, fakeBinaryName)}
	}
	return []string{exe}, nil
}

// fakeBinary returns the mcpconform-fake beside exe, and true, when it is
// a regular executable file that runs the same fakes as exe: the same
// build ([sameBuild]) and the same sources of the fakes ([fakes.Digest],
// which it prints when asked). A fake from another build could behave
// otherwise than the runner expects. A fake process of the small binary
// costs about a quarter of the CPU of one of exe, which links the runner,
// godog, fosite and the reference besides.
func fakeBinary(exe string) (string, bool) {
	sibling := filepath.Join(filepath.Dir(exe), fakeBinaryName)
	st, err := os.Stat(sibling)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return "", false
	}
	runner, err := buildinfo.ReadFile(exe)
	if err != nil {
		return "", false
	}
	fake, err := buildinfo.ReadFile(sibling)
	if err != nil || !sameBuild(runner, fake) || siblingDigest(sibling) != fakes.Digest() {
		return "", false
	}
	return sibling, true
}

// siblingDigest asks the fake binary at path for its [fakes.Digest],
// waiting at most digestWait; "" when it does not answer one.
func siblingDigest(path string) string {
	ctx, cancel := context.WithTimeout(context.Background(), digestWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, mcpfake.DigestSubcommand)
	cmd.Env = []string{} // it needs nothing of the runner's
	out, err := cmd.Output()
	if err != nil || len(out) > 100 {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// digestWait bounds the question of [siblingDigest].
const digestWait = 10 * time.Second

// buildKeys are the build settings that change the code of a binary,
// which the runner and its fake binary must share.
var buildKeys = []string{"-compiler", "-tags", "-race", "-msan", "-asan", "-ldflags", "-gcflags", "-asmflags",
	"CGO_ENABLED", "GOOS", "GOARCH", "GOAMD64", "GOARM64", "GOEXPERIMENT"}

// sameBuild reports whether fake was built like runner: the same Go, the
// same main module, every module fake links at the version runner links
// (replacements included), and the same build settings. The sources of
// the main module's own fakes are compared apart ([fakes.Digest]), as a
// build from a checkout records no version of them.
func sameBuild(runner, fake *debug.BuildInfo) bool {
	if runner.GoVersion != fake.GoVersion || runner.Main.Path != fake.Main.Path {
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
