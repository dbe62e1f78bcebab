package adapter

import (
	"context"
	"fmt"
	"strings"
)

// What an adapter that runs in processes of its own (the adapter protocol)
// tells the runner beyond the operations: the order in which callbacks
// arrived, what it left behind, and failures that happened while no
// operation was waiting.

// Callback names a [Host] method, for [ArrivalRecorder].
type Callback string

// The host callbacks.
const (
	CallModel      Callback = "model"      // [Host.Model], with a [ModelRequest]
	CallApprove    Callback = "approve"    // [Host.Approve], with an [ApprovalRequest]
	CallEvent      Callback = "event"      // [Host.Event], with an [Event]
	CallHook       Callback = "hook"       // [Host.Hook], with a [HookEvent]
	CallValidate   Callback = "validate"   // [Host.Validate], with a [ValidateRequest]
	CallExecute    Callback = "execute"    // [Host.Execute], with an [ExecuteRequest]
	CallAuthorize  Callback = "authorize"  // [Host.Authorize], with an [AuthorizeRequest]
	CallProvider   Callback = "provider"   // [Host.Provider], with a [ProviderCall]
	CallPermission Callback = "permission" // [Host.Permission], with a [PermissionRequest]
	// CallInProcessTool is [InProcessHost.InProcessTool], with an
	// [InProcessToolRequest].
	CallInProcessTool Callback = "inProcessTool"
)

// ArrivalRecorder is implemented by hosts that record their callbacks in
// the order the implementation made them. An adapter that receives
// callbacks in that order but serves them concurrently (an adapter
// process's requests, one goroutine each) calls Arrived for every
// callback, in the order they arrived and before serving it, with the
// request the [Host] method will get; it then passes the context Arrived
// returned to that method. An adapter that calls the host as the
// implementation does, in its goroutines, never calls it.
type ArrivalRecorder interface {
	Arrived(ctx context.Context, cb Callback, request any) context.Context
}

// Leftover is a process an adapter left running when it ended.
type Leftover struct {
	PID  int
	Argv []string
}

// String describes a leftover for a scenario's evidence.
func (l Leftover) String() string {
	return fmt.Sprintf("process %d, left running by the adapter and killed: %s", l.PID, strings.Join(l.Argv, " "))
}

// LeftoverReporter is implemented by adapters that run as processes of
// their own. After [Adapter.Close], Leftovers names every process that was
// still running once the adapter process had exited, in its process group
// or holding its stdout or stderr open; Close killed them. The runner
// fails the scenario with them: no process outlives a scenario.
type LeftoverReporter interface {
	Leftovers() []Leftover
}

// Faulter is implemented by adapters whose own failure can happen while no
// operation waits for an answer: an adapter process that breaks the
// protocol or floods the runner after the last step. Fault returns that
// [*Failure], or nil; the scenario fails with it, whatever its steps said.
type Faulter interface {
	Fault() error
}

// Reuser is implemented by adapters that may serve a scenario from a
// process that served others before it ([CapReuse]). Reused reports
// whether this one's did; the runner runs a scenario that failed in such
// a process again in a fresh one ([Env.Fresh]), so that no verdict
// depends on what ran before it.
type Reuser interface {
	Reused() bool
}
