package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/internal/codeindex"
	"github.com/mcpconform/mcpconform/spec"
)

// ruleRow is one rule in `mcpconform list --json`.
type ruleRow struct {
	ID          string `json:"id"`
	System      string `json:"system"`
	Area        string `json:"area"`
	Strength    string `json:"strength"`
	Testability string `json:"testability"`
	Scenarios   int    `json:"scenarios"`
	Statement   string `json:"statement"`
	Capability  string `json:"capability,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Pending     string `json:"pending,omitempty"`
	Portable    bool   `json:"portable,omitempty"`
}

// scenariosByRule indexes the suite's scenarios by rule ID.
func scenariosByRule() (map[string][]conformance.Scenario, error) {
	scs, err := conformance.Scenarios()
	if err != nil {
		return nil, err
	}
	by := map[string][]conformance.Scenario{}
	for _, s := range scs {
		for _, r := range s.Rules {
			by[r] = append(by[r], s)
		}
	}
	return by, nil
}

// cmdList is `mcpconform list`.
func cmdList(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	onlyPortable := fs.Bool("portable", false, "list only the portable rules (what any MCP host must do)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	by, err := scenariosByRule()
	if err != nil {
		fmt.Fprintf(stderr, "mcpconform list: %v\n", err)
		return exitFailure
	}
	var rows []ruleRow
	for _, r := range spec.Rules() {
		if *onlyPortable && !r.Portable {
			continue
		}
		rows = append(rows, ruleRow{
			ID: r.ID, System: string(r.System), Area: r.Area, Strength: string(r.Strength),
			Testability: string(r.Testability), Scenarios: len(by[r.ID]), Statement: r.Statement,
			Capability: r.Capability, Reason: r.Reason, Pending: r.Pending, Portable: r.Portable,
		})
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rows); err != nil {
			return exitFailure
		}
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSYSTEM\tSTRENGTH\tT\tSCENARIOS\tSTATEMENT")
	for _, r := range rows {
		n := fmt.Sprint(r.Scenarios)
		if r.Scenarios == 0 && r.Pending != "" {
			n = "pending"
		} else if r.Scenarios == 0 {
			n = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.System, r.Strength, r.Testability, n, truncate(r.Statement, 90))
	}
	tw.Flush()
	return exitOK
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// cmdExplain is `mcpconform explain ID`.
func cmdExplain(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: mcpconform explain RULE-ID   (e.g. LA-NAME-02)")
		return exitUsage
	}
	r, ok := spec.Lookup(strings.ToUpper(args[0]))
	if !ok {
		fmt.Fprintf(stderr, "mcpconform explain: unknown rule %q (see mcpconform list)\n", args[0])
		return exitUsage
	}
	by, err := scenariosByRule()
	if err != nil {
		fmt.Fprintf(stderr, "mcpconform explain: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(stdout, "%s  %s  %s  %s (%s)\n\n%s\n", r.ID, r.System, r.Area, r.Strength, r.Testability, r.Statement)
	if r.Check != "" {
		fmt.Fprintf(stdout, "\nCheck: %s\n", r.Check)
	}
	fmt.Fprintf(stdout, "\nSeed %s, line %s:\n", r.Source.Seed, r.Source.Lines)
	if lines, err := spec.SeedLines(r.Source.Seed, r.Source.LineNumbers()); err == nil {
		for i, n := range r.Source.LineNumbers() {
			fmt.Fprintf(stdout, "  %4d | %s\n", n, lines[i])
		}
	}
	fmt.Fprintf(stdout, "Key phrase: 「%s」\n", strings.Join(r.Source.Quotes, "」「"))
	if r.Note != "" {
		fmt.Fprintf(stdout, "Note: %s\n", r.Note)
	}
	for _, id := range r.Interpretations {
		if in, ok := spec.LookupInterpretation(id); ok {
			fmt.Fprintf(stdout, "\nInterpretation %s (%s): %s\n", in.ID, in.Topic, in.Decision)
		}
	}
	if r.Capability != "" {
		fmt.Fprintf(stdout, "\nAdapter capability: %s\n", r.Capability)
	}
	scs := by[r.ID]
	switch {
	case len(scs) > 0:
		steps, err := conformance.StepsOf(scs)
		if err != nil {
			fmt.Fprintf(stderr, "mcpconform explain: %v\n", err)
			return exitFailure
		}
		fmt.Fprintf(stdout, "\nScenarios (%d), each step with the method that runs it:\n", len(scs))
		for _, s := range scs {
			fmt.Fprintf(stdout, "  %s:%d  %s\n", s.Feature, s.Line, s.Name)
			for _, st := range steps[s.ID] {
				def := "undefined"
				if st.Method != "" {
					def = fmt.Sprintf("%s:%d %s", st.File, st.Line, st.Method)
				}
				fmt.Fprintf(stdout, "      %-5s %s  → %s\n", st.Keyword, st.Text, def)
			}
		}
	case r.Pending != "":
		fmt.Fprintf(stdout, "\nNo scenario yet: %s\n", r.Pending)
	case r.Reason != "":
		fmt.Fprintf(stdout, "\nNo scenario: %s\n", r.Reason)
	}
	explainCode(stdout, r.ID)
	return exitOK
}

// explainCode prints the reference code that enforces a rule: the comments
// that name it and the errors that carry its ID, from the index generated
// at build time.
func explainCode(stdout io.Writer, id string) {
	ix, err := codeindex.Load()
	if err != nil {
		fmt.Fprintf(stdout, "\nEnforced in the reference: %v\n", err)
		return
	}
	sites := ix.Rules[id]
	if len(sites) == 0 {
		fmt.Fprintln(stdout, "\nEnforced in the reference: no comment or error of the reference names this rule")
		return
	}
	fmt.Fprintf(stdout, "\nEnforced in the reference (%d):\n", len(sites))
	for _, c := range sites {
		fn := c.Func
		if fn == "" {
			fn = "-"
		}
		fmt.Fprintf(stdout, "  %s:%d  %s  %s\n", c.File, c.Line, fn, c.Text)
	}
}
