package conformance

import (
	"os"
	"path/filepath"
	"runtime/debug"
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

// TestFakeBinaryNeedsASibling shows that without a mcpconform-fake beside
// it, or with one that is no build at all, the runner serves the fakes
// itself.
func TestFakeBinaryNeedsASibling(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "mcpconform")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := fakeBinary(exe); got != exe {
		t.Errorf("no sibling:\nExpected: %s\nActual:   %s", exe, got)
	}
	if err := os.WriteFile(filepath.Join(dir, fakeBinaryName), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := fakeBinary(exe); got != exe {
		t.Errorf("a sibling that is no Go build:\nExpected: %s\nActual:   %s", exe, got)
	}
}

// TestFakeBinaryOfTheSameBuild shows that a fake binary of the same build
// beside the runner is taken: the test binary, which serves the fakes
// too, as both the runner and its sibling.
func TestFakeBinaryOfTheSameBuild(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	exe, sibling := filepath.Join(dir, "mcpconform"), filepath.Join(dir, fakeBinaryName)
	for _, p := range []string{exe, sibling} {
		if err := os.Link(self, p); err != nil {
			t.Skipf("cannot link the test binary into %s: %v", dir, err)
		}
	}
	if got := fakeBinary(exe); got != sibling {
		t.Errorf("Expected: %s\nActual:   %s", sibling, got)
	}
	if got := siblingDigest(sibling); got != fakes.Digest() {
		t.Errorf("the sibling's digest:\nExpected: %s\nActual:   %q", fakes.Digest(), got)
	}
}
