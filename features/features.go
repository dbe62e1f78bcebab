// Package features holds the conformance suite's Gherkin scenarios, one file
// per area and system (lite-agent/naming.feature, ...), embedded so that
// the mcpconform binary carries them.
//
// Every Scenario is tagged with the rule IDs it checks (@LA-NAME-02) and its
// system (@lite-agent); @adapter:<capability> marks a scenario that needs an
// optional adapter capability.
package features

import "embed"

// FS holds every feature file, under a directory per system.
//
//go:embed lite-agent/*.feature blade/*.feature
var FS embed.FS

// Dirs are the directories of FS that hold feature files.
var Dirs = []string{"lite-agent", "blade"}
