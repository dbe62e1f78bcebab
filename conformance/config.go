package conformance

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/template"
	"time"
)

// namedEntry is one server entry a step declared.
type namedEntry struct {
	alias string
	entry json.RawMessage
}

// configFile is a mcps.json the scenario builds: declared entries, or raw
// text from a doc string. It is written when the agent is created.
type configFile struct {
	path    string
	entries []namedEntry
	raw     *string
	padTo   int
}

// optionConfig is the mcpServers option the scenario builds.
type optionConfig struct {
	entries []namedEntry
	raw     *string
}

// fileState is a file's content hash and modification time.
type fileState struct {
	sum   [32]byte
	mtime time.Time
}

// objectOf renders entries as a JSON object, keeping their order.
func objectOf(entries []namedEntry) []byte {
	var b bytes.Buffer
	b.WriteString("{")
	for i, e := range entries {
		if i > 0 {
			b.WriteString(", ")
		}
		k, _ := json.Marshal(e.alias)
		b.Write(k)
		b.WriteString(": ")
		b.Write(e.entry)
	}
	b.WriteString("}")
	return b.Bytes()
}

// content returns the file's bytes, or nil when the scenario declared
// nothing for it.
func (c *configFile) content(w *world) ([]byte, error) {
	var data []byte
	switch {
	case c.raw != nil:
		s, err := w.render(*c.raw)
		if err != nil {
			return nil, err
		}
		data = []byte(s)
	case c.entries != nil:
		data = append(append([]byte(`{"mcpServers": `), objectOf(c.entries)...), '}')
	default:
		return nil, nil
	}
	if c.padTo > 0 {
		if len(data) > c.padTo {
			return nil, fmt.Errorf("%s is already %d bytes, more than the %d to pad to", c.path, len(data), c.padTo)
		}
		data = append(data, bytes.Repeat([]byte(" "), c.padTo-len(data))...)
	}
	return data, nil
}

// render returns the option's JSON, or nil when it is absent.
func (o *optionConfig) render(w *world) (json.RawMessage, error) {
	switch {
	case o.raw != nil:
		s, err := w.render(*o.raw)
		return json.RawMessage(s), err
	case o.entries != nil:
		return objectOf(o.entries), nil
	}
	return nil, nil
}

// writeConfigs writes the project and global files the scenario built.
func (w *world) writeConfigs() error {
	for _, c := range []*configFile{w.project, w.global} {
		data, err := c.content(w)
		if err != nil {
			return err
		}
		if data == nil {
			continue
		}
		if err := w.writeFile(c.path, data); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes a file of the scenario and remembers its state.
func (w *world) writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	st, err := stateOf(path)
	if err != nil {
		return err
	}
	w.snapshots[path] = st
	return nil
}

// stateOf reads a file's state.
func stateOf(path string) (fileState, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return fileState{}, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return fileState{}, err
	}
	return fileState{sum: sha256.Sum256(data), mtime: info.ModTime()}, nil
}

// resolvePath turns a scenario path into a real one: "~/x" is under the
// implementation's HOME, anything else under the workdir.
func (w *world) resolvePath(p string) (string, error) {
	if filepath.IsAbs(p) || strings.Contains(p, "..") {
		return "", fmt.Errorf("scenario paths must be relative (\"~/...\" or workdir-relative), not %q", p)
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(w.home, rest), nil
	}
	return filepath.Join(w.workdir, p), nil
}

// filesUnder lists the files under dir.
func filesUnder(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	})
	return out, err
}

// render expands the scenario's template functions in text:
//
//	{{url "h"}}        the endpoint of HTTP fake h
//	{{command}}        the stdio fake command, as a JSON string
//	{{args "p" ...}}   the stdio fake p's arguments plus extras, as JSON
//	{{entry "p"}}      the whole entry of fake p, as JSON
//	{{hostport "h"}}   the host:port of HTTP fake h
func (w *world) render(text string) (string, error) {
	funcs := template.FuncMap{
		"url": func(name string, change ...string) (string, error) {
			f, err := w.fake(name)
			if err != nil {
				return "", err
			}
			if f.transport == "stdio" {
				return "", fmt.Errorf("%q is not an HTTP MCP server", name)
			}
			if err := w.materialize(f); err != nil {
				return "", err
			}
			return changeURL(f.url, change...)
		},
		"command": func() string {
			b, _ := json.Marshal(w.run.opts.FakeCommand[0])
			return string(b)
		},
		"args": func(name string, extra ...string) (string, error) {
			f, err := w.fake(name)
			if err != nil {
				return "", err
			}
			if err := w.materialize(f); err != nil {
				return "", err
			}
			b, _ := json.Marshal(w.stdioArgs(f, extra...))
			return string(b), nil
		},
		"entry": func(name string) (string, error) {
			e, err := w.entry(name)
			return string(e), err
		},
		"hostport": func(name string) (string, error) {
			f, err := w.fake(name)
			if err != nil {
				return "", err
			}
			if err := w.materialize(f); err != nil {
				return "", err
			}
			u, err := url.Parse(f.url)
			if err != nil {
				return "", err
			}
			return u.Host, nil
		},
		"file": func(name string) string {
			return "file://" + filepath.Join(w.dir, name)
		},
	}
	t, err := template.New("scenario").Funcs(funcs).Option("missingkey=error").Parse(text)
	if err != nil {
		return "", fmt.Errorf("the scenario's template does not parse: %w", err)
	}
	var b strings.Builder
	if err := t.Execute(&b, nil); err != nil {
		return "", fmt.Errorf("the scenario's template failed: %w", err)
	}
	return b.String(), nil
}

// changeURL changes a fake's URL as a template asks: "https" swaps the
// scheme, "port+1" moves to the next port.
func changeURL(raw string, changes ...string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	for _, c := range changes {
		switch c {
		case "https":
			u.Scheme = "https"
		case "port+1":
			port, _ := strconv.Atoi(u.Port())
			u.Host = net.JoinHostPort(u.Hostname(), strconv.Itoa(port+1))
		default:
			return "", fmt.Errorf("the url template knows no change %q (https, port+1)", c)
		}
	}
	return u.String(), nil
}
