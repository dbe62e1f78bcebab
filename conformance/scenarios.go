package conformance

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/features"
)

// ruleTag matches a rule ID tag such as @LA-NAME-02.
var ruleTag = regexp.MustCompile(`^@((?:LA|BL)-[A-Z]+-\d+)$`)

// Scenario is one scenario of the suite as it will run: an outline's example
// row is a scenario of its own.
type Scenario struct {
	// ID identifies the scenario by its feature and its name, e.g.
	// "lite-agent/naming/a-server-alias-has-1-to-24-characters-a-through-register":
	// stable when lines are added or moved, so that baselines, reruns and
	// shards keep naming the same scenario. An outline's rows are named
	// after their values, or numbered when their names are the same.
	ID string `json:"id"`
	// Name is the scenario's name; an example row's name gets " #<n>".
	Name string `json:"name"`
	// Feature is the feature file, e.g. "lite-agent/naming.feature".
	Feature string `json:"feature"`
	Line    int    `json:"line"`
	// Tags are every tag of the scenario, with "@".
	Tags []string `json:"tags"`
	// Rules are the rule IDs the scenario checks, without "@".
	Rules []string `json:"rules"`
	// Systems are the systems the scenario belongs to.
	Systems []adapter.System `json:"systems"`
	// Capabilities are the adapter capabilities the scenario needs.
	Capabilities []adapter.Capability `json:"capabilities,omitempty"`
	// Lacks are the capabilities whose absence the scenario needs (tag
	// @adapter-lacks:<capability>): a real-time variant of a scenario that
	// drives the manual clock runs only against an adapter without `clock`,
	// so that every adapter is tested and none waits for what it can skip.
	Lacks []adapter.Capability `json:"lacks,omitempty"`
}

// Scenarios returns every scenario of the embedded suite, in file and line
// order.
func Scenarios() ([]Scenario, error) {
	return scenariosIn(features.FS, features.Dirs)
}

func scenariosIn(fsys fs.FS, dirs []string) ([]Scenario, error) {
	var out []Scenario
	for _, dir := range dirs {
		err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || path.Ext(p) != ".feature" {
				return err
			}
			list, err := parseFeature(fsys, p)
			out = append(out, list...)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// parseFeature parses one feature file into scenarios.
func parseFeature(fsys fs.FS, p string) ([]Scenario, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	newID := (&messages.Incrementing{}).NewId
	doc, err := gherkin.ParseGherkinDocument(f, newID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	var out []Scenario
	counts := map[string]int{}
	for _, pk := range gherkin.Pickles(*doc, p, newID) {
		s := scenarioOf(pk)
		counts[pk.Name]++
		out = append(out, s)
	}
	// Name outline rows "name #1", "#2", ... as godog does.
	seen := map[string]int{}
	for i := range out {
		if counts[out[i].Name] > 1 {
			seen[out[i].Name]++
			out[i].Name += " #" + strconv.Itoa(seen[out[i].Name])
		}
	}
	// IDs from the feature and the name; two names that make the same slug
	// are told apart in file order.
	ids := map[string]int{}
	for i := range out {
		id := strings.TrimSuffix(p, ".feature") + "/" + slug(out[i].Name)
		ids[id]++
		if n := ids[id]; n > 1 {
			id += "-" + strconv.Itoa(n)
		}
		out[i].ID = id
	}
	return out, nil
}

// slug turns a scenario name into an ID part: lower-case letters and digits
// of any script, everything else a single "-".
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// scenarioOf describes a pickle.
func scenarioOf(pk *messages.Pickle) Scenario {
	s := Scenario{Feature: pk.Uri, Name: pk.Name, Rules: []string{}, Systems: []adapter.System{}}
	if pk.Location != nil {
		s.Line = int(pk.Location.Line)
	}
	for _, t := range pk.Tags {
		s.Tags = append(s.Tags, t.Name)
		switch {
		case ruleTag.MatchString(t.Name):
			s.Rules = append(s.Rules, strings.TrimPrefix(t.Name, "@"))
		case t.Name == "@lite-agent" || t.Name == "@blade":
			s.Systems = append(s.Systems, adapter.System(strings.TrimPrefix(t.Name, "@")))
		case strings.HasPrefix(t.Name, "@adapter:"):
			s.Capabilities = append(s.Capabilities, adapter.Capability(strings.TrimPrefix(t.Name, "@adapter:")))
		case strings.HasPrefix(t.Name, "@adapter-lacks:"):
			s.Lacks = append(s.Lacks, adapter.Capability(strings.TrimPrefix(t.Name, "@adapter-lacks:")))
		}
	}
	slices.Sort(s.Rules)
	s.Rules = slices.Compact(s.Rules)
	return s
}

// key locates a scenario in its feature file: how the runner matches the
// pickles godog runs to [Scenario]s.
func (s Scenario) key() string { return fmt.Sprintf("%s:%d", s.Feature, s.Line) }

// pickleKey is the [Scenario.key] of a pickle.
func pickleKey(pk *messages.Pickle) string {
	line := 0
	if pk.Location != nil {
		line = int(pk.Location.Line)
	}
	return fmt.Sprintf("%s:%d", pk.Uri, line)
}

// matchTags reports whether tags satisfy a godog tag expression: terms
// separated by "," are alternatives, "&&" joins conditions, "~" negates.
func matchTags(expr string, tags []string) bool {
	if strings.TrimSpace(expr) == "" {
		return true
	}
	has := func(t string) bool {
		return slices.ContainsFunc(tags, func(x string) bool { return strings.TrimPrefix(x, "@") == t })
	}
	for _, alt := range strings.Split(expr, ",") {
		ok := true
		for _, cond := range strings.Split(alt, "&&") {
			cond = strings.ReplaceAll(strings.TrimSpace(cond), "@", "")
			if neg, found := strings.CutPrefix(cond, "~"); found {
				ok = ok && !has(neg)
			} else {
				ok = ok && has(cond)
			}
		}
		if ok {
			return true
		}
	}
	return false
}
