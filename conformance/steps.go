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
	sc.Step(`^(a stdio|an HTTPS?) MCP server "([^"]*)" with tools "([^"]*)"(?: served (\d+) per page)?$`, w.aServerWithTools)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with (\d+) tools?(?: described in (\d+) bytes each)?(?: served (\d+) per page)?( and a cursor that never ends)?$`, w.aServerWithNTools)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with a tool whose name has (\d+) characters$`, w.aServerWithLongToolName)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" that (exits on|never answers) "([^"]*)"$`, w.aServerThatMisbehaves)
	sc.Step(`^(stdio|HTTP) MCP servers "([a-z]+)(\d+)" to "([a-z]+)(\d+)" with tools "([^"]*)"$`, w.serversInRange)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" never answers$`, w.toolNeverAnswers)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with tools "([^"]*)" speaking only protocol "([^"]*)"$`, w.speakingOnly)
	sc.Step(`^(an HTTP) MCP server "([^"]*)" with tools "([^"]*)" answering with JSON$`, w.answeringJSON)
	sc.Step(`^(an HTTP) MCP server "([^"]*)" with tools "([^"]*)" that only speaks the legacy HTTP\+SSE transport$`, w.legacyOnly)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with tools "([^"]*)" offering resources "([^"]*)" and prompts "([^"]*)"$`, w.offering)
	sc.Step(`^(a stdio) MCP server "([^"]*)" with tools "([^"]*)" that keeps running when its stdin closes$`, w.keepsRunning)
	sc.Step(`^(an HTTPS?) MCP server "([^"]*)" with tools "([^"]*)" that redirects "([^"]*)" with (\d+) to "([^"]*)"$`, w.redirects)
	sc.Step(`^(a stdio|an HTTP) MCP server "([^"]*)" with tools "([^"]*)" that answers "([^"]*)" after (\d+) ms$`, w.answersAfter)
	sc.Step(`^(a stdio) MCP server "([^"]*)" with tools "([^"]*)" that writes (\d+ [KM]iB) to stderr before answering "([^"]*)"$`, w.floodsStderr)
	sc.Step(`^(a stdio) MCP server "([^"]*)" with tools "([^"]*)" that writes "([^"]*)" to stderr$`, w.writesText)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" answers with (.+)$`, w.toolAnswersWith)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" answers after (\d+) ms$`, w.toolAnswersAfter)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" exits instead of answering$`, w.toolExits)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" writes (\d+ [KM]iB) to stderr before answering$`, w.toolWritesStderr)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" asks the client for "([^"]*)"$`, w.toolAsksClient)
	sc.Step(`^the tool "([^"]*)" of "([^"]*)" is annotated (\{.*\})$`, w.toolAnnotated)

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
	sc.Step(`^the agent's clock is under the host's control$`, w.manualClock)
	sc.Step(`^the agent starts stdio servers through the fake sandbox$`, w.throughSandbox)
	sc.Step(`^the agent option mcpTransports is "([^"]*)"$`, w.mcpTransports)
	sc.Step(`^the approval handler waits for "([^"]*)" until it is cancelled$`, w.approvalWaits)

	// Actions.
	sc.Step(`^the host creates the agent$`, w.createsAgent)
	sc.Step(`^the host creates the agent and sends "([^"]*)"$`, w.createsAgentAndSends)
	sc.Step(`^the host sends "([^"]*)"$`, w.sends)
	sc.Step(`^the host sends "([^"]*)" in the background$`, w.sendsInBackground)
	sc.Step(`^the host registers "([^"]*)" in the background$`, w.registersInBackground)
	sc.Step(`^the clock advances (\d+) (seconds?|milliseconds?)$`, w.clockAdvances)
	sc.Step(`^the host aborts the background operation$`, w.aborts)
	sc.Step(`^the host waits until the agent is idle$`, w.awaitsIdle)
	sc.Step(`^"([^"]*)" receives its handshake$`, w.receivesHandshake)
	sc.Step(`^the approval handler is asked for "([^"]*)"$`, w.approvalIsAsked)
	sc.Step(`^the host registers "([^"]*)"(?: as "([^"]*)")?(?: with timeoutMs (\d+))?$`, w.registers)
	sc.Step(`^the host unregisters "([^"]*)"$`, w.unregisters)
	sc.Step(`^the host closes the agent$`, w.closesAgent)
	sc.Step(`^the host lists the servers(?: (\d+) times)?$`, w.lists)
	sc.Step(`^"([^"]*)" is declared as "([^"]*)" through `+sourceAlt+`(?: at the host "([^"]*)")?$`, w.declaredThrough)
	sc.Step(`^the entry (\{.*\}) is declared as "([^"]*)" through `+sourceAlt+`$`, w.entryDeclaredThrough)
	sc.Step(`^the process of "([^"]*)" is killed$`, w.processKilled)
	sc.Step(`^"([^"]*)" receives a call of the tool "([^"]*)"$`, w.receivesCall)

	// Outcomes and evidence.
	sc.Step(`^it (succeeds|fails|fails with an? "([^"]*)" error)$`, func(verdict, kind string) error {
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
	sc.Step(`^the background operation ends(?: within (\d+) seconds?)?(?: with an? "([^"]*)"(?: or "([^"]*)")? error)?$`, w.bgEnds)
	sc.Step(`^the background operation is still running$`, w.bgStillRunning)
	sc.Step(`^that took less than (\d+) (seconds?|milliseconds?)$`, w.tookLessThan)
	sc.Step(`^the approval for "([^"]*)" was cancelled$`, w.approvalCancelled)
	sc.Step(`^every request "([^"]*)" received asked for protocol version "([^"]*)"$`, w.everyRequestVersion)
	sc.Step(`^every HTTP request "([^"]*)" received( after its handshake)? carried the header "([^"]*)"$`, w.everyHTTPHeader)
	sc.Step(`^"([^"]*)" received no HTTP "([^"]*)" request$`, w.noHTTPMethod)
	sc.Step(`^"([^"]*)" received none of "([^"]*)"$`, w.receivedNone)
	sc.Step(`^the handshakes "([^"]*)" received declared none of the client capabilities "([^"]*)"$`, w.noClientCapabilities)
	sc.Step(`^the client answered "([^"]*)"'s "([^"]*)" with an error$`, w.answeredWithError)
	sc.Step(`^"([^"]*)" wrote at most (\d+ [KM]iB) of its answer to "([^"]*)" before the client stopped reading$`, w.wroteAtMost)
	sc.Step(`^"([^"]*)" received (\d+) calls? of the tool "([^"]*)"$`, w.callsOfTool)
	sc.Step(`^(every|no) process of "([^"]*)" had "([^"]*)" in its environment$`, w.processEnv)
	sc.Step(`^"([^"]*)" was started (\d+) times with the same command line, directory and environment$`, w.startedSame)
	sc.Step(`^the first process of "([^"]*)" had exited when that returned$`, w.firstExitedBy)
	sc.Step(`^only the last process of "([^"]*)" received "([^"]*)"$`, w.onlyLastReceived)
	sc.Step(`^the sandbox ran the command line of "([^"]*)" (\d+) times$`, w.sandboxRan)
	sc.Step(`^every process of "([^"]*)" was started by the sandbox$`, w.startedBySandbox)
	sc.Step(`^"([^"]*)" appears in no log, event, list\(\) entry, model request or adapter output$`, w.appearsNowhere)
	sc.Step(`^the model received (a tool .+)$`, w.modelReceived)
	sc.Step(`^the model was asked (\d+) times?$`, w.modelAskedTimes)
	sc.Step(`^the approval handler was asked (\d+) times?$`, w.approvalAskedAny)
}
