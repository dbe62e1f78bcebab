package core

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// ToolPrefix starts every MCP tool name offered to the model.
const ToolPrefix = "mcp__"

// ToolName returns the name under which tool of server alias is offered to
// the model and authorized: mcp__<alias>__<tool> (LA-NAME-01).
func ToolName(alias, tool string) string {
	return ToolPrefix + alias + "__" + tool
}

// nameChar reports whether c may appear in an alias or a tool name: ASCII
// letters, digits, '_' and '-' (LA-NAME-03, LA-NAME-06; non-ASCII letters
// are refused, interpretation A-06).
func nameChar(c rune) bool {
	return c == '_' || c == '-' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// firstBadChar returns the first character of s that [nameChar] refuses.
func firstBadChar(s string) (rune, bool) {
	for _, c := range s {
		if !nameChar(c) {
			return c, true
		}
	}
	return 0, false
}

// ValidateAlias checks a server alias: 1 to 24 letters, digits, '_' or '-',
// without "__" (LA-NAME-02..04). The error is a [KindName] [*Error].
func ValidateAlias(alias string) error {
	return validateAlias(alias, fault.Set{})
}

func validateAlias(alias string, m fault.Set) error {
	maxLen := MaxAliasLength
	// LA-NAME-02: at most 24 characters.
	if m.Has(fault.AliasLength) {
		maxLen++
	}
	return validateAliasUpTo(alias, maxLen, m)
}

// validateBladeKey checks a Blade server key: the syntax of a lite-agent
// alias, without its 24-character bound, which Blade does not document
// (interpretation B-22); the exposed names of the server's tools are
// still bounded ([MaxToolNameLength]).
func validateBladeKey(key string, m fault.Set) error {
	return validateAliasUpTo(key, math.MaxInt, m)
}

// validateAliasUpTo checks an alias of at most maxLen characters.
func validateAliasUpTo(alias string, maxLen int, m fault.Set) error {
	n := utf8.RuneCountInString(alias)
	if n < MinAliasLength {
		return newError(KindName, "LA-NAME-02", "server alias is empty; it must have 1 to %d characters", MaxAliasLength)
	}
	if n > maxLen {
		return newError(KindName, "LA-NAME-02", "server alias %q has %d characters; at most %d", alias, n, MaxAliasLength)
	}
	// LA-NAME-03: letters, digits, '_' and '-' only.
	if c, bad := firstBadChar(alias); bad && !(m.Has(fault.AliasCharset) && c == '.') {
		return newError(KindName, "LA-NAME-03", "server alias %q contains %q; only letters, digits, '_' and '-' are allowed", alias, c)
	}
	// LA-NAME-03: the ranges include their ends.
	if i := strings.IndexAny(alias, rangeEnds); i >= 0 && m.Has(fault.AliasRangeEnds) {
		return newError(KindName, "LA-NAME-03", "server alias %q contains %q (mutated)", alias, alias[i])
	}
	// LA-NAME-04: no "__" in an alias.
	if strings.Contains(alias, "__") && !m.Has(fault.AliasDoubleUnderscore) {
		return newError(KindName, "LA-NAME-04", "server alias %q contains \"__\", which separates the parts of a tool name", alias)
	}
	return nil
}

// ValidateToolName checks the full name of a discovered tool: at most 64
// letters, digits, '_' or '-' (LA-NAME-05, LA-NAME-06). raw is the server's
// own name for the tool, quoted in the error.
func ValidateToolName(full, raw string) error {
	return validateToolName(full, raw, fault.Set{})
}

func validateToolName(full, raw string, m fault.Set) error {
	if raw == "" {
		return newError(KindName, "LA-NAME-06", "the server offers a tool with an empty name")
	}
	// LA-NAME-06: letters, digits, '_' and '-' only.
	if c, bad := firstBadChar(raw); bad && !(m.Has(fault.ToolNameCharset) && c == '.') && !(m.Has(fault.ToolNameNeighbours) && strings.ContainsRune(rangeNeighbours, c)) {
		return newError(KindName, "LA-NAME-06", "tool %q contains %q; tool names may only use letters, digits, '_' and '-'", raw, c)
	}
	// LA-NAME-06: the ranges include their ends.
	if i := strings.IndexAny(raw, rangeEnds); i >= 0 && m.Has(fault.ToolNameRangeEnds) {
		return newError(KindName, "LA-NAME-06", "tool %q contains %q (mutated)", raw, raw[i])
	}
	maxLen := MaxToolNameLength
	// LA-NAME-05: full names of at most 64 characters.
	if m.Has(fault.ToolNameLength) {
		maxLen++
	}
	if n := len(full); n > maxLen {
		return newError(KindName, "LA-NAME-05", "%s", tooLongName(full, raw))
	}
	return nil
}

// tooLongName explains a full tool name over [MaxToolNameLength]: the
// alias and the tool that make it, and what would fit.
func tooLongName(full, raw string) string {
	alias := strings.TrimSuffix(strings.TrimPrefix(full, "mcp__"), "__"+raw)
	room := MaxToolNameLength - len("mcp__") - len("__") // for the alias and the tool
	msg := fmt.Sprintf("the tool %q of server %q makes the full name %q of %d characters; at most %d", truncate(raw, 80), alias, truncate(full, 100), len(full), MaxToolNameLength)
	if fits := room - len(raw); fits >= 1 {
		return msg + fmt.Sprintf("; the alias %q has %d characters, and beside this tool an alias may have at most %d: shorten the alias, or the server's tool name", alias, len(alias), min(fits, MaxAliasLength))
	}
	return msg + fmt.Sprintf("; the tool's own name has %d characters, so no alias makes it fit (an alias of 1 character leaves a tool %d): the server's tool name must be shorter", len(raw), room-1)
}

// rangeEnds and rangeNeighbours serve only the mutations that get the
// ends of the character ranges wrong: the first and last letters and
// digits, and the ASCII characters just outside them ('~' too).
const (
	rangeEnds       = "AZaz09"
	rangeNeighbours = "@[`{~"
)
