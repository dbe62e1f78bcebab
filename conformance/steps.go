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
	// Fake servers.

	// Configuration and host.

	// OAuth (steps_oauth.go).
	sc.Step(`^an authorization server "([^"]*)"(?: with the client "([^"]*)" and the secret "([^"]*)")?$`, w.anAuthServer)
	sc.Step(`^an authorization server "([^"]*)" co-hosted with the MCP servers$`, w.coHostedAuthServer)
	sc.Step(`^the authorization server "([^"]*)" (.+)$`, w.authServerFault)
	sc.Step(`^an HTTP MCP server "([^"]*)" with tools "([^"]*)" protected by "([^"]*)"$`, w.protectedServer)
	sc.Step(`^the host binds "([^"]*)" to OAuth with the provider "([^"]*)" of "([^"]*)"$`, w.bindsOAuth)
	sc.Step(`^the host binds "([^"]*)" to the client credentials "([^"]*)" and "([^"]*)" of "([^"]*)"$`, w.bindsClientCredentials)
	sc.Step(`^the binding of "([^"]*)" (.+)$`, w.bindingSetting)
	sc.Step(`^the provider "([^"]*)" holds valid tokens of "([^"]*)" for "([^"]*)"$`, w.holdsTokens)
	sc.Step(`^the provider "([^"]*)" is an official provider class with state\(\) "([^"]*)"$`, w.officialProvider)
	sc.Step(`^the provider "([^"]*)" forgets its tokens$`, w.forgetsTokens)
	sc.Step(`^the host's authorize\(\) (completes the login|waits until it is cancelled|fails|ignores its signal and returns the callback after it was aborted|completes the login but keeps the callback until it is cancelled|checks that nothing listens on the redirect URL's port|returns the first login's callback from now on|returns the callback with its \w+ changed)$`, w.authorizeDoes)
	sc.Step(`^the protected server "([^"]*)" answers (401|403 insufficient_scope) to the next (\d+) requests?(?: with a valid token)?$`, w.refuses)

	// OAuth as the official client does it (steps_oauthshape.go).
	sc.Step(`^the protected server "([^"]*)" (challenges .+|lists the scopes .+|serves its metadata .+|names the resource .+)$`, w.resourceShape)
	sc.Step(`^the protected server "([^"]*)" answers (401|403 insufficient_scope) to the next (\d+) "([^"]*)" requests?$`, w.refusesMethod)
	sc.Step(`^the protected server "([^"]*)" moves to the authorization server "([^"]*)"$`, w.movesTo)
	sc.Step(`^the provider "([^"]*)" describes its client as (\{.*\})$`, w.providerDescribes)
	sc.Step(`^the provider "([^"]*)" asks for the scope "([^"]*)"$`, w.providerAsksScope)
	sc.Step(`^the provider "([^"]*)" redirects to "([^"]*)"$`, w.providerRedirects)
	sc.Step(`^the provider "([^"]*)" has the client metadata URL "([^"]*)"$`, w.providerMetadataURL)
	sc.Step(`^the provider "([^"]*)" holds the client "([^"]*)" with the secret "([^"]*)" of "([^"]*)"$`, w.providerHoldsClient)
	sc.Step(`^the resource metadata of "([^"]*)" was looked for at "([^"]*)", in this order$`, w.lookedForResourceMetadata)
	sc.Step(`^the metadata of "([^"]*)" was looked for at "([^"]*)", in this order$`, w.lookedForServerMetadata)
	sc.Step(`^the registration "([^"]*)" received was the client metadata of the provider "([^"]*)" with (\{.*\})$`, w.registrationWas)
	sc.Step(`^the authorization URL's "([^"]*)" was (not )?"([^"]*)"$`, w.authURLParam)
	sc.Step(`^"([^"]*)" received the "([^"]*)" grants? authenticated with "([^"]*)"$`, w.grantAuthenticated)
	sc.Step(`^every "([^"]*)" grant "([^"]*)" received carried the "([^"]*)" "([^"]*)"$`, w.grantCarried)
	sc.Step(`^every authorization and token request for "([^"]*)" named the resource "(.*)"$`, w.namedResourceEvery)
	sc.Step(`^no request "([^"]*)" received carried the client or the refresh token the provider "([^"]*)" (held|holds)$`, w.noHeldSecret)
	sc.Step(`^the provider "([^"]*)" holds a client of "([^"]*)"$`, w.providerHoldsClientOf)

	// Actions.
	sc.Step(`^"([^"]*)" refused (\d+) calls? with 401$`, w.refusedCalls)
	sc.Step(`^the protected server "([^"]*)" stops refusing valid tokens$`, w.stopsRefusing)
	sc.Step(`^the access token the provider "([^"]*)" holds expires$`, w.tokenExpires)
	sc.Step(`^the host's authorize\(\) is called$`, w.authorizeIsCalled)
	sc.Step(`^the signal of authorize\(\) is aborted$`, w.signalIsAborted)
	sc.Step(`^the host's authorize\(\) holds the callback of the first login$`, w.authorizeHolds)
	sc.Step(`^the host creates the agent again$`, w.createsAgentAgain)
	sc.Step(`^the host creates the agent and registers "([^"]*)"$`, w.createsAgentAndRegisters)

	// Outcomes and evidence.
	sc.Step(`^no browser or link opener was started$`, w.noOpener)
	sc.Step(`^the signal of authorize\(\) was aborted$`, w.signalWasAborted)
	sc.Step(`^the host's authorize\(\) was (?:called (\d+) times?|never called)$`, w.authorizeCalled)
	sc.Step(`^the host's authorize\(\) returned its callback$`, w.authorizeReturned)
	sc.Step(`^the authorization URL went to the authorization endpoint of "([^"]*)" with response_type "code", an S256 code_challenge, a state and the provider's redirect URI$`, w.authURLShape)
	sc.Step(`^the authorization URL's state was not "([^"]*)"$`, w.authURLStateNot)
	sc.Step(`^the two authorization URLs had different (states and code challenges|states of at least 22 base64url characters)$`, w.twoLogins)
	sc.Step(`^the provider "([^"]*)" was (never )?asked to "([^"]*)"(?: (\d+) times?)?$`, w.providerAsked)
	sc.Step(`^the provider "([^"]*)" still holds its tokens$`, w.providerHolds)
	sc.Step(`^"([^"]*)" received (no|\d+|at least \d+) "([^"]*)" requests?$`, w.asReceived)
	sc.Step(`^"([^"]*)" received (no|\d+) "([^"]*)" grants?( with a code_verifier)?$`, w.asReceivedGrants)
	sc.Step(`^"([^"]*)" received nothing$`, w.receivedNothing)
	sc.Step(`^no request reached the other origin of "([^"]*)"$`, w.otherOriginUntouched)
	sc.Step(`^no request "([^"]*)" received carried the header "([^"]*)"$`, w.noRequestHeader)
	sc.Step(`^no request "([^"]*)" received carried "([^"]*)"( but at its token endpoint)?$`, w.noRequestCarried)
	sc.Step(`^"([^"]*)" never received an Authorization header$`, w.neverAuthorization)
	sc.Step(`^every MCP request "([^"]*)" received after the login carried a Bearer token$`, w.everyBearer)
	sc.Step(`^every MCP request "([^"]*)" received carried the provider's access token$`, w.everyMinted)
	sc.Step(`^"([^"]*)" received a request for its protected resource metadata$`, w.metadataFetched)
	sc.Step(`^the authorization request and the code exchange named the resource "([^"]*)"$`, w.namedResource)
	sc.Step(`^nothing listened on the redirect URL's port during the login$`, w.nothingListened)
	sc.Step(`^no secret of the login appears in list\(\), an approval request or an event$`, w.noSecretShown)
	sc.Step(`^"([^"]*)" received the refused call of the tool "([^"]*)" exactly once more$`, w.refusedOnceMore)
	sc.Step(`^"([^"]*)" answered (\d+) calls of the tool "([^"]*)"$`, w.answeredCalls)

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
