package spec

import (
	"fmt"
	"strconv"
	"strings"
)

// System names the product whose documentation a rule comes from. The
// runner uses it to pick the rules that apply to a target.
type System string

// The systems of the catalog.
const (
	// LiteAgent is @lite-agent/sdk, rule IDs "LA-...", seed 000_25ff0b720cab2e5b.txt.
	LiteAgent System = "lite-agent"
	// Blade is the Blade Agent SDK, rule IDs "BL-...", seed 002_1087498e63ed3514.txt.
	Blade System = "blade"
)

// Strength is how strongly the seed states a rule. It tells a reader whether
// a failing scenario is a violation of a requirement (MUST, MUST NOT), of a
// recommendation (SHOULD), or only informative.
type Strength string

// The strengths of the catalog. A rule has exactly one; compound wording from
// the source catalog (for example "MUST (reuse: SHOULD, inferred)") keeps its
// first word here and the rest in [Rule.Note].
const (
	// Must is behaviour the document states the SDK has.
	Must Strength = "MUST"
	// MustNot is behaviour the document states the SDK never has.
	MustNot Strength = "MUST NOT"
	// Should is recommended behaviour, or behaviour inferred from strong context.
	Should Strength = "SHOULD"
	// May is permitted or optional behaviour.
	May Strength = "MAY"
	// Host is an obligation on, or advice to, the integrating application or
	// server author; it is not an SDK conformance requirement.
	Host Strength = "HOST"
	// Info is a descriptive statement with no conformance requirement.
	Info Strength = "INFO"
)

// Testability says whether and how a rule can be checked from outside an
// implementation, so the runner and coverage reports know which rules must
// have a passing scenario.
type Testability string

// The testability codes of the catalog. A rule has exactly one: the first
// code of the source catalog's T column (for example "BB (exact BB-A)" is
// [BlackBox]); the rest of that column is kept in [Rule.Note].
const (
	// BlackBox rules are checked through the documented API plus fakes.
	BlackBox Testability = "BB"
	// BlackBoxAdapter rules are black-box only if the adapter supplies a
	// capability the seed does not define; [Rule.Capability] names it.
	BlackBoxAdapter Testability = "BB-A"
	// BlackBoxSlow rules are black-box but slow (30 s, 180 s, 5 min) or need
	// clock control.
	BlackBoxSlow Testability = "BB-S"
	// WhiteBox rules are static checks (package metadata, type signatures).
	WhiteBox Testability = "WB"
	// NotTestable rules are normative but not reliably black-box testable
	// (a negative guarantee, or unobservable internals).
	NotTestable Testability = "NT"
	// HostOnly rules are host responsibilities with no SDK conformance test.
	HostOnly Testability = "HOST"
	// InfoOnly rules are informative with no conformance test.
	InfoOnly Testability = "INFO"
)

// Source locates a rule in its seed document, so a report can quote the
// sentence a failing rule comes from.
type Source struct {
	// Seed is the seed file name, for example "000_25ff0b720cab2e5b.txt";
	// see [SeedLines].
	Seed string `json:"seed"`
	// Lines lists the cited 1-based line numbers and ranges, for example
	// "87" or "9-22,24"; [Source.LineNumbers] expands it.
	Lines string `json:"lines"`
	// Quotes are the key phrases of the rule, copied verbatim from the cited
	// lines. A quote containing "……" is several fragments, each verbatim.
	Quotes []string `json:"quotes"`
}

// LineNumbers expands [Source.Lines] ("9-22,24") into the individual line
// numbers, in order, ready for [SeedLines]. It returns nil when Lines is
// malformed; the embedded catalog is validated when it is loaded, so that
// only happens for a Source built by hand.
func (s Source) LineNumbers() []int {
	lines, err := parseLines(s.Lines)
	if err != nil {
		return nil
	}
	return lines
}

// parseLines expands a comma-separated list of positive line numbers and
// ascending ranges ("3,111,155", "9-22,24").
func parseLines(spec string) ([]int, error) {
	if spec == "" {
		return nil, fmt.Errorf("empty line list")
	}
	var out []int
	for _, part := range strings.Split(spec, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		first, err := strconv.Atoi(lo)
		if err != nil || first < 1 {
			return nil, fmt.Errorf("bad line %q in %q", lo, spec)
		}
		last := first
		if isRange {
			last, err = strconv.Atoi(hi)
			if err != nil || last < first {
				return nil, fmt.Errorf("bad line range %q in %q", part, spec)
			}
		}
		for n := first; n <= last; n++ {
			out = append(out, n)
		}
	}
	return out, nil
}

// Rule is one atomic, documented behaviour with a stable ID. It carries what
// the runner, the CLI's list/explain output and coverage reports need: the
// statement, how to check it, where the seed says it, and why it has no
// scenario yet (or ever).
type Rule struct {
	// ID is the stable identifier, "<system>-<area>-<NN>", e.g. "LA-NAME-02".
	ID string `json:"id"`
	// System is the product the rule belongs to (filled from the area file).
	System System `json:"system,omitempty"`
	// Area is the ID without its number, e.g. "LA-NAME" (filled from the area file).
	Area string `json:"area,omitempty"`
	// Strength is how strongly the seed states the rule.
	Strength Strength `json:"strength"`
	// Testability is how the rule can be checked.
	Testability Testability `json:"testability"`
	// Portable says the rule holds for any MCP host, whatever its product
	// (HTTPS and loopback, redirects, byte caps before parsing, the child
	// environment, stderr, reaping, cancellation, no replay, schema
	// validation, honest projection, OAuth state and issuer, no secrets in
	// the host's view); a rule that is not portable describes one
	// product's own surface (file names, the mcp__ naming scheme, its
	// limits and options). `mcpconform run --portable` runs the first
	// group, the scenarios of which measure a third-party SDK fairly.
	Portable bool `json:"portable,omitempty"`
	// Statement is the rule in one or two plain English sentences.
	Statement string `json:"statement"`
	// Source is where the seed states the rule.
	Source Source `json:"source"`
	// Check is what a black-box scenario for the rule does, in short.
	Check string `json:"check,omitempty"`
	// Capability is the adapter capability the rule needs, for example
	// "subagent" or "clock". It is always set for [BlackBoxAdapter] and
	// [BlackBoxSlow] rules, which cannot be checked without it. On other rules
	// it names a capability needed only by a variant of the check (an exact
	// boundary, an override); [Rule.Note] says which.
	Capability string `json:"capability,omitempty"`
	// Interpretations lists the IDs of the [Interpretation] entries the rule
	// depends on; see [LookupInterpretation].
	Interpretations []string `json:"interpretations,omitempty"`
	// Reason says why no black-box scenario exists; it is set exactly when
	// the rule is not [Rule.Testable].
	Reason string `json:"reason,omitempty"`
	// Pending names the later piece of work that brings the rule's scenarios;
	// empty for non-testable rules and for testable rules already covered.
	Pending string `json:"pending,omitempty"`
	// Note keeps anything else worth knowing: inferred rules, compound
	// strengths or testability codes, optional checks, implementation details.
	Note string `json:"note,omitempty"`
}

// Testable reports whether the rule can be checked black-box ([BlackBox],
// [BlackBoxAdapter] or [BlackBoxSlow]), i.e. whether coverage expects a
// passing scenario for it.
func (r Rule) Testable() bool {
	switch r.Testability {
	case BlackBox, BlackBoxAdapter, BlackBoxSlow:
		return true
	}
	return false
}

// clone returns a copy of r that shares no slices with it, so callers can't
// modify the catalog through a returned value.
func (r Rule) clone() Rule {
	r.Source.Quotes = append([]string(nil), r.Source.Quotes...)
	if r.Interpretations != nil {
		r.Interpretations = append([]string(nil), r.Interpretations...)
	}
	return r
}
