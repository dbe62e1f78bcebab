package node_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/internal/fault"
)

// chromium finds Debian's Chromium: `make deps` installs it.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("Chromium is not installed: run `make deps` (Debian's package chromium)")
	return ""
}

// headless runs Chromium headless on a local file, as the machine allows:
// no sandbox (root), no network of its own, a fresh profile.
func headless(t *testing.T, args ...string) []byte {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, chromium(t), append(base, args...)...)
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr)
	}
	return out
}

// TestMatrixOpensInChromium draws the HTML matrix of three runs (the
// reference, a mutated reference, the Node stub), opens it in a real
// headless Chromium, checks the cells in the DOM Chromium built, and keeps
// a screenshot among the test's artifacts (go test -artifacts).
func TestMatrixOpensInChromium(t *testing.T) {
	node := nodeTarget(t)
	rules := []string{"LA-NAME-02", "LA-CFG-07", "LA-OAU-03"}
	runs := []struct {
		name   string
		target adapter.Target
	}{
		{"reference", refadapter.Target{}},
		{"mutant", refadapter.Target{Faults: []fault.Fault{fault.AliasLength}}},
		{"node", node},
	}
	var cols []conformance.Column
	for _, r := range runs {
		rep, err := conformance.Run(context.Background(), conformance.Options{Target: r.target, Rules: rules})
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		cols = append(cols, conformance.Column{Report: rep})
	}
	dir := t.ArtifactDir()
	page := filepath.Join(dir, "matrix.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := conformance.WriteHTML(f, cols); err != nil {
		t.Fatal(err)
	}
	f.Close()
	dom := string(headless(t, "--dump-dom", "file://"+page))
	cells := func(rule string) []string {
		row := regexp.MustCompile(`(?s)<tr class="rule[^"]*" id="rule-` + rule + `">(.*?)</tr>`).FindStringSubmatch(dom)
		if row == nil {
			t.Fatalf("the DOM has no row for %s", rule)
		}
		var out []string
		for _, m := range regexp.MustCompile(`<td class="cell ([a-z-]+)"`).FindAllStringSubmatch(row[1], -1) {
			out = append(out, m[1])
		}
		return out
	}
	want := map[string][]string{
		"LA-NAME-02": {"pass", "fail", "pass"},
		"LA-CFG-07":  {"pass", "pass", "pass"},
		"LA-OAU-03":  {"pass", "pass", "skip"},
	}
	for rule, w := range want {
		if got := cells(rule); strings.Join(got, ",") != strings.Join(w, ",") {
			t.Errorf("%s: cells %v, want %v (reference, mutant, node stub)", rule, got, w)
		}
	}
	if !strings.Contains(dom, `id="c1-lite-agent--naming--a-rejected-alias-starts-nothing-and-asks-nothing"`) {
		t.Error("the mutant's failed scenario has no section to link to")
	}
	shot := filepath.Join(dir, "matrix.png")
	headless(t, "--screenshot="+shot, "--window-size=1400,1800", "file://"+page)
	if info, err := os.Stat(shot); err != nil || info.Size() < 10_000 {
		t.Errorf("no screenshot at %s (%v)", shot, err)
	}
	t.Logf("matrix and screenshot in %s", dir)
}
