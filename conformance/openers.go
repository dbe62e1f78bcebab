package conformance

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpconform/mcpconform/internal/scratch"
)

// registerOpenerSteps defines the steps whose methods are in this file.
func (w *world) registerOpenerSteps(sc stepDefiner) {
	sc.Step(`^no browser or link opener was started$`, w.noOpener)
}

// openerNames are the programs an implementation could start to open a
// link: the desktop openers and the usual browsers.
var openerNames = []string{"xdg-open", "open", "gnome-open", "kde-open", "wslview", "sensible-browser",
	"x-www-browser", "www-browser", "firefox", "chromium", "chromium-browser", "google-chrome"}

// openerShim is the opener shim: it appends its command line to the
// opened.log beside the directory it was run from, so that one file,
// hard-linked into every world, serves them all; it names no path of its
// own. A bare $0 (run from its own directory) is that directory.
const openerShim = "#!/bin/sh\ncase $0 in */*) d=${0%/*} ;; *) d=. ;; esac\necho \"$0 $*\" >> \"$d/../opened.log\"\n"

// installOpeners puts a shim for every opener first on the
// implementation's PATH, and in BROWSER: a shim that is run writes its
// command line to the world's opened.log instead of opening anything
// (LA-SEC-24). The shims are hard links to the run's one shim file
// ([runner.openerShim]): a dozen new files per scenario cost more CPU
// than most scenarios' steps.
func (w *world) installOpeners() error {
	bin := filepath.Join(w.dir, "openers")
	if err := os.Mkdir(bin, 0o755); err != nil {
		return err
	}
	shim := w.run.openerShim()
	for _, name := range openerNames {
		path := filepath.Join(bin, name)
		if shim != "" && os.Link(shim, path) == nil {
			continue
		}
		// Another file system, or no shim: a file of the world's own.
		if err := os.WriteFile(path, []byte(openerShim), 0o755); err != nil {
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

// openerShim returns the run's shim file, writing it on first use into a
// scratch directory [Run] removes at its end; "" when it cannot be
// written (the worlds then write their own).
func (r *runner) openerShim() string {
	r.shimOnce.Do(func() {
		dir, err := scratch.Quick("openers") // where the worlds' directories are, for the links
		if err != nil {
			return
		}
		r.shimDir = dir
		path := filepath.Join(dir, "opener")
		if os.WriteFile(path, []byte(openerShim), 0o755) == nil {
			r.shim = path
		}
	})
	return r.shim
}

// removeOpenerShim removes the run's shim file and its directory.
func (r *runner) removeOpenerShim() {
	if r.shimDir != "" {
		_ = os.RemoveAll(r.shimDir)
	}
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
