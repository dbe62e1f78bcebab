package conformance

import (
	"fmt"
	"html/template"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/internal/safetext"
	"github.com/mcpconform/mcpconform/spec"
)

// Column is one implementation in an HTML matrix: its report, and where
// the evidence of its failed scenarios is, relative to the page ("" when
// it has none).
type Column struct {
	Report   *Report
	Evidence string
}

// The verdicts of a matrix cell, from worst to best: what one
// implementation's scenarios of one rule came to.
const (
	cellFail    = "fail"    // an unexpected failure of a MUST-level scenario
	cellWarn    = "warn"    // a SHOULD-level failure
	cellXFail   = "xfail"   // failures the baseline expects
	cellPass    = "pass"    // every scenario that ran passed
	cellSkip    = "skip"    // every scenario was skipped
	cellNotRun  = "not-run" // no scenario of the rule was selected
	cellUnknown = "stale"   // the baseline expects a failure that did not come
)

// WriteHTML writes a static, self-contained HTML page (no script, no
// external resource) of one or more runs: the rules, grouped by system and
// area, as rows; the implementations as columns; each cell the verdict of
// that implementation's scenarios of that rule, linked to the failed
// scenarios' details and evidence. Radio buttons filter the rows by
// verdict with CSS alone.
func WriteHTML(w io.Writer, cols []Column) error {
	type cell struct {
		Verdict string
		Text    string
		Link    string
		Title   string
	}
	type row struct {
		Rule      spec.Rule
		Cells     []cell
		Classes   string
		Statement string
	}
	type group struct {
		Title string
		Rows  []row
	}
	type failure struct {
		Anchor, ID, Name, Status, Level, Baseline, Error string
		Rules                                            []string
		Evidence                                         []string
	}
	type column struct {
		Title, Adapter, Verdict string
		Summary                 Summary
		Failures                []failure
	}
	var data struct {
		Columns []column
		Groups  []group
	}
	ruleSet := map[string]bool{}
	for ci, c := range cols {
		r := c.Report
		col := column{Title: Printable(r.Target.Name + " " + r.Target.Version), Adapter: Printable(r.Target.Adapter), Verdict: r.Verdict, Summary: r.Summary}
		for _, s := range r.Scenarios {
			for _, id := range s.Rules {
				ruleSet[id] = true
			}
			if !s.failing() && s.Baseline != BaselineUnexpectedPass {
				continue
			}
			f := failure{Anchor: anchor(ci, s.ID), ID: s.ID, Name: Printable(s.Name), Status: string(s.Status), Level: s.Level,
				Baseline: s.Baseline, Error: PrintableLines(safetext.Cap(s.Error, 4000)), Rules: s.Rules}
			if c.Evidence != "" && s.failing() {
				for _, file := range []string{"failure.txt", "wire.log", "http.log", "adapter.txt", "records.jsonl"} {
					f.Evidence = append(f.Evidence, path.Join(c.Evidence, s.ID, file))
				}
			}
			col.Failures = append(col.Failures, f)
		}
		data.Columns = append(data.Columns, col)
	}
	groups := map[string]*group{}
	var order []string
	// The portable rules (any MCP host) come first, the rules of each
	// product's own surface after them, each part by system and area.
	rules := spec.Rules()
	slices.SortStableFunc(rules, func(a, b spec.Rule) int {
		switch {
		case a.Portable == b.Portable:
			return 0
		case a.Portable:
			return -1
		}
		return 1
	})
	for _, rule := range rules {
		if !ruleSet[rule.ID] {
			continue
		}
		part := "product surface"
		if rule.Portable {
			part = "portable"
		}
		key := fmt.Sprintf("%s · %s · %s", part, rule.System, rule.Area)
		g := groups[key]
		if g == nil {
			g = &group{Title: key}
			groups[key] = g
			order = append(order, key)
		}
		rw := row{Rule: rule, Statement: safetext.Shorten(rule.Statement, 200)}
		classes := map[string]bool{}
		for ci, c := range cols {
			v, n, first := ruleVerdict(c.Report, rule.ID)
			ce := cell{Verdict: v, Text: v, Title: fmt.Sprintf("%d scenarios", n)}
			if first != "" {
				ce.Link = "#" + anchor(ci, first)
			}
			rw.Cells = append(rw.Cells, ce)
			classes["has-"+v] = true
		}
		if rule.Portable {
			classes["portable"] = true
		} else {
			classes["product"] = true
		}
		var cls []string
		for k := range classes {
			cls = append(cls, k)
		}
		slices.Sort(cls)
		rw.Classes = strings.Join(cls, " ")
		g.Rows = append(g.Rows, rw)
	}
	for _, k := range order {
		data.Groups = append(data.Groups, *groups[k])
	}
	return matrixPage.Execute(w, data)
}

// ruleVerdict is the verdict of a report's scenarios of a rule, how many
// there were, and the ID of the first failing one.
func ruleVerdict(r *Report, rule string) (verdict string, n int, first string) {
	rank := map[string]int{cellFail: 0, cellUnknown: 1, cellWarn: 2, cellXFail: 3, cellPass: 4, cellSkip: 5, cellNotRun: 6}
	verdict = cellNotRun
	for _, s := range r.Scenarios {
		if !slices.Contains(s.Rules, rule) {
			continue
		}
		n++
		v := cellPass
		switch {
		case s.Baseline == BaselineUnexpectedPass:
			v = cellUnknown
		case s.Baseline == BaselineExpected || (s.Baseline == BaselineFlaky && s.failing()):
			v = cellXFail
		case s.failing() && s.Level == LevelShould && s.Status == StatusFailed && !r.Strict:
			v = cellWarn
		case s.failing():
			v = cellFail
		case s.Status == StatusSkipped:
			v = cellSkip
		}
		if verdict == cellNotRun || rank[v] < rank[verdict] {
			verdict = v
		}
		if first == "" && (s.failing() || v == cellUnknown) {
			first = s.ID
		}
	}
	return verdict, n, first
}

// anchor is the page anchor of a column's scenario.
func anchor(col int, id string) string {
	return fmt.Sprintf("c%d-%s", col, strings.NewReplacer("/", "--", " ", "-").Replace(id))
}

var matrixPage = template.Must(template.New("matrix").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mcpconform matrix</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th.group { background: #eee; }
td.cell { text-align: center; font-weight: bold; }
td.fail { background: #f8d0d0; } td.warn { background: #fbe8b0; } td.xfail { background: #e6dcf5; }
td.pass { background: #d4f0d4; } td.skip { background: #eee; color: #777; } td.not-run { color: #aaa; } td.stale { background: #f5c8f0; }
pre { white-space: pre-wrap; background: #f6f6f6; padding: .5em; max-height: 30em; overflow: auto; }
.filters label { margin-right: 1em; }
#only-fail:checked ~ table tr.rule:not(.has-fail):not(.has-warn):not(.has-stale) { display: none; }
#only-pass:checked ~ table tr.rule:not(.has-pass) { display: none; }
#only-skip:checked ~ table tr.rule:not(.has-skip):not(.has-not-run) { display: none; }
#only-xfail:checked ~ table tr.rule:not(.has-xfail) { display: none; }
</style>
</head>
<body>
<h1>mcpconform</h1>
<table id="summary">
<tr><th>implementation</th><th>adapter</th><th>verdict</th><th>passed</th><th>failed</th><th>expected</th><th>warnings</th><th>skipped</th></tr>
{{range .Columns}}<tr class="column"><td>{{.Title}}</td><td>{{.Adapter}}</td><td class="verdict">{{.Verdict}}</td><td>{{.Summary.Passed}}</td><td>{{.Summary.Failed}}</td><td>{{.Summary.Expected}}</td><td>{{.Summary.Warnings}}</td><td>{{.Summary.Skipped}}</td></tr>
{{end}}</table>
<input type="radio" name="filter" id="all" checked><label for="all">all rules</label>
<input type="radio" name="filter" id="only-fail"><label for="only-fail">failures</label>
<input type="radio" name="filter" id="only-xfail"><label for="only-xfail">expected failures</label>
<input type="radio" name="filter" id="only-pass"><label for="only-pass">passes</label>
<input type="radio" name="filter" id="only-skip"><label for="only-skip">skipped</label>
<table id="matrix">
<tr><th>rule</th><th>strength</th>{{range .Columns}}<th>{{.Title}}</th>{{end}}<th>statement</th></tr>
{{range .Groups}}<tr><th class="group" colspan="99">{{.Title}}</th></tr>
{{range .Rows}}<tr class="rule {{.Classes}}" id="rule-{{.Rule.ID}}"><td>{{.Rule.ID}}</td><td>{{.Rule.Strength}}</td>{{range .Cells}}<td class="cell {{.Verdict}}" title="{{.Title}}">{{if .Link}}<a href="{{.Link}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</td>{{end}}<td>{{.Statement}}</td></tr>
{{end}}{{end}}</table>
{{range .Columns}}<h2>{{.Title}}: what failed</h2>
{{if not .Failures}}<p>Nothing.</p>{{end}}
{{range .Failures}}<section class="failure" id="{{.Anchor}}">
<h3>{{.Status}} {{.Name}}</h3>
<p><code>{{.ID}}</code> · {{.Level}} · rules {{range .Rules}}<a href="#rule-{{.}}">{{.}}</a> {{end}}{{if .Baseline}}· baseline: {{.Baseline}}{{end}}</p>
<pre>{{.Error}}</pre>
{{if .Evidence}}<p>evidence: {{range .Evidence}}<a href="{{.}}">{{.}}</a> {{end}}</p>{{end}}
</section>
{{end}}{{end}}
</body>
</html>
`))
