// Package transcript replays the golden transcripts of the adapter
// protocol (spec/transcripts/*.txtar) against an adapter process, and
// rewrites them from one (the -update of the tests that own them).
//
// A transcript is a txtar archive: its comment is the prose that explains
// the exchange, and its file "transcript" is the exchange, one message per
// line, as the protocol frames it:
//
//	→ {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1"}}
//	← {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"1","adapter":"…"}}
//
// "→" is the runner writing, "←" the adapter. The replay writes every
// runner line and reads each adapter line in turn, which must match: the
// same JSON, except that the string "…" stands for any value the adapter
// chooses (its name, its messages), "…?" for an optional member that may
// also be absent, and the id of a request the adapter
// sends is its own (the runner's answer that follows gets it). "$WORKDIR"
// is a scratch directory of the replay, in both directions. After the
// last line the replay closes the adapter's stdin; the adapter must then
// exit without writing anything more. Lines starting with "#" are notes.
package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Wildcard is the value that, in an adapter line, matches any value.
const Wildcard = "…"

// OptionalWildcard, as a member's value in an adapter line, matches any
// value or the member's absence: an optional field of the protocol.
const OptionalWildcard = "…?"

// WorkdirVar stands for the replay's scratch directory.
const WorkdirVar = "$WORKDIR"

// Direction says who writes a [Line].
type Direction int

// The two directions of a line.
const (
	Runner  Direction = iota // → the runner writes it
	Adapter                  // ← the adapter must write it
)

// Line is one message of a transcript.
type Line struct {
	Dir  Direction
	JSON string // the message as written in the transcript
	Num  int    // its line number in the archive's file, for errors
}

// Transcript is one parsed golden file.
type Transcript struct {
	Path    string // the file it was read from, by [LoadDir]
	Comment string // the prose before the exchange
	Lines   []Line
	archive *txtar.Archive
}

// exchangeFile is the name of the archive's file that holds the exchange.
const exchangeFile = "transcript"

// Parse reads a transcript from the content of a txtar file.
func Parse(data []byte) (*Transcript, error) {
	a := txtar.Parse(data)
	i := slices.IndexFunc(a.Files, func(f txtar.File) bool { return f.Name == exchangeFile })
	if i < 0 || len(a.Files) != 1 {
		return nil, fmt.Errorf("a transcript has exactly one file, %q", exchangeFile)
	}
	tr := &Transcript{Comment: string(a.Comment), archive: a}
	for n, raw := range strings.Split(string(a.Files[i].Data), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var l Line
		switch {
		case strings.HasPrefix(line, "→ "):
			l = Line{Dir: Runner, JSON: strings.TrimPrefix(line, "→ ")}
		case strings.HasPrefix(line, "← "):
			l = Line{Dir: Adapter, JSON: strings.TrimPrefix(line, "← ")}
		default:
			return nil, fmt.Errorf("line %d: starts with neither \"→ \" nor \"← \": %.60q", n+1, line)
		}
		l.Num = n + 1
		if !json.Valid([]byte(l.JSON)) {
			return nil, fmt.Errorf("line %d: not one JSON value: %.60q", n+1, l.JSON)
		}
		tr.Lines = append(tr.Lines, l)
	}
	return tr, nil
}

// LoadDir parses every *.txtar file of dir, in name order; an error names
// the file. A directory without transcripts is an error too: the tests
// that replay them must not pass on nothing.
func LoadDir(dir string) ([]*Transcript, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no transcript (*.txtar) in %s", dir)
	}
	var out []*Transcript
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		tr, err := Parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		tr.Path = f
		out = append(out, tr)
	}
	return out, nil
}

// Format returns the transcript as a txtar file with the adapter lines
// replaced by got (one per adapter line, in order), keeping every
// wildcard of the old lines where got has a value: what -update writes.
func (tr *Transcript) Format(got []string) ([]byte, error) {
	var b bytes.Buffer
	k := 0
	for _, l := range tr.Lines {
		text := l.JSON
		if l.Dir == Adapter {
			if k >= len(got) {
				return nil, fmt.Errorf("line %d: the adapter wrote no message for it", l.Num)
			}
			keep, err := keepWildcards(l.JSON, got[k])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", l.Num, err)
			}
			text, k = keep, k+1
		}
		b.WriteString(map[Direction]string{Runner: "→ ", Adapter: "← "}[l.Dir] + text + "\n")
	}
	a := &txtar.Archive{Comment: tr.archive.Comment, Files: []txtar.File{{Name: exchangeFile, Data: b.Bytes()}}}
	return txtar.Format(a), nil
}

// keepWildcards returns got with the values at the places where want has
// a wildcard replaced by the wildcard, keys in got's order.
func keepWildcards(want, got string) (string, error) {
	if !strings.Contains(want, Wildcard) {
		return got, nil // the adapter's line as it wrote it
	}
	var w, g any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		return "", err
	}
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		return "", fmt.Errorf("the adapter's message is not JSON: %w", err)
	}
	var walk func(w, g any) any
	walk = func(w, g any) any {
		if w == Wildcard || w == OptionalWildcard {
			return w
		}
		wm, ok1 := w.(map[string]any)
		gm, ok2 := g.(map[string]any)
		if ok1 && ok2 {
			for k, wv := range wm {
				if _, ok := gm[k]; ok || wv == OptionalWildcard {
					gm[k] = walk(wv, gm[k])
				}
			}
		}
		return g
	}
	return marshalMessage(walk(w, g))
}

// envelope is the order of a message's members as the protocol document
// writes them; others follow in sorted order.
var envelope = []string{"jsonrpc", "id", "method", "params", "result", "error"}

// marshalMessage writes a message with its envelope members first.
func marshalMessage(v any) (string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		b, err := json.Marshal(v)
		return string(b), err
	}
	keys := slices.DeleteFunc(sortedKeys(m), func(k string) bool { return slices.Contains(envelope, k) })
	keys = append(slices.DeleteFunc(slices.Clone(envelope), func(k string) bool { _, ok := m[k]; return !ok }), keys...)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(m[k])
		if err != nil {
			return "", err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.String(), nil
}

// Match reports how got, a message the adapter wrote, differs from want,
// the transcript's line: "" when it matches. Objects must have the same
// keys, arrays the same length, and every value must be equal, except
// where want has the [Wildcard], which any present value matches. The id
// of a request the adapter sends is not compared (the adapter chooses it).
func Match(want, got string) string {
	var w, g any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		return "the transcript's line is not JSON: " + err.Error()
	}
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		return "not one JSON value: " + err.Error()
	}
	if wm, ok := w.(map[string]any); ok && wm["method"] != nil {
		if gm, ok := g.(map[string]any); ok {
			if _, hasID := wm["id"]; hasID {
				if _, ok := gm["id"]; ok {
					gm["id"] = wm["id"]
				}
			}
		}
	}
	return diff("", w, g)
}

// diff names the first place where got differs from want.
func diff(path string, want, got any) string {
	if want == Wildcard || want == OptionalWildcard {
		return ""
	}
	at := path
	if at == "" {
		at = "the message"
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: Expected an object, Actual %s", at, short(got))
		}
		for _, k := range sortedKeys(w) {
			gv, ok := g[k]
			if !ok && w[k] == OptionalWildcard {
				continue
			}
			if !ok {
				return fmt.Sprintf("%s: Expected member %q, Actual none", at, k)
			}
			if d := diff(join(path, k), w[k], gv); d != "" {
				return d
			}
		}
		for _, k := range sortedKeys(g) {
			if _, ok := w[k]; !ok {
				return fmt.Sprintf("%s: Expected no member %q, Actual %s", at, k, short(g[k]))
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: Expected %s, Actual %s", at, short(want), short(got))
		}
		for i := range w {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(want, got) {
		return fmt.Sprintf("%s: Expected %s, Actual %s", at, short(want), short(got))
	}
	return ""
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// short shows a value of a message, capped: the adapter wrote it.
func short(v any) string {
	b, _ := json.Marshal(v) // escapes what a terminal would interpret
	return safetext.CapBytes(b, 200)
}
