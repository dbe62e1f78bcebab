package conformance

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// junitSuites is the JUnit XML document.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }

// WriteJUnit writes the report as JUnit XML: one testsuite per feature
// file, one testcase per scenario, named with its rule IDs. A failed
// scenario is a <failure>; an undefined or pending one is an <error>,
// because the suite itself is incomplete; a skip names its reason.
func (r *Report) WriteJUnit(w io.Writer) error {
	doc := junitSuites{Name: "mcpconform " + r.Target.Name}
	if r.Error != nil {
		// The run never started: one error, so that CI shows a broken
		// adapter and not an empty, green suite.
		doc.Suites = append(doc.Suites, junitSuite{Name: "target", Tests: 1, Errors: 1, Time: seconds(0), Cases: []junitCase{{
			Name: "the target starts and completes the handshake", Classname: "target", Time: seconds(0),
			Error: &junitProblem{Message: firstLine(r.Error.Message), Type: "target", Body: r.Error.Message + "\n  " + strings.Join(r.Error.Evidence, "\n  ")},
		}}})
	}
	index := map[string]int{}
	var total int64
	for _, s := range r.Scenarios {
		i, ok := index[s.Feature]
		if !ok {
			i = len(doc.Suites)
			index[s.Feature] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: s.Feature})
		}
		suite := &doc.Suites[i]
		c := junitCase{
			Name:      fmt.Sprintf("[%s] %s", strings.Join(s.Rules, " "), s.Name),
			Classname: strings.TrimSuffix(s.Feature, ".feature"),
			Time:      seconds(s.DurationMs),
		}
		detail := s.Error
		if len(s.Evidence) > 0 {
			detail += "\nwire log:\n  " + strings.Join(s.Evidence, "\n  ")
		}
		switch s.Status {
		case StatusFailed, StatusFlaky:
			c.Failure = &junitProblem{Message: firstLine(s.Error), Type: string(s.Status), Body: detail}
			suite.Failures++
		case StatusUndefined, StatusPending:
			c.Error = &junitProblem{Message: firstLine(s.Error), Type: string(s.Status), Body: detail}
			suite.Errors++
		case StatusSkipped:
			c.Skipped = &junitProblem{Message: s.Error}
			suite.Skipped++
		}
		suite.Tests++
		suite.Cases = append(suite.Cases, c)
		total += s.DurationMs
	}
	for i := range doc.Suites {
		var ms int64
		for _, c := range r.Scenarios {
			if c.Feature == doc.Suites[i].Name {
				ms += c.DurationMs
			}
		}
		doc.Suites[i].Time = seconds(ms)
		doc.Tests += doc.Suites[i].Tests
		doc.Failures += doc.Suites[i].Failures
		doc.Errors += doc.Suites[i].Errors
		doc.Skipped += doc.Suites[i].Skipped
	}
	doc.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// firstLine returns the first non-empty line of s.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
