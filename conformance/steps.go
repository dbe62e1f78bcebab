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
// world. Each domain registers its own steps in the file that holds their
// methods (register<Domain>Steps); no two definitions match the same step
// and every one is used ([TestVocabulary]), so their order does not matter.
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
	w.registerBladeSteps(sc)
	w.registerBladeInProcessSteps(sc)
	w.registerBladeNameSteps(sc)
	w.registerBladeHealthSteps(sc)
	w.registerOAuthCheckSteps(sc)
	w.registerApprovalSteps(sc)
	w.registerRegistrySteps(sc)
}
