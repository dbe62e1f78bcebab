package adapter

// A Capability is an optional part of the contract. The documents leave
// these surfaces undefined (the vocabulary of list(), a way to set <home>,
// sub-agents, ...), so an adapter declares which ones it can drive and the
// scenarios that need the others are skipped, naming the capability.
//
// Scenarios ask for a capability with the tag @adapter:<capability>.
type Capability string

// The capabilities of the contract (rule catalog §5.3).
const (
	// CapHome: the adapter can set the lite-agent <home> directory
	// ([AgentOptions.Home]); without it only the default ~/.lite-agent is
	// exercised.
	CapHome Capability = "home"
	// CapListNormalize: [ServerStatus.Source] and [ServerStatus.Status] are
	// mapped to the contract's vocabulary.
	CapListNormalize Capability = "list-normalize"
	// CapSubagent: the adapter can create and drive sub-agents.
	CapSubagent Capability = "subagent"
	// CapSandbox: the adapter can install a sandbox command wrapper.
	CapSandbox Capability = "sandbox"
	// CapDryRun: the adapter can switch tool permissions to dry-run.
	CapDryRun Capability = "dry-run"
	// CapProjection: the adapter can parse a tool projection and measure it.
	CapProjection Capability = "projection"
	// CapContextRef: the adapter can parse a context({ref, offset}) reference.
	CapContextRef Capability = "context-ref"
	// CapSessionDump: the adapter can dump the persisted session.
	CapSessionDump Capability = "session-dump"
	// CapLogSinks: the adapter captures every log sink of the implementation.
	CapLogSinks Capability = "log-sinks"
	// CapConcurrencyPolicy: the adapter states how tool calls are scheduled.
	CapConcurrencyPolicy Capability = "concurrency-policy"
	// CapInputRequired: the adapter exposes input_required outcomes.
	CapInputRequired Capability = "input-required"
	// CapClock: the implementation's timers can be driven by the runner.
	CapClock Capability = "clock"
	// CapConfirmation: the adapter maps a Blade permission callback's
	// 'ask' to the implementation's confirmation, answered by
	// [Host.Approve] (BL-PERM-04; Blade's document names no confirmation
	// API).
	CapConfirmation Capability = "confirmation"
	// CapOAuthEndpoints: the adapter maps the provider name of a Blade
	// oauth block to the authorization server the runner names
	// ([AgentOptions.OAuthProviders], interpretation B-06), and its
	// session listens for the callback on its redirect URI's port 7777
	// while [Host.Authorize] is its browser step.
	CapOAuthEndpoints Capability = "oauth-endpoints"
	// CapOAuthRedirect: the adapter can set the redirect URI of Blade's
	// authorization code flow ([AgentOptions.OAuthRedirectURI]), which
	// the document does not say is configurable (BL-OAU-04).
	CapOAuthRedirect Capability = "oauth-redirect"
	// CapHealth: the adapter reads a Blade session's health status per
	// server ([HealthReader], [OpMCPHealth]); Blade's document names no
	// API for it (BL-HC-04, interpretation B-04).
	CapHealth Capability = "health"
	// CapReuse: one adapter process can serve several scenarios in turn
	// (spec/adapter-protocol.md §1: scenario/end closes every agent of a
	// scenario, scenario/begin gives the next its directory and
	// environment). A protocol capability: no scenario asks for it; the
	// runner uses it to start fewer processes.
	CapReuse Capability = "reuse"
)

// Capabilities lists every capability of the contract, in a stable order.
var Capabilities = []Capability{
	CapHome, CapListNormalize, CapSubagent, CapSandbox, CapDryRun, CapProjection,
	CapContextRef, CapSessionDump, CapLogSinks, CapConcurrencyPolicy, CapInputRequired, CapClock,
	CapConfirmation, CapHealth, CapOAuthEndpoints, CapOAuthRedirect, CapReuse,
}
