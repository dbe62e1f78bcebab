// Package spec is the conformance rule catalog of mcpconform: every
// documented rule of the two seed documents, as data compiled into the
// binary, plus a small read-only API over it.
//
// The catalog covers two systems ([LiteAgent] and [Blade]). Each rule has a
// stable ID such as "LA-NAME-02" (system prefix, area, number) that never
// renumbers, so Gherkin scenarios, reports and baselines can refer to it
// forever. A [Rule] says how strongly the seed states it ([Strength]), whether
// and how it can be checked from outside an implementation ([Testability]),
// what a black-box scenario does, and where the seed says it ([Source]): a seed
// file, its line numbers and the key Chinese phrases, which the package tests
// find verbatim in the seed. Rules that no scenario can check carry a
// [Rule.Reason]; testable rules whose scenarios come later carry a
// [Rule.Pending] note.
//
// Where the seeds contradict each other or leave a point open, the suite
// follows the recommended reading recorded as an [Interpretation] (IDs X-..,
// A-.., B-..), and a rule lists the interpretations it depends on in
// [Rule.Interpretations].
//
// The data lives next to this file: rules/<AREA>.json (one file per area),
// interpretations.json, and seeds/ (byte-identical copies of the seed
// documents). It is embedded with go:embed and parsed once on first use;
// malformed data is a build defect, so the accessors panic on it rather than
// return errors. Start with [Rules], [Lookup], [Areas], [Interpretations] and
// [SeedLines].
package spec
