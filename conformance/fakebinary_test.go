package conformance

import (
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/fakes"
)

// TestSameBuild shows that the runner takes the fake binary beside it only
// when both were built alike: the same Go, modules and settings (the
// fakes' sources are compared apart, by digest).
func TestSameBuild(t *testing.T) {
	mod := func(v string) *debug.Module {
		return &debug.Module{Path: "example.com/dep", Version: v, Sum: "h1:" + v}
	}
	build := func(edit func(*debug.BuildInfo)) *debug.BuildInfo {
		bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/mcpconform/mcpconform", Version: "(devel)"},
			Deps: []*debug.Module{mod("v1.0.0")},
			Settings: []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "vcs", Value: "git"},
				{Key: "vcs.revision", Value: "894e4bd"}, {Key: "vcs.modified", Value: "false"}}}
		if edit != nil {
			edit(bi)
		}
		return bi
	}
	set := func(key, value string) func(*debug.BuildInfo) {
		return func(bi *debug.BuildInfo) {
			for i := range bi.Settings {
				if bi.Settings[i].Key == key {
					bi.Settings[i].Value = value
					return
				}
			}
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: key, Value: value})
		}
	}
	released := func(bi *debug.BuildInfo) {
		bi.Main.Version, bi.Main.Sum = "v0.1.0", "h1:x"
		bi.Settings = bi.Settings[:1]
	}
	for _, tc := range []struct {
		name         string
		runner, fake *debug.BuildInfo
		want         bool
	}{
		{"one clean revision", build(nil), build(nil), true},
		{"one released version", build(released), build(released), true},
		{"a modified checkout (the digest decides)", build(set("vcs.modified", "true")), build(set("vcs.modified", "true")), true},
		{"no version and no VCS (the digest decides)", build(func(bi *debug.BuildInfo) { bi.Settings = bi.Settings[:1] }), build(func(bi *debug.BuildInfo) { bi.Settings = bi.Settings[:1] }), true},
		{"another main module", build(nil), build(func(bi *debug.BuildInfo) { bi.Main.Path = "example.com/fork" }), false},
		{"a fake linking fewer modules", build(func(bi *debug.BuildInfo) {
			bi.Deps = append(bi.Deps, &debug.Module{Path: "example.com/more", Version: "v2.0.0"})
		}), build(nil), true},
		{"another Go", build(nil), build(func(bi *debug.BuildInfo) { bi.GoVersion = "go1.25.0" }), false},
		{"a module at another version", build(nil), build(func(bi *debug.BuildInfo) { bi.Deps = []*debug.Module{mod("v1.0.1")} }), false},
		{"a module the runner lacks", build(nil), build(func(bi *debug.BuildInfo) {
			bi.Deps = append(bi.Deps, mod("v1.0.0"))
			bi.Deps[1].Path = "example.com/other"
		}), false},
		{"a replaced module", build(nil), build(func(bi *debug.BuildInfo) {
			bi.Deps = []*debug.Module{mod("v1.0.0")}
			bi.Deps[0].Replace = mod("v0.9.0")
		}), false},
		{"the race detector on one side", build(nil), build(set("-race", "true")), false},
		{"other build tags", build(set("-tags", "a")), build(set("-tags", "b")), false},
	} {
		if got := sameBuild(tc.runner, tc.fake); got != tc.want {
			t.Errorf("%s:\nExpected: sameBuild %v\nActual:   %v", tc.name, tc.want, got)
		}
	}
}

// TestFakeCommandFor shows which command serves the stdio fakes: the
// mcpconform-fake beside the runner when it is of the same build; else the
// runner itself, but only when it calls mcpfake.Main; else a usage error
// that says what to do, instead of a binary restarted into its own main.
func TestFakeCommandFor(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := func(dir, name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(dir, name string) string {
		p := filepath.Join(dir, name)
		if err := os.Link(self, p); err != nil {
			t.Skipf("cannot link the test binary into %s: %v", dir, err)
		}
		return p
	}
	for _, tc := range []struct {
		name    string
		sibling func(dir string) // puts (or not) a mcpconform-fake beside the runner
		served  bool
		want    string // "exe", "sibling", or "" for the usage error
	}{
		{"no sibling, the runner serves", func(string) {}, true, "exe"},
		{"no sibling, the runner does not serve", func(string) {}, false, ""},
		{"a sibling that is no Go build", func(dir string) { script(dir, fakeBinaryName) }, true, "exe"},
		{"a sibling that is no Go build, the runner does not serve", func(dir string) { script(dir, fakeBinaryName) }, false, ""},
		{"a sibling of the same build", func(dir string) { link(dir, fakeBinaryName) }, false, "sibling"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			exe := link(dir, "mcpconform")
			tc.sibling(dir)
			got, err := fakeCommandFor(exe, tc.served)
			switch tc.want {
			case "":
				var u *UsageError
				if !errors.As(err, &u) || !strings.Contains(err.Error(), "mcpfake.Main") || !strings.Contains(err.Error(), exe) {
					t.Fatalf("Expected: a usage error naming %s and mcpfake.Main\nActual:   %v, %v", exe, got, err)
				}
			default:
				want := map[string]string{"exe": exe, "sibling": filepath.Join(dir, fakeBinaryName)}[tc.want]
				if err != nil || len(got) != 1 || got[0] != want {
					t.Fatalf("Expected: [%s]\nActual:   %v, %v", want, got, err)
				}
			}
		})
	}
	if got := siblingDigest(self); got != fakes.Digest() {
		t.Errorf("the test binary's digest:\nExpected: %s\nActual:   %q", fakes.Digest(), got)
	}
}
