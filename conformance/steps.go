package conformance

import (
	"strconv"
)

// Source alternatives in step patterns.
const sourceAlt = `(the project configuration|the global configuration|the mcpServers option|register\(\))`

// atoi converts an optional number capture; "" is 0.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// registerSteps defines the suite's step vocabulary on one scenario's
// world. Every step is defined once, here; the methods live in steps_*.go.
func (w *world) registerSteps(sc stepDefiner) {
	w.registerServerSteps(sc)
	w.registerWireSteps(sc)
	w.registerCallSteps(sc)
	w.registerConfigSteps(sc)
	w.registerCharsetSteps(sc)
	w.registerHostSteps(sc)
	w.registerAgentSteps(sc)
	w.registerSubAgentSteps(sc)
	w.registerTimingSteps(sc)
	w.registerScheduleSteps(sc)
	w.registerModelSteps(sc)
	w.registerProjectionSteps(sc)
	w.registerArchiveSteps(sc)
	w.registerEventSteps(sc)
	w.registerRequestSteps(sc)
	w.registerProcessSteps(sc)
	w.registerOutcomeSteps(sc)
	w.registerOAuthSteps(sc)
	w.registerOAuthWorldSteps(sc)
	w.registerOAuthShapeSteps(sc)
	w.registerOpenerSteps(sc)
	// Fake servers.

	// Configuration and host.

	// OAuth (steps_oauth.go).

	// OAuth as the official client does it (steps_oauthshape.go).

	// Actions.

	// Outcomes and evidence.

	// The Blade profile (steps_blade.go).
	sc.Step(`^the mcpServers option declares "([^"]*)" with (\{.*\})$`, w.declaresWith)
	sc.Step(`^the mcpServers option declares a stdio server "([^"]*)" running "([^"]*)"$`, w.declaresCommand)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with the tool "([^"]*)" described as "([^"]*)"$`, w.toolDescribed)
	sc.Step(`^the host calls (mcpConnect|mcpDisconnect|mcpReconnect)\("([^"]*)"\)( in the background)?$`, w.runtimeCall)
	sc.Step(`^mcpServerStatus\(\) shows exactly the servers "([^"]*)"$`, w.statusServers)
	sc.Step(`^mcpServerStatus\(\) shows "([^"]*)" as "(connected|disconnected|connecting|error)"(?: with (\d+) tools?)?$`, w.statusIs)
	sc.Step(`^mcpServerStatus\(\) shows "([^"]*)" as "connecting" while the background operation runs$`, w.statusConnecting)
	sc.Step(`^every mcpServerStatus\(\) entry seen had Blade's shape$`, w.statusShapes)
	sc.Step(`^the connectedAt of "([^"]*)" is later than before$`, w.connectedLater)
	sc.Step(`^mcpListTools\(\) lists exactly the tools of "([^"]*)"$`, w.listsToolsOf)
	sc.Step(`^mcpListTools\(\) lists "([^"]*)" of "([^"]*)" described as "([^"]*)"$`, w.listsToolDescribed)
	sc.Step(`^of "([^"]*)" and "([^"]*)" only "([^"]*)" failed, for a name collision$`, w.collidedStep)
	sc.Step(`^the host's permission callback answers "(allow|ask|deny)"(?: for "([^"]*)")?$`, w.permissionAnswers)
	sc.Step(`^the permission callback was asked about "([^"]*)"$`, w.permissionAsked)
	sc.Step(`^"([^"]*)" soon received "([^"]*)" (\d+) times?$`, w.soonReceivedTimes)
	sc.Step(`^"([^"]*)" received no "([^"]*)" within (\d+) milliseconds$`, w.receivedNoneWithin)
	sc.Step(`^mcpServerStatus\(\) soon shows "([^"]*)" no longer connected$`, w.statusLeavesConnected)
	sc.Step(`^every model request offered (the non-MCP tools before the MCP tools|the non-MCP tools in code-unit order|the MCP tools in code-unit order)$`, w.toolOrder)
	sc.Step(`^every model request offered "([^"]*)" exactly once$`, w.offeredOnce)
	sc.Step(`^every model request offered the (host's|MCP) tools in exactly this order:$`, w.exactOrder)
}
