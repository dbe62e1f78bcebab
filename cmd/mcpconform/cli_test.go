package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/spec"
)

// run runs the CLI in-process.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runCLI(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		says string
	}{
		{"no command", nil, exitUsage, "usage"},
		{"unknown command", []string{"frobnicate"}, exitUsage, "unknown command"},
		{"unknown rule", []string{"run", "--rules", "LA-NOPE-99"}, exitUsage, "unknown rule ID"},
		{"empty selection", []string{"run", "--tags", "@nothing-has-this"}, exitUsage, "no scenario matches"},
		{"bad format", []string{"run", "--format", "yaml"}, exitUsage, "--format"},
		{"bad target", []string{"run", "--target", "martian"}, exitUsage, "unknown target"},
		{"unknown fault", []string{"run", "--target", "reference+mutate=LA-X/y"}, exitUsage, "unknown fault \"LA-X/y\""},
		{"passing selection", []string{"run", "--rules", "LA-CFG-13", "--out", dir}, exitOK, "PASS"},
		{"failing mutant", []string{"run", "--rules", "LA-NAME-02", "--target", "reference+mutate=LA-NAME-02/alias-25-characters"}, exitFailure, "FAIL"},
		{"adapter claiming no system", []string{"run", "--target", "cmd:" + self(t) + " hollow-adapter no-system"}, exitUsage, "claims no system"},
		{"every scenario skipped", []string{"run", "--rules", "BL-RT-01", "--target", "cmd:" + self(t) + " hollow-adapter lite-agent-only"}, exitUsage, "no verdict: all"},
		{"explain unknown", []string{"explain", "LA-NOPE-01"}, exitUsage, "unknown rule"},
		{"explain", []string{"explain", "LA-NAME-02"}, exitOK, "服务器别名限 1–24 个"},
		{"explain shows the steps' definitions", []string{"explain", "LA-NAME-02"}, exitOK, "it fails with a \"name\" error  → conformance/steps_then.go:"},
		{"explain shows the enforcing code", []string{"explain", "LA-NAME-02"}, exitOK, `"LA-NAME-02", "server alias`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, tt.args...)
			if code != tt.code || !strings.Contains(out+errs, tt.says) {
				t.Errorf("exit %d, want %d mentioning %q\nstdout: %s\nstderr: %s", code, tt.code, tt.says, out, errs)
			}
		})
	}
}

func TestListJSONHoldsEveryRule(t *testing.T) {
	code, out, _ := run(t, "list", "--json")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var rows []ruleRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 240 || len(rows) != len(spec.Rules()) {
		t.Errorf("%d rules listed, want 240", len(rows))
	}
	for _, r := range rows {
		if r.ID == "LA-NAME-02" && r.Scenarios == 0 {
			t.Error("LA-NAME-02 has no scenario count")
		}
	}
}

func TestReportFormats(t *testing.T) {
	dir := t.TempDir()
	if code, out, errs := run(t, "run", "--rules", "LA-CFG-13,LA-CFG-05", "--format", "json", "--out", dir); code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	var rep struct {
		Schema    int `json:"schema"`
		Tool      struct{ Version string }
		Target    struct{ Name, Version string }
		Summary   struct{ Passed, Failed, Skipped, Undefined int }
		Scenarios []struct {
			Name, Feature, Status, Error string
			Rules                        []string
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Schema != 1 || rep.Tool.Version == "" || rep.Target.Name == "" || rep.Summary.Passed != 2 || len(rep.Scenarios) != 2 {
		t.Errorf("report: %s", data)
	}

	if code, _, _ := run(t, "run", "--rules", "LA-NAME-02", "--format", "junit", "--out", dir,
		"--target", "reference+mutate=LA-NAME-02/alias-25-characters"); code != exitFailure {
		t.Fatalf("exit %d, want %d", code, exitFailure)
	}
	data, err = os.ReadFile(filepath.Join(dir, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Failures == 0 || len(doc.Suites) == 0 || !strings.HasPrefix(doc.Suites[0].Cases[0].Name, "[LA-NAME-02]") {
		t.Errorf("junit: %s", data)
	}
}

// TestShardMergeAndHTMLCommands: shards merged by the CLI are the whole
// run, exit with its verdict, and draw a page.
func TestShardMergeAndHTMLCommands(t *testing.T) {
	dir := t.TempDir()
	var reports []string
	for i := 1; i <= 2; i++ {
		out := filepath.Join(dir, fmt.Sprintf("s%d", i))
		code, stdout, stderr := run(t, "run", "--rules", "LA-NAME-02", "--target", "reference+mutate=LA-NAME-02/alias-25-characters",
			"--shard", fmt.Sprintf("%d/2", i), "--format", "json", "--out", out)
		if code != exitFailure && code != exitOK {
			t.Fatalf("shard %d: exit %d\n%s\n%s", i, code, stdout, stderr)
		}
		reports = append(reports, filepath.Join(out, "report.json"))
	}
	merged := filepath.Join(dir, "full.json")
	code, _, stderr := run(t, append([]string{"report", "merge", "-o", merged}, reports...)...)
	if code != exitFailure {
		t.Errorf("merging the shards of a failing run: exit %d, want %d\n%s", code, exitFailure, stderr)
	}
	rep, err := conformance.ReadReport(merged)
	if err != nil || len(rep.Scenarios) != 10 || rep.Verdict != "fail" {
		t.Fatalf("merged report: %v, %d scenarios, verdict %q", err, len(rep.Scenarios), rep.Verdict)
	}
	page := filepath.Join(dir, "m.html")
	if code, _, stderr := run(t, "report", "html", "-o", page, merged); code != exitOK {
		t.Fatalf("report html: exit %d\n%s", code, stderr)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), `id="rule-LA-NAME-02"`) {
		t.Errorf("the page has no row for LA-NAME-02 (%v)", err)
	}
}
