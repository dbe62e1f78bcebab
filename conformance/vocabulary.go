package conformance

import (
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"regexp"
	"runtime"
	"strings"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"
)

// stepDefiner is what a domain's register function defines its steps on:
// godog's scenario context when the suite runs, a [stepRecorder] when the
// vocabulary itself is looked at (its tests, explain).
type stepDefiner interface {
	Step(expr, stepFunc any)
}

// stepDef is one step definition of the vocabulary.
type stepDef struct {
	expr    *regexp.Regexp
	handler string // the world's method behind it, e.g. "toolAnswersWith"
	nested  bool   // it returns godog.Steps
}

// stepRecorder collects step definitions instead of running them.
type stepRecorder struct{ defs []stepDef }

// Step records one definition; it panics on what godog would refuse too.
func (r *stepRecorder) Step(expr, stepFunc any) {
	var re *regexp.Regexp
	switch e := expr.(type) {
	case string:
		re = regexp.MustCompile(e)
	case *regexp.Regexp:
		re = e
	default:
		panic(fmt.Sprintf("step expression of type %T", expr))
	}
	r.defs = append(r.defs, stepDef{expr: re, handler: handlerName(stepFunc), nested: returnsSteps(stepFunc)})
}

// handlerName is the name of the world's method a step function is bound
// to, or the function's own name when it is not one.
func handlerName(fn any) string {
	name := runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).Name()
	name = strings.TrimSuffix(name, "-fm")
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// vocabulary is every step definition of the suite, in registration order.
func vocabulary() []stepDef {
	var r stepRecorder
	(&world{}).registerSteps(&r)
	return r.defs
}

// matchDefs returns the definitions a step text matches.
func matchDefs(defs []stepDef, text string) []stepDef {
	var out []stepDef
	for _, d := range defs {
		if d.expr.MatchString(text) {
			out = append(out, d)
		}
	}
	return out
}

// featurePickles are the pickles (scenarios with an outline's values filled
// in) of every feature file of fsys under dirs, in file and line order.
func featurePickles(fsys fs.FS, dirs []string) ([]*messages.Pickle, error) {
	var out []*messages.Pickle
	for _, dir := range dirs {
		err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || path.Ext(p) != ".feature" {
				return err
			}
			f, err := fsys.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			newID := (&messages.Incrementing{}).NewId
			doc, err := gherkin.ParseGherkinDocument(f, newID)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			out = append(out, gherkin.Pickles(*doc, p, newID)...)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
