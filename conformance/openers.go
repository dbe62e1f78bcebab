package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// registerOpenerSteps defines the steps whose methods are in this file.
func (w *world) registerOpenerSteps(sc stepDefiner) {
	sc.Step(`^no browser or link opener was started$`, w.noOpener)
}

// openerNames are the programs an implementation could start to open a
// link: the desktop openers and the usual browsers.
var openerNames = []string{"xdg-open", "open", "gnome-open", "kde-open", "wslview", "sensible-browser",
	"x-www-browser", "www-browser", "firefox", "chromium", "chromium-browser", "google-chrome"}

// installOpeners puts a shim for every opener first on the
// implementation's PATH, and in BROWSER: a shim that is run writes its
// command line to the world's opened.log instead of opening anything
// (LA-SEC-24).
func (w *world) installOpeners() error {
	bin := filepath.Join(w.dir, "openers")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	script := fmt.Sprintf("#!/bin/sh\necho \"$0 $*\" >> '%s'\n", w.openedLog())
	for _, name := range openerNames {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			return err
		}
	}
	for i, kv := range w.environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			w.environ[i] = "PATH=" + bin + string(os.PathListSeparator) + v
		}
	}
	w.environ = append(w.environ, "BROWSER="+filepath.Join(bin, "xdg-open"))
	return nil
}

// openedLog is where the opener shims write.
func (w *world) openedLog() string { return filepath.Join(w.dir, "opened.log") }

// noOpener: Then no browser or link opener was started
func (w *world) noOpener() error {
	data, err := os.ReadFile(w.openedLog())
	if os.IsNotExist(err) {
		return w.expect(true, "", "")
	}
	if err != nil {
		return err
	}
	return w.expect(false, "no browser or link opener was started", "started: %s", strings.TrimSpace(string(data)))
}
