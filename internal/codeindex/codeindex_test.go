package codeindex

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEmbeddedIndexIsCurrent fails when the source moved on since the
// index was generated: run `go generate ./internal/codeindex`.
func TestEmbeddedIndexIsCurrent(t *testing.T) {
	root, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the embedded %s is stale; run go generate ./internal/codeindex\nExpected (-) vs Actual (+):\n%s", File, diff)
	}
	if len(got.Rules) == 0 || len(got.Steps) == 0 {
		t.Errorf("Expected: rules and steps in the index\nActual:   %d rules, %d steps", len(got.Rules), len(got.Steps))
	}
}

// TestScan checks what the scan finds in a small module.
func TestScan(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod": "module example\n",
		"reference/naming.go": `package reference

// ValidateAlias checks an alias (LA-NAME-02..04).
func ValidateAlias(a string) error {
	if a == "" {
		return newError("LA-NAME-02") // too short
	}
	return nil
}

// Limits of a name (BL-NAME-01).
const (
	MaxAlias = 24
	// MaxTool bounds a tool name (LA-NAME-05).
	MaxTool = 64
)

func newError(rule string) error { return nil }
`,
		"reference/internal/core/run.go": `package core

type Agent struct{}

// Send runs one turn.
func (a *Agent) Send() {
	// Connect first (LA-CFG-12).
}
`,
		"reference/naming_test.go":        "package reference\n\n// LA-TEST-01 in a test.\n",
		"reference/testdata/x.go":         "package x\n\n// LA-DATA-01 in testdata.\n",
		"conformance/steps.go":            "package conformance\n\ntype world struct{}\n\nfunc (w *world) sends() error { return nil }\n\nfunc helper() {}\n",
		"conformance/rpcadapter/check.go": "package rpcadapter\n\ntype world struct{}\n\nfunc (w *world) elsewhere() {}\n",
		"internal/codeindex/codeindex.go": "package codeindex\n\n// LA-SELF-01 in the index itself.\n",
		"internal/fault/fault.go":         "package fault\n\n// Skip breaks LA-CFG-02.\nvar Skip = 1\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	want := &Index{
		Rules: map[string][]Site{
			"LA-NAME-02": {
				{File: "reference/naming.go", Line: 3, Func: "ValidateAlias", Text: "// ValidateAlias checks an alias (LA-NAME-02..04)."},
				{File: "reference/naming.go", Line: 6, Func: "ValidateAlias", Text: `return newError("LA-NAME-02") // too short`},
			},
			"LA-NAME-03": {{File: "reference/naming.go", Line: 3, Func: "ValidateAlias", Text: "// ValidateAlias checks an alias (LA-NAME-02..04)."}},
			"LA-NAME-04": {{File: "reference/naming.go", Line: 3, Func: "ValidateAlias", Text: "// ValidateAlias checks an alias (LA-NAME-02..04)."}},
			"BL-NAME-01": {{File: "reference/naming.go", Line: 11, Func: "MaxAlias", Text: "// Limits of a name (BL-NAME-01)."}},
			"LA-NAME-05": {{File: "reference/naming.go", Line: 14, Func: "MaxTool", Text: "// MaxTool bounds a tool name (LA-NAME-05)."}},
			"LA-CFG-12":  {{File: "reference/internal/core/run.go", Line: 7, Func: "(*Agent).Send", Text: "// Connect first (LA-CFG-12)."}},
			"LA-CFG-02":  {{File: "internal/fault/fault.go", Line: 3, Func: "Skip", Text: "// Skip breaks LA-CFG-02."}},
		},
		Steps: map[string]Site{"sends": {File: "conformance/steps.go", Line: 5}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Expected (-) vs Actual (+):\n%s", diff)
	}
}

// TestExpand checks the ranges of rule IDs.
func TestExpand(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"LA-NAME-02", []string{"LA-NAME-02"}},
		{"LA-NAME-02..04", []string{"LA-NAME-02", "LA-NAME-03", "LA-NAME-04"}},
		{"BL-RT-1..2", []string{"BL-RT-1", "BL-RT-2"}},
		{"LA-X-09..10", []string{"LA-X-09", "LA-X-10"}},
		{"LA-X-05..03", []string{"LA-X-05"}}, // backwards: the first only
		{"LA-X-01..99", []string{"LA-X-01"}}, // too wide to be a range of rules
	} {
		m := ruleID.FindStringSubmatchIndex(tc.text)
		if m == nil {
			t.Fatalf("%q: no match", tc.text)
		}
		if diff := cmp.Diff(tc.want, expand(tc.text, m)); diff != "" {
			t.Errorf("%q: Expected (-) vs Actual (+):\n%s", tc.text, diff)
		}
	}
}
