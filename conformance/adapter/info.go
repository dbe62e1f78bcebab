package adapter

import "slices"

// System names a product whose rules an implementation claims to follow.
type System string

// The systems of the rule catalog.
const (
	LiteAgent System = "lite-agent"
	Blade     System = "blade"
)

// Info is what an adapter says about itself and the implementation it drives.
type Info struct {
	// Name and Version identify the adapter itself.
	Name    string `json:"name"`
	Version string `json:"version"`
	// Implementation identifies the implementation under test.
	Implementation Implementation `json:"implementation"`
	// Systems lists the systems whose rules the implementation claims.
	Systems []System `json:"systems"`
	// Capabilities lists the optional capabilities the adapter supports.
	Capabilities []Capability `json:"capabilities"`
}

// Implementation names an implementation under test and its version.
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Supports reports whether the adapter declared capability c.
func (i Info) Supports(c Capability) bool { return slices.Contains(i.Capabilities, c) }

// Claims reports whether the implementation claims system s.
func (i Info) Claims(s System) bool { return slices.Contains(i.Systems, s) }
