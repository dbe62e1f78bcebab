package spec

// Interpretation is one entry of the catalog's register of contradictions
// and ambiguities, with the reading the suite follows. IDs are "X-NN" (the two
// seeds disagree), "A-NN" (open point in the lite-agent seed) or "B-NN" (open
// point in the Blade seed). Scenarios that depend on an unresolved point are
// tagged @ambiguous:<ID>, and [Rule.Interpretations] links rules to entries,
// so a report can say which reading a verdict rests on.
type Interpretation struct {
	// ID is the stable identifier, e.g. "A-06".
	ID string `json:"id"`
	// Topic names the open point in a few words.
	Topic string `json:"topic"`
	// Sources cites the seed lines involved, e.g. "LA:L87" or "LA:L87; BL:L5, L225".
	Sources string `json:"sources"`
	// Decision is the recommended interpretation the suite follows by default.
	Decision string `json:"decision"`
}
