package fault

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestRuleAndDescription(t *testing.T) {
	tests := []struct {
		f     Fault
		rule  string
		known bool
	}{
		{AliasLength, "LA-NAME-02", true},
		{BladeNoKeyCollision, "BL-NAME-03", true},
		{CCAlwaysBasic, "LA-CC-01", true},
		{"LA-NAME-02/alias-26-characters", "LA-NAME-02", false},
		{"nonsense", "nonsense", false},
	}
	for _, tt := range tests {
		if got := tt.f.Rule(); got != tt.rule {
			t.Errorf("%q.Rule(): Expected %q, Actual %q", tt.f, tt.rule, got)
		}
		if got := tt.f.Known(); got != tt.known {
			t.Errorf("%q.Known(): Expected %v, Actual %v", tt.f, tt.known, got)
		}
		if got := tt.f.Description() != ""; got != tt.known {
			t.Errorf("%q.Description() given: Expected %v, Actual %v", tt.f, tt.known, got)
		}
	}
}

// TestAll checks that every fault is named RULE/what, with a rule ID of
// the catalog's shape, and described.
func TestAll(t *testing.T) {
	name := regexp.MustCompile(`^(LA|BL)-[A-Z]+-\d\d/[A-Za-z0-9.-]+$`)
	all := All()
	if len(all) < 200 || !slices.IsSorted(all) {
		t.Fatalf("All(): Expected over 200 faults, sorted; Actual %d, sorted %v", len(all), slices.IsSorted(all))
	}
	for _, f := range all {
		if !name.MatchString(string(f)) || f.Description() == "" {
			t.Errorf("fault %q: Expected a name RULE/what and a description; Actual description %q", f, f.Description())
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		names   []string
		want    []Fault
		wantErr string
	}{
		{nil, []Fault{}, ""},
		{[]string{string(AliasLength), " " + string(NoProbe) + " "}, []Fault{AliasLength, NoProbe}, ""},
		{[]string{string(AliasLength), string(AliasLength)}, []Fault{AliasLength}, ""},
		{[]string{"LA-NAME-02/alias-26-characters"}, nil, `unknown fault "LA-NAME-02/alias-26-characters"; the faults of LA-NAME-02 are LA-NAME-02/alias-25-characters`},
		{[]string{"LA-ZZZ-01/x"}, nil, `unknown fault "LA-ZZZ-01/x": no fault breaks rule "LA-ZZZ-01"`},
		{[]string{""}, nil, `unknown fault ""`},
	}
	for _, tt := range tests {
		s, err := Parse(tt.names)
		switch {
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Parse(%q): Expected an error containing %q; Actual %v", tt.names, tt.wantErr, err)
			}
			if !s.Empty() {
				t.Errorf("Parse(%q) failed but returned %v", tt.names, s.List())
			}
		case err != nil:
			t.Errorf("Parse(%q): Expected %v; Actual error %v", tt.names, tt.want, err)
		case !slices.Equal(s.List(), tt.want):
			t.Errorf("Parse(%q): Expected %v; Actual %v", tt.names, tt.want, s.List())
		}
		for _, f := range tt.want {
			if !s.Has(f) {
				t.Errorf("Parse(%q).Has(%q) is false", tt.names, f)
			}
		}
	}
}

func TestZeroSetBreaksNothing(t *testing.T) {
	var s Set
	if !s.Empty() || s.Has(AliasLength) || len(s.List()) != 0 {
		t.Errorf("the zero Set: Expected no fault; Actual %v", s.List())
	}
}

func TestNewSetRefusesUnknownFaults(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewSet(unknown): Expected a panic; Actual none")
		}
	}()
	NewSet("LA-NAME-02/nonsense")
}

// options stands for a product package's options type.
type options struct{ faults Set }

func TestInject(t *testing.T) {
	Register(func(o *options, s Set) { o.faults = s })
	var o options
	Inject(&o, NewSet(AliasLength))
	if !o.faults.Has(AliasLength) {
		t.Errorf("Inject: Expected the options to hold %s; Actual %v", AliasLength, o.faults.List())
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "takes no faults") {
			t.Errorf("Inject into an unregistered type: Expected a panic saying it takes no faults; Actual %v", r)
		}
	}()
	var n struct{ x int }
	Inject(&n, NewSet(AliasLength))
}

func TestTwin(t *testing.T) {
	RegisterTwin("fault.double", func(n int, s Set) int {
		if s.Has(AliasLength) {
			return n
		}
		return 2 * n
	})
	double := Twin[func(int, Set) int]("fault.double")
	if got := [2]int{double(3, Set{}), double(3, NewSet(AliasLength))}; got != [2]int{6, 3} {
		t.Errorf("the twin without and with its fault: Expected [6 3]; Actual %v", got)
	}
	tests := []struct {
		name string
		get  func()
		says string
	}{
		{"an unknown name", func() { Twin[func(int, Set) int]("fault.none") }, "no twin of fault.none"},
		{"another type", func() { Twin[func(string) int]("fault.double") }, "not a func(string) int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tt.says) {
					t.Errorf("Twin of %s: Expected a panic saying %q; Actual %v", tt.name, tt.says, r)
				}
			}()
			tt.get()
		})
	}
}

// TestEveryFaultBreaksItsRuleWhereItIsEnforced keeps the rule-to-code index:
// it reads the module's Go source and requires every fault to be checked
// somewhere, and every check of a fault to stand next to a comment that
// names the fault's rule, so that searching the source for a rule ID finds
// the code that enforces it (mcpconform explain does).
func TestEveryFaultBreaksItsRuleWhereItIsEnforced(t *testing.T) {
	consts := faultConsts(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	used := map[Fault]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Dir(path) == mustAbs(t, ".") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		for _, c := range checks(t, path, consts) {
			used[c.fault] = true
			if !c.named {
				t.Errorf("%s:%d: the check of %s has no comment naming %s within %d lines above it", rel, c.line, c.fault, c.fault.Rule(), nearby)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range All() {
		if !used[f] {
			t.Errorf("fault %s is never checked: no code breaks %s for it", f, f.Rule())
		}
	}
}

// nearby is how many lines above a fault's check the comment naming its
// rule may end.
const nearby = 6

// faultConsts maps the names of this package's Fault constants to their
// values.
func faultConsts(t *testing.T) map[string]Fault {
	out := map[string]Fault{}
	for _, f := range All() {
		out[string(f)] = f
	}
	byName := map[string]Fault{}
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for _, file := range p.Files {
			for _, decl := range file.Decls {
				g, ok := decl.(*ast.GenDecl)
				if !ok || g.Tok != token.CONST {
					continue
				}
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
							byName[n.Name] = out[strings.Trim(lit.Value, `"`)]
						}
					}
				}
			}
		}
	}
	return byName
}

// check is one use of a fault constant in code.
type check struct {
	fault Fault
	line  int
	named bool // a comment naming its rule stands next to it
}

// checks finds the uses of fault constants in a file.
func checks(t *testing.T, path string, consts map[string]Fault) []check {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	local := ""
	for _, imp := range file.Imports {
		if strings.Trim(imp.Path.Value, `"`) == "github.com/mcpconform/mcpconform/internal/fault" {
			local = "fault"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	if local == "" {
		return nil
	}
	var out []check
	ast.Inspect(file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
			if f, ok := consts[sel.Sel.Name]; ok {
				line := fset.Position(sel.Pos()).Line
				out = append(out, check{fault: f, line: line, named: commentNear(fset, file, line, f.Rule())})
			}
		}
		return true
	})
	return out
}

// commentNear reports whether a comment naming rule ends within nearby
// lines above line, or on it.
func commentNear(fset *token.FileSet, file *ast.File, line int, rule string) bool {
	for _, g := range file.Comments {
		for _, c := range g.List {
			l := fset.Position(c.End()).Line
			if l <= line && l >= line-nearby && strings.Contains(c.Text, rule) {
				return true
			}
		}
	}
	return false
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
