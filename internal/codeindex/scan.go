package codeindex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// RuleDirs are the directories under the module's root whose Go files are
// scanned for rules: the reference, wherever in it the code moves, and the
// module's internal packages.
var RuleDirs = []string{"reference", "internal"}

// StepDir is the directory whose world methods run the steps.
const StepDir = "conformance"

// ruleID finds rule IDs, with an optional range of numbers:
// LA-NAME-02, LA-NAME-02..04.
var ruleID = regexp.MustCompile(`\b((?:LA|BL)-[A-Z]+-)(\d+)(?:\.\.(\d+))?\b`)

// exactID is a string literal that is one rule ID: an error's rule.
var exactID = regexp.MustCompile(`^(?:LA|BL)-[A-Z]+-\d+$`)

// Scan builds the index from the source under root, the module's root.
// Test files, testdata and this package are left out.
func Scan(root string) (*Index, error) {
	ix := &Index{Rules: map[string][]Site{}, Steps: map[string]Site{}}
	for _, dir := range RuleDirs {
		err := walkGo(root, dir, func(rel string, fset *token.FileSet, f *ast.File, src []byte) {
			if strings.HasPrefix(rel, "internal/codeindex/") {
				return
			}
			scanRules(ix, rel, fset, f, src)
		})
		if err != nil {
			return nil, err
		}
	}
	err := walkGo(root, StepDir, func(rel string, fset *token.FileSet, f *ast.File, src []byte) {
		if filepath.ToSlash(filepath.Dir(rel)) != StepDir {
			return // the world is in the package itself, not below it
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || recvName(fd) != "*world" {
				continue
			}
			p := fset.Position(fd.Name.Pos())
			ix.Steps[fd.Name.Name] = Site{File: rel, Line: p.Line}
		}
	})
	if err != nil {
		return nil, err
	}
	for id, sites := range ix.Rules {
		slices.SortFunc(sites, func(a, b Site) int {
			if c := strings.Compare(a.File, b.File); c != 0 {
				return c
			}
			return a.Line - b.Line
		})
		ix.Rules[id] = slices.Compact(sites)
	}
	return ix, nil
}

// walkGo parses every non-test Go file under root/dir.
func walkGo(root, dir string, fn func(rel string, fset *token.FileSet, f *ast.File, src []byte)) error {
	base := filepath.Join(root, dir)
	if _, err := os.Stat(base); os.IsNotExist(err) {
		return nil
	}
	return filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || (strings.HasPrefix(n, ".") && p != base) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		fn(filepath.ToSlash(rel), fset, f, src)
		return nil
	})
}

// scanRules adds the rule sites of one file: each comment line naming a
// rule, and each string literal that is a rule ID.
func scanRules(ix *Index, rel string, fset *token.FileSet, f *ast.File, src []byte) {
	lines := bytes.Split(src, []byte("\n"))
	add := func(id string, pos token.Pos) {
		p := fset.Position(pos)
		text := ""
		if p.Line-1 < len(lines) {
			text = strings.TrimSpace(string(lines[p.Line-1]))
		}
		if len(text) > MaxText {
			text = strings.ToValidUTF8(text[:MaxText], "") + "…"
		}
		ix.Rules[id] = append(ix.Rules[id], Site{File: rel, Line: p.Line, Func: enclosing(f, pos), Text: text})
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			// A comment spans lines: find each ID's own line.
			for _, m := range ruleID.FindAllStringSubmatchIndex(c.Text, -1) {
				pos := c.Slash + token.Pos(m[0])
				for _, id := range expand(c.Text, m) {
					add(id, pos)
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && exactID.MatchString(s) {
				add(s, lit.Pos())
			}
		}
		return true
	})
}

// expand turns one match of ruleID into its IDs: LA-NAME-02..04 is
// LA-NAME-02, LA-NAME-03 and LA-NAME-04.
func expand(text string, m []int) []string {
	prefix, first := text[m[2]:m[3]], text[m[4]:m[5]]
	if m[6] < 0 {
		return []string{prefix + first}
	}
	lo, _ := strconv.Atoi(first)
	hi, _ := strconv.Atoi(text[m[6]:m[7]])
	if hi < lo || hi-lo > 50 {
		return []string{prefix + first}
	}
	var out []string
	for n := lo; n <= hi; n++ {
		out = append(out, fmt.Sprintf("%s%0*d", prefix, len(first), n))
	}
	return out
}

// enclosing names the declaration that holds pos or whose doc comment
// does.
func enclosing(f *ast.File, pos token.Pos) string {
	for _, d := range f.Decls {
		start := d.Pos()
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			if pos >= start && pos < d.End() {
				if r := recvName(d); r != "" {
					return "(" + r + ")." + d.Name.Name
				}
				return d.Name.Name
			}
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			if pos >= start && pos < d.End() && len(d.Specs) > 0 {
				if pos < d.Specs[0].Pos() {
					return specName(d.Specs[0]) // in the declaration's doc comment
				}
				for _, s := range d.Specs {
					if pos >= specStart(s) && pos < s.End() {
						return specName(s)
					}
				}
				return specName(d.Specs[0])
			}
		}
	}
	return ""
}

// specStart is where a spec begins, its doc comment included.
func specStart(s ast.Spec) token.Pos {
	switch s := s.(type) {
	case *ast.TypeSpec:
		if s.Doc != nil {
			return s.Doc.Pos()
		}
	case *ast.ValueSpec:
		if s.Doc != nil {
			return s.Doc.Pos()
		}
	}
	return s.Pos()
}

// specName is the name a spec declares.
func specName(s ast.Spec) string {
	switch s := s.(type) {
	case *ast.TypeSpec:
		return s.Name.Name
	case *ast.ValueSpec:
		return s.Names[0].Name
	}
	return ""
}

// recvName is a method's receiver type, "*T" or "T"; "" for a function.
func recvName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch t := t.(type) {
	case *ast.Ident:
		return star + t.Name
	case *ast.IndexExpr:
		if id, ok := t.X.(*ast.Ident); ok {
			return star + id.Name
		}
	}
	return star + "?"
}

// Marshal is the index as the generated file holds it.
func (ix *Index) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(ix, "", "\t")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// ModuleRoot finds the module's root from dir: the nearest directory up
// with a go.mod.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("codeindex: no go.mod above %s", dir)
		}
		dir = up
	}
}
