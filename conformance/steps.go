package conformance

import (
	"strconv"

	"github.com/cucumber/godog"
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
func (w *world) registerSteps(sc *godog.ScenarioContext) {
	// Fake servers.
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with tools "([^"]*)"(?: served (\d+) per page)?$`, w.aServerWithTools)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with (\d+) tools?(?: described in (\d+) bytes each)?(?: served (\d+) per page)?( and a cursor that never ends)?$`, w.aServerWithNTools)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with a tool whose name has (\d+) characters$`, w.aServerWithLongToolName)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" that (exits on|never answers) "([^"]*)"$`, w.aServerThatMisbehaves)
	sc.Step(`^(stdio|HTTP) MCP servers "([a-z]+)(\d+)" to "([a-z]+)(\d+)" with tools "([^"]*)"$`, w.serversInRange)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" never answers$`, w.toolNeverAnswers)

	// Configuration and host.
	sc.Step(`^(the project configuration|the global configuration|the mcpServers option) declares "([^"]*)"(?: as "([^"]*)")?$`, w.declares)
	sc.Step(`^(the project configuration|the global configuration|the mcpServers option) declares "([a-z]+)(\d+)" to "([a-z]+)(\d+)"$`, w.declaresRange)
	sc.Step(`^the (project|global) configuration declares "([^"]*)" padded to (\d+) bytes$`, w.declaresPadded)
	sc.Step(`^the (project|global) configuration file contains:$`, w.fileContains)
	sc.Step(`^the mcpServers option contains:$`, w.optionContains)
	sc.Step(`^the file "([^"]*)" (?:now )?declares "([^"]*)"$`, w.fileDeclares)
	sc.Step(`^the file "([^"]*)" declares nothing$`, w.fileDeclaresNothing)
	sc.Step(`^the (project|global) configuration file is deleted$`, w.configDeleted)
	sc.Step(`^the lite-agent home is "([^"]*)"$`, w.liteAgentHome)
	sc.Step(`^the agent option strictMcpConfig is true$`, w.strictMCPConfig)
	sc.Step(`^the host environment has "([^"]*)" set to "([^"]*)"$`, w.hostEnv)
	sc.Step(`^the approval handler denies "([^"]*)"$`, w.approvalDenies)
	sc.Step(`^the model calls "([^"]*)" with (.+)$`, w.modelCalls)

	// Actions.
	sc.Step(`^the host creates the agent$`, w.createsAgent)
	sc.Step(`^the host creates the agent and sends "([^"]*)"$`, w.createsAgentAndSends)
	sc.Step(`^the host sends "([^"]*)"$`, w.sends)
	sc.Step(`^the host sends "([^"]*)" in the background$`, w.sendsInBackground)
	sc.Step(`^the host registers "([^"]*)"(?: as "([^"]*)")?(?: with timeoutMs (\d+))?$`, w.registers)
	sc.Step(`^the host unregisters "([^"]*)"$`, w.unregisters)
	sc.Step(`^the host closes the agent$`, w.closesAgent)
	sc.Step(`^the host lists the servers(?: (\d+) times)?$`, w.lists)
	sc.Step(`^"([^"]*)" is declared as "([^"]*)" through `+sourceAlt+`$`, w.declaredThrough)
	sc.Step(`^the entry (\{.*\}) is declared as "([^"]*)" through `+sourceAlt+`$`, w.entryDeclaredThrough)
	sc.Step(`^the process of "([^"]*)" is killed$`, w.processKilled)
	sc.Step(`^"([^"]*)" receives a call of the tool "([^"]*)"$`, w.receivesCall)

	// Outcomes and evidence.
	sc.Step(`^it (succeeds|fails with an? "([^"]*)" error)$`, func(verdict, kind string) error {
		if verdict != "succeeds" {
			verdict = "fails"
		}
		return w.outcomeIs(verdict, kind)
	})
	sc.Step(`^"([^"]*)" was connected$`, w.wasConnected)
	sc.Step(`^"([^"]*)" was never contacted$`, w.neverContacted)
	sc.Step(`^"([^"]*)" was started (\d+) times?$`, w.startedTimes)
	sc.Step(`^"([^"]*)" was connected (\d+) times?$`, w.connectedTimes)
	sc.Step(`^"([^"]*)" received its handshake (\d+) times?$`, w.handshakeTimes)
	sc.Step(`^"([^"]*)" received "([^"]*)" (at most )?(\d+) times?$`, w.receivedTimes)
	sc.Step(`^"([^"]*)" received "([^"]*)"$`, w.receivedMethod)
	sc.Step(`^"([^"]*)" received a call of the tool "([^"]*)"$`, w.receivedCall)
	sc.Step(`^"([^"]*)" received no call$`, w.receivedNoCall)
	sc.Step(`^every process of "([^"]*)" has exited$`, w.processesExited)
	sc.Step(`^the model was offered exactly the MCP tools "([^"]*)"$`, w.offeredExactly)
	sc.Step(`^the model was offered no MCP tools$`, w.offeredNone)
	sc.Step(`^the model was never offered an MCP tool$`, w.neverOffered)
	sc.Step(`^the model was never offered any "([^"]*)" tool$`, w.neverOfferedPrefix)
	sc.Step(`^the model's (first|last) request offered exactly the MCP tools "([^"]*)"$`, w.requestOffered)
	sc.Step(`^the model was offered (\d+) MCP tools$`, w.offeredCount)
	sc.Step(`^the approval handler was asked for "([^"]*)"(?: of "([^"]*)")?$`, w.approvalAsked)
	sc.Step(`^the approval handler was asked for "([^"]*)" (\d+) times?$`, w.approvalAskedTimes)
	sc.Step(`^the approval handler was never asked for "([^"]*)"$`, w.approvalNever)
	sc.Step(`^the approval handler was never asked anything$`, w.approvalNothing)
	sc.Step(`^list\(\) shows exactly the servers "([^"]*)"$`, w.listExactly)
	sc.Step(`^list\(\) shows (\d+) servers?$`, w.listCount)
	sc.Step(`^list\(\) shows "([^"]*)" with exactly the tools "([^"]*)"$`, w.listTools)
	sc.Step(`^list\(\) shows "([^"]*)" with (\d+) tools$`, w.listToolCount)
	sc.Step(`^list\(\) shows "([^"]*)" from the "([^"]*)" source with status "([^"]*)"$`, w.listSourceStatus)
	sc.Step(`^list\(\) is unchanged$`, w.listUnchanged)
	sc.Step(`^list\(\) contains neither "([^"]*)" nor "([^"]*)"$`, w.listHasNo)
	sc.Step(`^"([^"]*)" reached no MCP server$`, w.reachedNoServer)
	sc.Step(`^"([^"]*)" saw the literal text "([^"]*)" unless it was never contacted$`, w.sawLiteral)
	sc.Step(`^these happened in this order:$`, w.inOrder)
	sc.Step(`^"([^"]*)" is reported failed$`, w.isReportedFailed)
	sc.Step(`^no MCP server received anything during the listing$`, w.nothingDuringListing)
	sc.Step(`^the (project|global) configuration file is unchanged$`, w.fileUnchanged)
	sc.Step(`^no other file appeared under "([^"]*)"$`, w.noOtherFile)
	sc.Step(`^the background send ends within (\d+) seconds with a "([^"]*)" or "([^"]*)" error$`, w.backgroundEnds)
}
