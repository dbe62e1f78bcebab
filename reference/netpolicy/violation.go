package netpolicy

import "fmt"

// Violation is a refused URL or header. Rule is the catalog rule that
// refuses it, and Msg says why, quoting the offending value.
type Violation struct {
	Rule string
	Msg  string
}

// Error implements the error interface.
func (v *Violation) Error() string { return v.Rule + ": " + v.Msg }

func violation(rule, format string, args ...any) *Violation {
	return &Violation{Rule: rule, Msg: fmt.Sprintf(format, args...)}
}
