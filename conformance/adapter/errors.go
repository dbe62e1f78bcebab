package adapter

import (
	"errors"
	"fmt"
)

// Kind classifies a failure. The runner compares failures by kind, so an
// adapter maps its implementation's errors onto these.
type Kind string

// The error kinds of the contract.
const (
	// KindConfig: the configuration is malformed or invalid.
	KindConfig Kind = "config"
	// KindName: a server alias or tool name breaks the naming rules.
	KindName Kind = "name"
	// KindLimit: a documented limit was exceeded.
	KindLimit Kind = "limit"
	// KindConflict: a name is already taken, or declared twice differently.
	KindConflict Kind = "conflict"
	// KindNotFound: the named server does not exist.
	KindNotFound Kind = "not_found"
	// KindBusy: the agent or its associated work is not idle.
	KindBusy Kind = "busy"
	// KindValidation: a schema or a value failed validation.
	KindValidation Kind = "validation"
	// KindTransport: a connection could not be made or was lost.
	KindTransport Kind = "transport"
	// KindProtocol: the peer broke or does not speak the required protocol.
	KindProtocol Kind = "protocol"
	// KindSecurity: a URL, header, redirect or origin was refused.
	KindSecurity Kind = "security"
	// KindPermission: an approval or permission policy denied the action.
	KindPermission Kind = "permission"
	// KindTimeout: a deadline passed.
	KindTimeout Kind = "timeout"
	// KindCancelled: the caller cancelled.
	KindCancelled Kind = "cancelled"
	// KindAuth: authentication or authorization failed.
	KindAuth Kind = "auth"
	// KindClosed: the agent is closed.
	KindClosed Kind = "closed"
	// KindUnsupported: the implementation or adapter does not support the
	// operation.
	KindUnsupported Kind = "unsupported"
	// KindInternal: anything else.
	KindInternal Kind = "internal"
)

// Kinds lists every kind, in a stable order.
var Kinds = []Kind{
	KindConfig, KindName, KindLimit, KindConflict, KindNotFound, KindBusy,
	KindValidation, KindTransport, KindProtocol, KindSecurity, KindPermission,
	KindTimeout, KindCancelled, KindAuth, KindClosed, KindUnsupported,
	KindInternal,
}

// Error is a failure that crosses the contract.
type Error struct {
	// Kind classifies the failure.
	Kind Kind `json:"kind"`
	// Rule is the catalog rule the implementation cites, if it cites one.
	Rule string `json:"rule,omitempty"`
	// Message is the implementation's own message, for the report.
	Message string `json:"message"`
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Rule != "" {
		return fmt.Sprintf("%s error (%s): %s", e.Kind, e.Rule, e.Message)
	}
	return fmt.Sprintf("%s error: %s", e.Kind, e.Message)
}

// Errorf returns an [*Error] of the given kind.
func Errorf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// Failure is the adapter's own failure, as opposed to an error of the
// implementation it drives: the adapter process died, hung, broke the
// protocol or answered nonsense. It has no [Kind]; a scenario that meets
// one fails, whatever it expected.
type Failure struct {
	// Op is what the runner was doing, e.g. "agent/send".
	Op string
	// Reason says what went wrong.
	Reason string
}

// Error implements the error interface.
func (f *Failure) Error() string { return "adapter failure during " + f.Op + ": " + f.Reason }

// IsFailure reports whether err is or wraps a [*Failure].
func IsFailure(err error) bool {
	var f *Failure
	return errors.As(err, &f)
}

// KindOf returns the kind of err: its [*Error] kind, [KindInternal] for any
// other error, and "" for nil or an adapter [*Failure] (which matches no
// kind).
func KindOf(err error) Kind {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	if IsFailure(err) {
		return ""
	}
	return KindInternal
}
