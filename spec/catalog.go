package spec

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// files holds the catalog data: one JSON file per area, the interpretation
// register, and the seed documents the rules cite.
//
//go:embed rules/*.json interpretations.json seeds/*.txt
var files embed.FS

// areaOrder is the canonical order of the areas: lite-agent first, then
// Blade, each in the order of the source catalog. [Rules] sorts by it.
var areaOrder = []string{
	"LA-CFG", "LA-TRN", "LA-NAME", "LA-LIM", "LA-REG", "LA-CAT", "LA-VAL", "LA-ARC",
	"LA-EVT", "LA-TMO", "LA-SEC", "LA-NET", "LA-OAU", "LA-CC", "LA-TOOL",
	"BL-CFG", "BL-TRN", "BL-NAME", "BL-RT", "BL-INP", "BL-PERM", "BL-OAU", "BL-HC", "BL-ORD",
}

var (
	ruleIDPattern   = regexp.MustCompile(`^(LA|BL)-[A-Z]+-\d{2}$`)
	interpIDPattern = regexp.MustCompile(`^[XAB]-\d{2}$`)
	validStrength   = map[Strength]bool{Must: true, MustNot: true, Should: true, May: true, Host: true, Info: true}
	validTestab     = map[Testability]bool{
		BlackBox: true, BlackBoxAdapter: true, BlackBoxSlow: true,
		WhiteBox: true, NotTestable: true, HostOnly: true, InfoOnly: true,
	}
)

// areaFile is the on-disk shape of rules/<AREA>.json.
type areaFile struct {
	Area   string `json:"area"`
	System System `json:"system"`
	Title  string `json:"title"`
	Rules  []Rule `json:"rules"`
}

// catalog is the parsed, validated and sorted embedded data.
type catalog struct {
	rules      []Rule
	byID       map[string]int
	titles     map[string]string
	interps    []Interpretation
	interpByID map[string]int
	seeds      map[string][]string
}

var (
	loadOnce sync.Once
	loaded   *catalog
)

// get parses the embedded data on first use. The data is compiled in, so a
// parse error is a build defect: it panics with a message naming the problem.
func get() *catalog {
	loadOnce.Do(func() {
		c, err := parse(files)
		if err != nil {
			panic("spec: malformed embedded catalog (fix spec/rules, spec/interpretations.json or spec/seeds): " + err.Error())
		}
		loaded = c
	})
	return loaded
}

// Rules returns every rule of the catalog: lite-agent first, then Blade;
// within a system by area in the order of [Areas]; within an area by number.
// The result is a fresh copy the caller may modify.
func Rules() []Rule {
	c := get()
	out := make([]Rule, len(c.rules))
	for i, r := range c.rules {
		out[i] = r.clone()
	}
	return out
}

// Lookup returns the rule with the given ID (for example "LA-NAME-02") and
// whether it exists.
func Lookup(id string) (Rule, bool) {
	c := get()
	i, ok := c.byID[id]
	if !ok {
		return Rule{}, false
	}
	return c.rules[i].clone(), true
}

// Areas returns the area names ("LA-CFG", ..., "BL-ORD") in catalog order,
// lite-agent first. Every [Rule.Area] is one of them.
func Areas() []string {
	return slices.Clone(areaOrder)
}

// AreaTitle returns the short title of an area (for example "tool naming" for
// "LA-NAME") and whether the area exists, for headings in listings and reports.
func AreaTitle(area string) (string, bool) {
	t, ok := get().titles[area]
	return t, ok
}

// Interpretations returns every entry of the contradiction and ambiguity
// register: X entries, then A, then B, each by number. The result is a fresh
// copy the caller may modify.
func Interpretations() []Interpretation {
	return slices.Clone(get().interps)
}

// LookupInterpretation returns the interpretation with the given ID (for
// example "A-06") and whether it exists.
func LookupInterpretation(id string) (Interpretation, bool) {
	c := get()
	i, ok := c.interpByID[id]
	if !ok {
		return Interpretation{}, false
	}
	return c.interps[i], true
}

// SeedLines returns the given 1-based lines of an embedded seed document
// (a [Source.Seed] name such as "000_25ff0b720cab2e5b.txt"), without line
// terminators, in the order asked. Pass [Source.LineNumbers] to get the text
// a rule cites. It fails for an unknown seed or a line out of range.
func SeedLines(seed string, lines []int) ([]string, error) {
	text, ok := get().seeds[seed]
	if !ok {
		return nil, fmt.Errorf("spec: unknown seed %q", seed)
	}
	out := make([]string, 0, len(lines))
	for _, n := range lines {
		if n < 1 || n > len(text) {
			return nil, fmt.Errorf("spec: seed %s has lines 1-%d, not %d", seed, len(text), n)
		}
		out = append(out, text[n-1])
	}
	return out, nil
}

// parse reads and validates the catalog from fsys, laid out like the
// embedded files.
func parse(fsys fs.FS) (*catalog, error) {
	c := &catalog{
		byID:       map[string]int{},
		titles:     map[string]string{},
		interpByID: map[string]int{},
		seeds:      map[string][]string{},
	}
	if err := c.parseSeeds(fsys); err != nil {
		return nil, err
	}
	if err := c.parseInterpretations(fsys); err != nil {
		return nil, err
	}
	if err := c.parseRules(fsys); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *catalog) parseSeeds(fsys fs.FS) error {
	names, err := fs.Glob(fsys, "seeds/*.txt")
	if err != nil || len(names) == 0 {
		return fmt.Errorf("no seeds/*.txt (%v)", err)
	}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		text := strings.TrimSuffix(string(data), "\n")
		c.seeds[path.Base(name)] = strings.Split(text, "\n")
	}
	return nil
}

func (c *catalog) parseInterpretations(fsys fs.FS) error {
	data, err := fs.ReadFile(fsys, "interpretations.json")
	if err != nil {
		return err
	}
	if err := decodeStrict(data, &c.interps); err != nil {
		return fmt.Errorf("interpretations.json: %w", err)
	}
	for _, in := range c.interps {
		if !interpIDPattern.MatchString(in.ID) {
			return fmt.Errorf("interpretations.json: bad ID %q", in.ID)
		}
		if in.Topic == "" || in.Sources == "" || in.Decision == "" {
			return fmt.Errorf("interpretations.json: %s lacks topic, sources or decision", in.ID)
		}
		if _, dup := c.interpByID[in.ID]; dup {
			return fmt.Errorf("interpretations.json: duplicate ID %s", in.ID)
		}
		c.interpByID[in.ID] = 0
	}
	slices.SortFunc(c.interps, func(a, b Interpretation) int {
		if d := strings.IndexByte("XAB", a.ID[0]) - strings.IndexByte("XAB", b.ID[0]); d != 0 {
			return d
		}
		return idNumber(a.ID) - idNumber(b.ID)
	})
	for i, in := range c.interps {
		c.interpByID[in.ID] = i
	}
	return nil
}

func (c *catalog) parseRules(fsys fs.FS) error {
	names, err := fs.Glob(fsys, "rules/*.json")
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, a := range areaOrder {
		want["rules/"+a+".json"] = true
	}
	for _, name := range names {
		if !want[name] {
			return fmt.Errorf("%s: not a known area (known: %s)", name, strings.Join(areaOrder, ", "))
		}
		delete(want, name)
		if err := c.parseArea(fsys, name); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	for _, a := range areaOrder {
		if want["rules/"+a+".json"] {
			return fmt.Errorf("rules/%s.json: missing", a)
		}
	}
	rank := map[string]int{}
	for i, a := range areaOrder {
		rank[a] = i
	}
	slices.SortFunc(c.rules, func(a, b Rule) int {
		if d := rank[a.Area] - rank[b.Area]; d != 0 {
			return d
		}
		return idNumber(a.ID) - idNumber(b.ID)
	})
	for i, r := range c.rules {
		c.byID[r.ID] = i
	}
	return nil
}

func (c *catalog) parseArea(fsys fs.FS, name string) error {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	var f areaFile
	if err := decodeStrict(data, &f); err != nil {
		return err
	}
	if name != "rules/"+f.Area+".json" {
		return fmt.Errorf("file declares area %q", f.Area)
	}
	wantSystem := LiteAgent
	if strings.HasPrefix(f.Area, "BL-") {
		wantSystem = Blade
	}
	if f.System != wantSystem {
		return fmt.Errorf("system %q, want %q", f.System, wantSystem)
	}
	if f.Title == "" || len(f.Rules) == 0 {
		return fmt.Errorf("empty title or no rules")
	}
	c.titles[f.Area] = f.Title
	for _, r := range f.Rules {
		if (r.Area != "" && r.Area != f.Area) || (r.System != "" && r.System != f.System) {
			return fmt.Errorf("%s: area/system %s/%s contradict the file", r.ID, r.Area, r.System)
		}
		r.Area, r.System = f.Area, f.System
		if err := c.checkRule(r); err != nil {
			return fmt.Errorf("%s: %w", r.ID, err)
		}
		if _, dup := c.byID[r.ID]; dup {
			return fmt.Errorf("duplicate rule ID %s", r.ID)
		}
		c.byID[r.ID] = -1
		c.rules = append(c.rules, r)
	}
	return nil
}

// checkRule validates one rule's fields against the vocabularies, the seeds
// and the interpretation register.
func (c *catalog) checkRule(r Rule) error {
	if !ruleIDPattern.MatchString(r.ID) || r.ID[:strings.LastIndexByte(r.ID, '-')] != r.Area {
		return fmt.Errorf("ID does not match %s-NN", r.Area)
	}
	if !validStrength[r.Strength] {
		return fmt.Errorf("bad strength %q", r.Strength)
	}
	if !validTestab[r.Testability] {
		return fmt.Errorf("bad testability %q", r.Testability)
	}
	if r.Statement == "" {
		return fmt.Errorf("empty statement")
	}
	seed, ok := c.seeds[r.Source.Seed]
	if !ok {
		return fmt.Errorf("unknown seed %q", r.Source.Seed)
	}
	lines, err := parseLines(r.Source.Lines)
	if err != nil {
		return err
	}
	if last := slices.Max(lines); last > len(seed) {
		return fmt.Errorf("line %d beyond the %d lines of %s", last, len(seed), r.Source.Seed)
	}
	if len(r.Source.Quotes) == 0 || slices.Contains(r.Source.Quotes, "") {
		return fmt.Errorf("missing or empty quote")
	}
	for _, id := range r.Interpretations {
		if _, ok := c.interpByID[id]; !ok {
			return fmt.Errorf("unknown interpretation %q", id)
		}
	}
	if r.Testable() == (r.Reason != "") {
		return fmt.Errorf("testability %s with reason %q: exactly the non-testable rules carry a reason", r.Testability, r.Reason)
	}
	if !r.Testable() && r.Pending != "" {
		return fmt.Errorf("non-testable rule with pending work")
	}
	if (r.Testability == BlackBoxAdapter || r.Testability == BlackBoxSlow) && r.Capability == "" {
		return fmt.Errorf("%s rule without capability", r.Testability)
	}
	return nil
}

// decodeStrict decodes JSON, rejecting unknown fields and trailing data, so
// a typo in a key is caught instead of silently dropped.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after JSON value")
	}
	return nil
}

// idNumber returns the numeric suffix of an ID ("LA-NAME-02" → 2, "A-06" → 6);
// IDs are validated before it is used.
func idNumber(id string) int {
	n, _ := strconv.Atoi(id[strings.LastIndexByte(id, '-')+1:])
	return n
}
