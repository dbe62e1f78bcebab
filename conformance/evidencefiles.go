package conformance

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// The evidence of a failed scenario, written under Options.EvidenceDir:
//
//	<scenario-id>/failure.txt    the verdict, the rules, the failing step with Expected and Actual
//	<scenario-id>/wire.log       every record of the world's log, one line each, in order
//	<scenario-id>/records.jsonl  the same records as JSON, for tools
//	<scenario-id>/http.log       every HTTP request the fakes received, with its headers, and how each was answered
//	<scenario-id>/adapter.txt    what the adapter said about itself: its process, last messages, stderr
//
// Every file is capped at maxEvidenceFile; what was cut is said at its end.

// maxEvidenceFile caps each evidence file.
const maxEvidenceFile = 8 << 20

// writeEvidence writes the evidence of a failed scenario into dir; a
// failure to write it is reported in the scenario's evidence, never fatal.
func (w *world) writeEvidence(dir string, res ScenarioResult) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	rs := w.log.Records()
	files := map[string]func(*cappedFile){
		"failure.txt": func(f *cappedFile) {
			f.line(fmt.Sprintf("%s %s (%s:%d)", strings.ToUpper(string(res.Status)), Printable(res.Name), res.Feature, res.Line))
			f.line("rules: " + strings.Join(res.Rules, ", "))
			f.line("")
			for _, l := range strings.Split(res.Error, "\n") {
				f.line(Printable(l))
			}
		},
		"wire.log": func(f *cappedFile) {
			for _, r := range rs {
				f.line(Printable(describe(r)))
			}
		},
		"records.jsonl": func(f *cappedFile) {
			for _, r := range rs {
				b, _ := json.Marshal(r)
				f.line(string(b))
			}
		},
		"http.log": func(f *cappedFile) {
			for _, r := range rs {
				switch {
				case r.Kind == record.KindHTTP && r.HTTP != nil:
					f.line(Printable(fmt.Sprintf("#%d %s %s %s%s (host %s, %d bytes)", r.Seq, r.Server, r.HTTP.Method, r.HTTP.Path, query(r.HTTP.Query), r.HTTP.Host, r.Bytes)))
					for _, k := range sortedKeys(r.HTTP.Header) {
						f.line(Printable(fmt.Sprintf("    %s: %s", k, strings.Join(r.HTTP.Header[k], ", "))))
					}
				case r.Kind == record.KindHTTPResponse:
					f.line(Printable(describe(r)))
				}
			}
		},
		"adapter.txt": func(f *cappedFile) {
			if d, ok := w.adapter.(adapter.Diagnoser); ok {
				for _, l := range d.Diagnostics() {
					f.line(Printable(l))
				}
			}
		},
	}
	for name, write := range files {
		f, err := createCapped(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		write(f)
		f.close()
	}
}

// query is "?q" for a query, "" for none.
func query(q string) string {
	if q == "" {
		return ""
	}
	return "?" + q
}

// cappedFile is a file that stops taking lines at maxEvidenceFile.
type cappedFile struct {
	f       *os.File
	w       *bufio.Writer
	written int
	dropped int
}

func createCapped(path string) (*cappedFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &cappedFile{f: f, w: bufio.NewWriter(f)}, nil
}

// line writes one line, unless the cap is reached.
func (c *cappedFile) line(s string) {
	if c.written+len(s)+1 > maxEvidenceFile {
		c.dropped++
		return
	}
	c.written += len(s) + 1
	c.w.WriteString(s)
	c.w.WriteByte('\n')
}

// close says what the cap dropped and closes the file.
func (c *cappedFile) close() {
	if c.dropped > 0 {
		fmt.Fprintf(c.w, "… %d more lines, cut at %d bytes\n", c.dropped, maxEvidenceFile)
	}
	c.w.Flush()
	c.f.Close()
}
