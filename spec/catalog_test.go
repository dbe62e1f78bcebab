package spec

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"unicode"
)

// counts is one row of the source catalog's §9 count table.
type counts struct {
	total, bb, bbA, bbS, wb, nt, host, info int
}

// wantCounts is the §9 table of rules.md, per area.
var wantCounts = map[string]counts{
	"LA-CFG":  {15, 13, 0, 0, 1, 0, 1, 0},
	"LA-TRN":  {13, 10, 0, 0, 0, 2, 1, 0},
	"LA-NAME": {9, 9, 0, 0, 0, 0, 0, 0},
	"LA-LIM":  {10, 9, 1, 0, 0, 0, 0, 0},
	"LA-REG":  {22, 16, 6, 0, 0, 0, 0, 0},
	"LA-CAT":  {6, 4, 2, 0, 0, 0, 0, 0},
	"LA-VAL":  {7, 7, 0, 0, 0, 0, 0, 0},
	"LA-ARC":  {5, 4, 1, 0, 0, 0, 0, 0},
	"LA-EVT":  {4, 4, 0, 0, 0, 0, 0, 0},
	"LA-TMO":  {6, 4, 0, 2, 0, 0, 0, 0},
	"LA-SEC":  {24, 19, 2, 0, 0, 0, 2, 1},
	"LA-NET":  {7, 7, 0, 0, 0, 0, 0, 0},
	"LA-OAU":  {38, 34, 1, 1, 0, 0, 2, 0},
	"LA-CC":   {5, 4, 0, 0, 0, 0, 1, 0},
	"LA-TOOL": {8, 5, 1, 0, 0, 0, 2, 0},
	"BL-CFG":  {8, 7, 0, 0, 1, 0, 0, 0},
	"BL-TRN":  {6, 6, 0, 0, 0, 0, 0, 0},
	"BL-NAME": {6, 4, 1, 0, 0, 0, 1, 0},
	"BL-RT":   {10, 10, 0, 0, 0, 0, 0, 0},
	"BL-INP":  {11, 11, 0, 0, 0, 0, 0, 0},
	"BL-PERM": {6, 4, 1, 0, 0, 0, 0, 1},
	"BL-OAU":  {7, 3, 3, 1, 0, 0, 0, 0},
	"BL-HC":   {4, 3, 1, 0, 0, 0, 0, 0},
	"BL-ORD":  {3, 3, 0, 0, 0, 0, 0, 0},
}

func tally(rules []Rule) counts {
	var c counts
	for _, r := range rules {
		c.total++
		switch r.Testability {
		case BlackBox:
			c.bb++
		case BlackBoxAdapter:
			c.bbA++
		case BlackBoxSlow:
			c.bbS++
		case WhiteBox:
			c.wb++
		case NotTestable:
			c.nt++
		case HostOnly:
			c.host++
		case InfoOnly:
			c.info++
		}
	}
	return c
}

func byArea() map[string][]Rule {
	m := map[string][]Rule{}
	for _, r := range Rules() {
		m[r.Area] = append(m[r.Area], r)
	}
	return m
}

func TestRuleCount(t *testing.T) {
	if n := len(Rules()); n != 240 {
		t.Fatalf("len(Rules()) = %d, want 240", n)
	}
}

func TestCountsPerArea(t *testing.T) {
	areas := byArea()
	if len(areas) != len(wantCounts) {
		t.Errorf("got %d areas with rules, want %d", len(areas), len(wantCounts))
	}
	for _, area := range Areas() {
		t.Run(area, func(t *testing.T) {
			if got, want := tally(areas[area]), wantCounts[area]; got != want {
				t.Errorf("counts %+v, want %+v", got, want)
			}
		})
	}
}

func TestCountsPerSystem(t *testing.T) {
	tests := []struct {
		system System
		want   counts
	}{
		{LiteAgent, counts{179, 149, 14, 3, 1, 2, 9, 1}},
		{Blade, counts{61, 51, 6, 1, 1, 0, 1, 1}},
	}
	for _, tt := range tests {
		var rules []Rule
		for _, r := range Rules() {
			if r.System == tt.system {
				rules = append(rules, r)
			}
		}
		if got := tally(rules); got != tt.want {
			t.Errorf("%s: counts %+v, want %+v", tt.system, got, tt.want)
		}
	}
	testable := 0
	for _, r := range Rules() {
		if r.Testable() {
			testable++
		}
	}
	if testable != 224 {
		t.Errorf("%d testable rules, want 224", testable)
	}
}

func TestIDsUniqueAndContiguous(t *testing.T) {
	seen := map[string]bool{}
	for area, rules := range byArea() {
		for i, r := range rules {
			if seen[r.ID] {
				t.Errorf("duplicate ID %s", r.ID)
			}
			seen[r.ID] = true
			if want := fmt.Sprintf("%s-%02d", area, i+1); r.ID != want {
				t.Errorf("%s: rule %d is %s, want %s (IDs are contiguous from 01)", area, i, r.ID, want)
			}
		}
	}
}

func TestOrder(t *testing.T) {
	wantAreas := []string{
		"LA-CFG", "LA-TRN", "LA-NAME", "LA-LIM", "LA-REG", "LA-CAT", "LA-VAL", "LA-ARC",
		"LA-EVT", "LA-TMO", "LA-SEC", "LA-NET", "LA-OAU", "LA-CC", "LA-TOOL",
		"BL-CFG", "BL-TRN", "BL-NAME", "BL-RT", "BL-INP", "BL-PERM", "BL-OAU", "BL-HC", "BL-ORD",
	}
	if got := Areas(); !slices.Equal(got, wantAreas) {
		t.Fatalf("Areas() = %v, want %v", got, wantAreas)
	}
	var want []string
	for _, area := range wantAreas {
		for i := 1; i <= wantCounts[area].total; i++ {
			want = append(want, fmt.Sprintf("%s-%02d", area, i))
		}
	}
	var got []string
	for _, r := range Rules() {
		got = append(got, r.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Rules() order differs from lite-agent, blade / area order / number")
	}
	for _, area := range wantAreas {
		if title, ok := AreaTitle(area); !ok || title == "" {
			t.Errorf("AreaTitle(%s) = %q, %v", area, title, ok)
		}
	}
	if _, ok := AreaTitle("LA-NOPE"); ok {
		t.Error("AreaTitle(LA-NOPE) found")
	}
}

// TestAreaFiles checks the raw files: each is named after its area, declares
// the right system, and holds only IDs with that area's prefix.
func TestAreaFiles(t *testing.T) {
	names, err := fs.Glob(files, "rules/*.json")
	if err != nil || len(names) != 24 {
		t.Fatalf("rules/*.json: %d files, %v", len(names), err)
	}
	for _, name := range names {
		data, err := fs.ReadFile(files, name)
		if err != nil {
			t.Fatal(err)
		}
		var f areaFile
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name != "rules/"+f.Area+".json" {
			t.Errorf("%s declares area %s", name, f.Area)
		}
		wantSystem := map[string]System{"LA": LiteAgent, "BL": Blade}[f.Area[:2]]
		if f.System != wantSystem {
			t.Errorf("%s: system %q, want %q", name, f.System, wantSystem)
		}
		for _, r := range f.Rules {
			if !strings.HasPrefix(r.ID, f.Area+"-") {
				t.Errorf("%s holds %s", name, r.ID)
			}
			if r.Area != "" || r.System != "" {
				t.Errorf("%s: %s repeats area/system; they come from the file", name, r.ID)
			}
		}
	}
}

func TestSystemAndAreaFilled(t *testing.T) {
	for _, r := range Rules() {
		wantSystem := map[string]System{"LA": LiteAgent, "BL": Blade}[r.ID[:2]]
		if r.System != wantSystem || r.Area != r.ID[:strings.LastIndexByte(r.ID, '-')] {
			t.Errorf("%s: system %q area %q", r.ID, r.System, r.Area)
		}
	}
}

// TestQuotesInSeed checks that every fragment of every quote occurs verbatim
// in the cited lines (joined without line breaks, so a fragment may span lines).
func TestQuotesInSeed(t *testing.T) {
	for _, r := range Rules() {
		lines := r.Source.LineNumbers()
		if len(lines) == 0 {
			t.Errorf("%s: bad lines %q", r.ID, r.Source.Lines)
			continue
		}
		text, err := SeedLines(r.Source.Seed, lines)
		if err != nil {
			t.Errorf("%s: %v", r.ID, err)
			continue
		}
		cited := strings.Join(text, "")
		if len(r.Source.Quotes) == 0 {
			t.Errorf("%s: no quote", r.ID)
		}
		for _, q := range r.Source.Quotes {
			for _, frag := range strings.Split(q, "……") {
				if frag == "" || !strings.Contains(cited, frag) {
					t.Errorf("%s: quote fragment %q not in %s lines %s", r.ID, frag, r.Source.Seed, r.Source.Lines)
				}
			}
		}
	}
}

func TestSeedMatchesSystem(t *testing.T) {
	want := map[System]string{LiteAgent: "000_25ff0b720cab2e5b.txt", Blade: "002_1087498e63ed3514.txt"}
	for _, r := range Rules() {
		if r.Source.Seed != want[r.System] {
			t.Errorf("%s cites seed %s, want %s", r.ID, r.Source.Seed, want[r.System])
		}
	}
}

func TestTextFields(t *testing.T) {
	for _, r := range Rules() {
		if r.Statement == "" {
			t.Errorf("%s: empty statement", r.ID)
		}
		if strings.ContainsFunc(r.Statement, func(c rune) bool { return unicode.Is(unicode.Han, c) }) {
			t.Errorf("%s: statement contains Chinese: %s", r.ID, r.Statement)
		}
		if r.Testable() && r.Check == "" {
			t.Errorf("%s: testable rule without a check", r.ID)
		}
	}
}

func TestInterpretationRefsExist(t *testing.T) {
	for _, r := range Rules() {
		for _, id := range r.Interpretations {
			if _, ok := LookupInterpretation(id); !ok {
				t.Errorf("%s: unknown interpretation %s", r.ID, id)
			}
		}
		if !slices.IsSortedFunc(r.Interpretations, compareInterpIDs) || len(slices.Compact(slices.Clone(r.Interpretations))) != len(r.Interpretations) {
			t.Errorf("%s: interpretations %v not sorted and unique", r.ID, r.Interpretations)
		}
	}
}

func compareInterpIDs(a, b string) int {
	if d := strings.IndexByte("XAB", a[0]) - strings.IndexByte("XAB", b[0]); d != 0 {
		return d
	}
	return idNumber(a) - idNumber(b)
}

func TestInterpretationsComplete(t *testing.T) {
	all := Interpretations()
	want := map[byte]int{'X': 19, 'A': 42, 'B': 22}
	var ids []string
	for kind, n := range map[byte]int{'X': 19, 'A': 42, 'B': 22} {
		for i := 1; i <= n; i++ {
			ids = append(ids, fmt.Sprintf("%c-%02d", kind, i))
		}
	}
	if len(all) != 19+42+22 {
		t.Errorf("%d interpretations, want %d", len(all), 19+42+22)
	}
	for _, id := range ids {
		in, ok := LookupInterpretation(id)
		if !ok {
			t.Errorf("missing interpretation %s", id)
			continue
		}
		if in.ID != id || in.Topic == "" || in.Sources == "" || in.Decision == "" {
			t.Errorf("%s: incomplete %+v", id, in)
		}
		want[id[0]]--
	}
	for kind, left := range want {
		if left != 0 {
			t.Errorf("%c: %d entries unaccounted for", kind, left)
		}
	}
	if !slices.IsSortedFunc(all, func(a, b Interpretation) int { return compareInterpIDs(a.ID, b.ID) }) {
		t.Error("Interpretations() is not in X, A, B / numeric order")
	}
	if _, ok := LookupInterpretation("X-20"); ok {
		t.Error("LookupInterpretation(X-20) found")
	}
}

// The pending notes, exactly as they are meant to be matched by tooling.
const (
	issue4 = "issue 4: transports, network policy, byte caps, timeouts"
	issue5 = "issue 5: tool catalog, calls, projection, events, permissions, sub-agents"
	issue6 = "issue 6: OAuth and machine credentials"
	blade  = "Blade profile: not yet scheduled"
)

// pendingNotes are the only pending notes a rule may carry: the piece of
// work that will bring its scenarios. Which rules still carry one is
// checked against the Gherkin suite by the conformance package
// (TestFeaturesMatchCatalog): a rule is pending exactly while it has no
// scenario.
var pendingNotes = []string{issue4, issue5, issue6, blade}

func TestPendingAndReason(t *testing.T) {
	for _, r := range Rules() {
		if !r.Testable() {
			if r.Reason == "" {
				t.Errorf("%s (%s): no reason", r.ID, r.Testability)
			}
			if r.Pending != "" {
				t.Errorf("%s (%s): non-testable rule has pending %q", r.ID, r.Testability, r.Pending)
			}
			continue
		}
		if r.Reason != "" {
			t.Errorf("%s: testable rule has a reason", r.ID)
		}
		if r.Pending != "" && !slices.Contains(pendingNotes, r.Pending) {
			t.Errorf("%s: unknown pending note %q", r.ID, r.Pending)
		}
	}
}

var knownCapabilities = []string{
	"home", "list-normalize", "subagent", "sandbox", "dry-run", "projection", "context-ref",
	"session-dump", "log-sinks", "concurrency-policy", "input-required", "send", "dispose",
	"confirmation", "normalization", "tool-info-name", "health", "oauth-endpoints", "clock",
}

func TestCapabilities(t *testing.T) {
	for _, r := range Rules() {
		if r.Capability != "" && !slices.Contains(knownCapabilities, r.Capability) {
			t.Errorf("%s: unknown capability %q", r.ID, r.Capability)
		}
		switch r.Testability {
		case BlackBoxAdapter:
			if r.Capability == "" {
				t.Errorf("%s: BB-A rule without capability", r.ID)
			}
		case BlackBoxSlow:
			if r.Capability != "clock" {
				t.Errorf("%s: BB-S rule has capability %q, want clock", r.ID, r.Capability)
			}
		default:
			if r.Capability != "" && r.Note == "" {
				t.Errorf("%s: %s rule with capability %q but no note saying which variant needs it", r.ID, r.Testability, r.Capability)
			}
		}
	}
}

func TestStrengthsAndTestabilityValid(t *testing.T) {
	for _, r := range Rules() {
		if !validStrength[r.Strength] || !validTestab[r.Testability] {
			t.Errorf("%s: strength %q testability %q", r.ID, r.Strength, r.Testability)
		}
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		id          string
		strength    Strength
		testability Testability
		system      System
		lines       string
	}{
		{"LA-NAME-02", Must, BlackBox, LiteAgent, "87"},
		{"LA-CFG-01", Info, WhiteBox, LiteAgent, "3,111,155"},
		{"LA-CFG-04", Must, BlackBox, LiteAgent, "9-22,24"},
		{"LA-CFG-05", MustNot, BlackBox, LiteAgent, "24"},
		{"LA-TRN-09", MustNot, NotTestable, LiteAgent, "107"},
		{"LA-TMO-01", Must, BlackBoxSlow, LiteAgent, "93"},
		{"LA-REG-14", Must, BlackBoxAdapter, LiteAgent, "83"},
		{"BL-NAME-04", May, BlackBox, Blade, "225"},
		{"BL-PERM-06", Info, InfoOnly, Blade, "227-229"},
		{"BL-ORD-03", Must, BlackBox, Blade, "273"},
	}
	for _, tt := range tests {
		r, ok := Lookup(tt.id)
		if !ok {
			t.Errorf("Lookup(%s) not found", tt.id)
			continue
		}
		if r.ID != tt.id || r.Strength != tt.strength || r.Testability != tt.testability || r.System != tt.system || r.Source.Lines != tt.lines {
			t.Errorf("Lookup(%s) = %s %s %s %s %s", tt.id, r.ID, r.Strength, r.Testability, r.System, r.Source.Lines)
		}
	}
	for _, id := range []string{"", "LA-NAME-10", "LA-NAME-2", "la-name-02", "BL-ORD-00"} {
		if _, ok := Lookup(id); ok {
			t.Errorf("Lookup(%q) found", id)
		}
	}
	if in, ok := LookupInterpretation("A-06"); !ok || in.Sources != "LA:L87" {
		t.Errorf("LookupInterpretation(A-06) = %+v, %v", in, ok)
	}
}

func TestReturnedValuesAreCopies(t *testing.T) {
	rules := Rules()
	rules[0].Source.Quotes[0] = "changed"
	rules[0].Statement = "changed"
	r, _ := Lookup(rules[0].ID)
	if r.Source.Quotes[0] == "changed" || r.Statement == "changed" {
		t.Error("modifying Rules() changed the catalog")
	}
	r.Interpretations = append(r.Interpretations[:0], "Z-99")
	areas := Areas()
	areas[0] = "changed"
	if Areas()[0] != "LA-CFG" {
		t.Error("modifying Areas() changed the catalog")
	}
	ins := Interpretations()
	ins[0].Decision = "changed"
	if in, _ := LookupInterpretation(ins[0].ID); in.Decision == "changed" {
		t.Error("modifying Interpretations() changed the catalog")
	}
	for _, r := range Rules() {
		if slices.Contains(r.Interpretations, "Z-99") {
			t.Error("modifying a Lookup result changed the catalog")
		}
	}
}

func TestLineNumbers(t *testing.T) {
	tests := []struct {
		lines string
		want  []int
	}{
		{"87", []int{87}},
		{"3,111,155", []int{3, 111, 155}},
		{"9-12,24", []int{9, 10, 11, 12, 24}},
		{"5-5", []int{5}},
		{"", nil},
		{"0", nil},
		{"5-3", nil},
		{"L87", nil},
		{"9-", nil},
		{"1,,2", nil},
		{"1, 2", nil},
	}
	for _, tt := range tests {
		if got := (Source{Lines: tt.lines}).LineNumbers(); !slices.Equal(got, tt.want) {
			t.Errorf("LineNumbers(%q) = %v, want %v", tt.lines, got, tt.want)
		}
	}
}

func TestSeedLines(t *testing.T) {
	tests := []struct {
		seed    string
		lines   []int
		prefix  string
		wantErr bool
	}{
		{"000_25ff0b720cab2e5b.txt", []int{1}, "#MCP 服务器", false},
		{"000_25ff0b720cab2e5b.txt", []int{87}, "工具名为 mcp__<server>__<tool>", false},
		{"000_25ff0b720cab2e5b.txt", []int{170}, "Tool.schema", false},
		{"002_1087498e63ed3514.txt", []int{5}, "所有远程工具", false},
		{"002_1087498e63ed3514.txt", []int{383}, "", false},
		{"000_25ff0b720cab2e5b.txt", []int{171}, "", true},
		{"000_25ff0b720cab2e5b.txt", []int{0}, "", true},
		{"002_1087498e63ed3514.txt", []int{384}, "", true},
		{"nope.txt", []int{1}, "", true},
	}
	for _, tt := range tests {
		got, err := SeedLines(tt.seed, tt.lines)
		if (err != nil) != tt.wantErr {
			t.Errorf("SeedLines(%s, %v) error %v, wantErr %v", tt.seed, tt.lines, err, tt.wantErr)
			continue
		}
		if err == nil && (len(got) != len(tt.lines) || !strings.HasPrefix(got[0], tt.prefix)) {
			t.Errorf("SeedLines(%s, %v) = %q, want prefix %q", tt.seed, tt.lines, got, tt.prefix)
		}
	}
	got, err := SeedLines("000_25ff0b720cab2e5b.txt", []int{3, 1})
	if err != nil || len(got) != 2 || got[1] != "#MCP 服务器" {
		t.Errorf("SeedLines keeps the requested order: %q, %v", got, err)
	}
}

// TestSeedsEmbedded checks that exactly the two seeds are embedded, with the
// line counts the catalog cites against (neither ends with a newline).
func TestSeedsEmbedded(t *testing.T) {
	names, err := fs.Glob(files, "seeds/*.txt")
	if err != nil || !slices.Equal(names, []string{"seeds/000_25ff0b720cab2e5b.txt", "seeds/002_1087498e63ed3514.txt"}) {
		t.Fatalf("seeds: %v, %v", names, err)
	}
	for seed, n := range map[string]int{"000_25ff0b720cab2e5b.txt": 170, "002_1087498e63ed3514.txt": 383} {
		if _, err := SeedLines(seed, []int{n}); err != nil {
			t.Errorf("%s has fewer than %d lines: %v", seed, n, err)
		}
		if _, err := SeedLines(seed, []int{n + 1}); err == nil {
			t.Errorf("%s has more than %d lines", seed, n)
		}
	}
}

func TestConcurrentFirstUse(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, ok := Lookup("LA-NAME-0" + strconv.Itoa(i%9+1)); !ok {
				t.Errorf("lookup %d failed", i)
			}
			_ = Rules()
			_ = Interpretations()
		}()
	}
	wg.Wait()
}

// overlay copies the embedded files into a MapFS with some files replaced
// (or removed, for a nil value), to feed malformed data to parse.
func overlay(t *testing.T, replace map[string][]byte) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(files, p)
		m[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for p, data := range replace {
		if data == nil {
			delete(m, p)
			continue
		}
		m[p] = &fstest.MapFile{Data: data}
	}
	return m
}

func TestParseEmbedded(t *testing.T) {
	if _, err := parse(overlay(t, nil)); err != nil {
		t.Fatalf("parse of the embedded files: %v", err)
	}
}

func TestParseRejectsMalformed(t *testing.T) {
	name := "rules/LA-NAME.json"
	orig, err := fs.ReadFile(files, name)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) []byte {
		if !strings.Contains(string(orig), old) {
			t.Fatalf("%s does not contain %q", name, old)
		}
		return []byte(strings.Replace(string(orig), old, new, 1))
	}
	tests := []struct {
		name    string
		replace map[string][]byte
		wantErr string
	}{
		{"unknown field", map[string][]byte{name: edit(`"id": "LA-NAME-01",`, `"id": "LA-NAME-01", "strenght": "MUST",`)}, "unknown field"},
		{"wrong area prefix", map[string][]byte{name: edit(`"LA-NAME-01"`, `"LA-CFG-99"`)}, "LA-CFG-99"},
		{"duplicate ID", map[string][]byte{name: edit(`"LA-NAME-02"`, `"LA-NAME-01"`)}, "duplicate"},
		{"bad testability", map[string][]byte{name: edit(`"testability": "BB"`, `"testability": "BB-X"`)}, "testability"},
		{"bad strength", map[string][]byte{name: edit(`"strength": "MUST"`, `"strength": "MUSTN'T"`)}, "strength"},
		{"bad lines", map[string][]byte{name: edit(`"lines": "87"`, `"lines": "L87"`)}, "bad line"},
		{"line beyond seed", map[string][]byte{name: edit(`"lines": "87"`, `"lines": "999"`)}, "beyond"},
		{"unknown seed", map[string][]byte{name: edit(`"seed": "000_25ff0b720cab2e5b.txt"`, `"seed": "nope.txt"`)}, "unknown seed"},
		{"unknown interpretation", map[string][]byte{name: edit(`"A-06"`, `"A-99"`)}, "unknown interpretation"},
		{"reason on testable rule", map[string][]byte{name: edit(`"id": "LA-NAME-01",`, `"id": "LA-NAME-01", "reason": "x",`)}, "reason"},
		{"area file missing", map[string][]byte{name: nil}, "LA-NAME.json: missing"},
		{"unknown area file", map[string][]byte{"rules/LA-XYZ.json": orig}, "not a known area"},
		{"area mismatch", map[string][]byte{"rules/LA-CFG.json": orig}, "declares area"},
		{"trailing data", map[string][]byte{name: append(slices.Clone(orig), []byte("{}")...)}, "trailing"},
		{"interpretation without decision", map[string][]byte{"interpretations.json": []byte(`[{"id":"X-01","topic":"t","sources":"s"}]`)}, "decision"},
		{"no seeds", map[string][]byte{"seeds/000_25ff0b720cab2e5b.txt": nil, "seeds/002_1087498e63ed3514.txt": nil}, "seeds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(overlay(t, tt.replace))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parse error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}
