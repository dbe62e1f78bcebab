package core

// Profile is what makes a [Host] one product or the other over the same
// core: when it connects and what it asks first, what it starts, which
// protocol it speaks, which names it admits, how it orders the tools it
// offers, and which rules its errors cite. [LiteAgent] and [Blade] are the
// two products' profiles.
type Profile struct {
	// Name names the product in messages.
	Name string
	// ConnectApproval asks for [ConnectCapability] before every connection
	// (LA-SEC-02). Blade has no such approval.
	ConnectApproval bool
	// Probe starts a stdio server once as a probe process before the
	// actual one, as the official client lite-agent ships with does
	// (LA-TRN-10).
	Probe bool
	// PinProtocol refuses a server that does not speak [ProtocolVersion],
	// with no fallback (LA-TRN-01, LA-TRN-02). Without it go-sdk
	// negotiates (interpretation X-18).
	PinProtocol bool
	// ConnectOnRun connects every pending or stale server before a run
	// asks the model anything (LA-CFG-12, LA-CAT-05). Without it, servers
	// connect when the host is created and through its runtime API, never
	// in a run (BL-CFG-06, BL-RT-06).
	ConnectOnRun bool
	// NormalizedNames also refuses names that are equal after Blade's
	// normalization: two server keys, or two tools of one server
	// (BL-NAME-03, interpretation B-02).
	NormalizedNames bool
	// ToolOrder is the order of the tools offered to the model.
	ToolOrder ToolOrder
	// Rules are the rule IDs its errors cite where the two products' rules
	// differ.
	Rules Rules
}

// ToolOrder is the order in which a run offers its tools to the model.
type ToolOrder int

const (
	// OrderDeclared offers the MCP tools in the order their servers were
	// declared and discovered them, then the host's tools, then the
	// context tool: lite-agent specifies no order (interpretation X-12).
	OrderDeclared ToolOrder = iota
	// OrderGrouped offers the built-in and application tools first, then
	// the MCP tools, each group sorted by name in UTF-16 code-unit order
	// (BL-ORD-01..03, interpretation B-14).
	OrderGrouped
)

// Rules are the rule IDs of the failures whose rule differs between the
// products. Where a product states no rule of its own, the core applies
// lite-agent's and cites it.
type Rules struct {
	// Collision: a tool's full name is taken by another server.
	Collision string
	// Duplicate: a server offers one tool name twice.
	Duplicate string
	// PolicyDenied: the permission policy, or Blade's permission
	// callback, denied a call.
	PolicyDenied string
	// ApprovalDenied: the approval handler answered a call with anything
	// but allow.
	ApprovalDenied string
	// NoApprover: a call needs approval and the host has no handler.
	NoApprover string
	// ApproverFailed: the approval handler failed.
	ApproverFailed string
	// Transport, by transport ("stdio", "sse", "http"): the server could
	// not be started or talked to.
	Transport map[string]string
}

// transport returns the rule of a failure to talk to a server over t.
func (r Rules) transport(t string) string { return r.Transport[t] }

// LiteAgent is the profile of lite-agent's MCP host layer.
func LiteAgent() Profile {
	return Profile{
		Name:            "lite-agent",
		ConnectApproval: true,
		Probe:           true,
		PinProtocol:     true,
		ConnectOnRun:    true,
		ToolOrder:       OrderDeclared,
		Rules: Rules{
			Collision:      "LA-NAME-09",
			Duplicate:      "LA-NAME-08",
			PolicyDenied:   "LA-SEC-03",
			ApprovalDenied: "LA-SEC-03",
			NoApprover:     "LA-SEC-06",
			ApproverFailed: "LA-SEC-07",
			Transport:      map[string]string{TransportStdio: "LA-TRN-03", TransportHTTP: "LA-TRN-03"},
		},
	}
}

// Blade is the profile of the Blade Agent SDK's sessions. Its errors cite
// Blade's rules: collisions and duplicates BL-NAME-03, denials BL-PERM-03
// (the permission callback) and BL-PERM-04 (the confirmation), transports
// BL-TRN-01, -03 and -05.
func Blade() Profile {
	return Profile{
		Name:            "Blade",
		NormalizedNames: true,
		ToolOrder:       OrderGrouped,
		Rules: Rules{
			Collision:      "BL-NAME-03",
			Duplicate:      "BL-NAME-03",
			PolicyDenied:   "BL-PERM-03",
			ApprovalDenied: "BL-PERM-04",
			NoApprover:     "BL-PERM-04",
			ApproverFailed: "BL-PERM-04",
			Transport:      map[string]string{TransportStdio: "BL-TRN-01", TransportSSE: "BL-TRN-03", TransportHTTP: "BL-TRN-05", TransportInProcess: "BL-INP-02"},
		},
	}
}
