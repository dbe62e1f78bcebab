package conformance

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestOpenersRecordWhatWasStarted starts every opener, and the BROWSER, the
// way an implementation would (by name, on the world's PATH and
// environment), in one of two worlds set up as a scenario's are, where
// the run puts its scratch directories: the world's "no browser or link
// opener was started" fails naming each, and the other world's still
// passes (the worlds share the shim file, not what it records).
func TestOpenersRecordWhatWasStarted(t *testing.T) {
	r := &runner{opts: Options{TimeoutMultiplier: 1}}
	defer r.removeOpenerShim()
	opened, quiet := &world{run: r}, &world{run: r}
	for _, w := range []*world{opened, quiet} {
		if err := w.setup(Scenario{}); err != nil {
			t.Fatal(err)
		}
		defer w.close(false)
	}
	script := `for o in ` + strings.Join(openerNames, " ") + `; do "$o" "https://as.example/$o" || exit 1; done; $BROWSER https://as.example/browser`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", script)
	cmd.Env, cmd.Dir = opened.environ, opened.workdir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the openers could not be started: %v: %s", err, out)
	}
	err := opened.noOpener()
	if err == nil {
		t.Fatal("Expected: the world in which every opener was started fails \"no browser or link opener was started\"\nActual:   it passes")
	}
	for _, o := range append(openerNames, "browser") {
		if !strings.Contains(err.Error(), "https://as.example/"+o) {
			t.Errorf("Expected: the failure names the start of %s\nActual:   %v", o, err)
		}
	}
	if err := quiet.noOpener(); err != nil {
		t.Errorf("Expected: the other world passes \"no browser or link opener was started\"\nActual:   %v", err)
	}
	for _, w := range []*world{opened, quiet} {
		if w.assertions != 1 {
			t.Errorf("Expected: the step asserted once\nActual:   %d times", w.assertions)
		}
	}
}
