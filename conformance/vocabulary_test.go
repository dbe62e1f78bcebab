package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/features"
)

// TestVocabulary checks the step vocabulary against the features: every
// step of every scenario matches exactly one definition (none is undefined,
// none ambiguous), and every definition is used by some step (none is dead).
func TestVocabulary(t *testing.T) {
	defs := vocabulary()
	pickles, err := featurePickles(features.FS, features.Dirs)
	if err != nil {
		t.Fatal(err)
	}
	used := make([]bool, len(defs))
	for _, pk := range pickles {
		for _, st := range pk.Steps {
			var hits []string
			for i, d := range defs {
				if d.expr.MatchString(st.Text) {
					used[i] = true
					hits = append(hits, fmt.Sprintf("%s (%s)", d.expr, d.handler))
				}
			}
			switch len(hits) {
			case 0:
				t.Errorf("%s: undefined step\nExpected: one definition matching %q\nActual:   none", pk.Uri, st.Text)
			case 1:
			default:
				t.Errorf("%s: ambiguous step\nExpected: one definition matching %q\nActual:   %d:\n  %s", pk.Uri, st.Text, len(hits), strings.Join(hits, "\n  "))
			}
		}
	}
	seen := map[string]bool{}
	for i, d := range defs {
		if !used[i] {
			t.Errorf("dead step pattern\nExpected: some feature step matching %s (%s)\nActual:   none", d.expr, d.handler)
		}
		if seen[d.expr.String()] {
			t.Errorf("step pattern defined twice: %s", d.expr)
		}
		seen[d.expr.String()] = true
	}
}

// TestVocabularyTypos checks that a misspelled phrase of a step that takes
// phrases is an undefined step, not a runtime error of its method.
func TestVocabularyTypos(t *testing.T) {
	defs := vocabulary()
	for _, text := range []string{
		`the tool "t" of "p" answers with the txt "x"`,
		`the tool "t" of "p" answers with a message of 10 KB`,
		`the tool "t" of "p" reports progress 1 of 3 step`,
		`the model calls "t" with n=1`,
		`the host tool "h" returns la-ok`,
		`the model calls "a" "b" in one turn`,
		`the model received a tool eror`,
		`the authorization server "as" sends a wrng iss`,
		`the authorization server "as" serves its tokens endpoint on its other origin`,
		`the binding of "docs" has timeoutMS 5`,
		`the protected server "docs" challenges without resource metadata`,
		`the model received a projection whose structuredContent is {"a":1`,
		`the image items the model received were archived`,
	} {
		t.Run(text, func(t *testing.T) {
			if hits := matchDefs(defs, text); len(hits) != 0 {
				t.Errorf("Expected: no definition matching %q\nActual:   %s (%s)", text, hits[0].expr, hits[0].handler)
			}
		})
	}
}

// TestStepsOf checks that every step of every scenario is shown with the
// method that runs it, at the line of the source that defines it.
func TestStepsOf(t *testing.T) {
	scs, err := Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	steps, err := StepsOf(scs)
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string][]string{}
	checked := map[string]bool{} // methods, each checked once
	var stale []string
	for _, s := range scs {
		if len(steps[s.ID]) == 0 {
			t.Errorf("%s: Expected: its steps\nActual:   none", s.ID)
		}
		for _, st := range steps[s.ID] {
			if st.Method == "" {
				t.Errorf("%s: %q\nExpected: the method that runs it\nActual:   none", s.ID, st.Text)
				continue
			}
			if checked[st.Method] {
				continue
			}
			checked[st.Method] = true
			lines, ok := sources[st.File]
			if !ok && st.File != "" {
				if b, err := os.ReadFile(filepath.Join("..", st.File)); err == nil {
					lines = strings.Split(string(b), "\n")
				}
				sources[st.File] = lines
			}
			want := "func (w *world) " + st.Method + "("
			if st.Line < 1 || st.Line > len(lines) || !strings.HasPrefix(lines[st.Line-1], want) {
				stale = append(stale, fmt.Sprintf("%s at %s:%d", st.Method, st.File, st.Line))
			}
		}
	}
	if len(stale) > 0 {
		t.Errorf("the embedded index is stale: run go generate ./internal/codeindex\nExpected: each method defined where the index says\nActual:   %d are not, such as %s", len(stale), strings.Join(stale[:min(len(stale), 5)], ", "))
	}
}
