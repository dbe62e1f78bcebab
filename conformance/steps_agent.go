package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"syscall"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// Steps that act on the agent through the adapter. Each sets the outcome
// that "it" refers to in the Then steps.

// registerAgentSteps defines the steps whose methods are in this file.
func (w *world) registerAgentSteps(sc stepDefiner) {
	sc.Step(`^the host creates the agent$`, w.createsAgent)
	sc.Step(`^the host creates the agent and sends "([^"]*)"$`, w.createsAgentAndSends)
	sc.Step(`^the host sends "([^"]*)"$`, w.sends)
	sc.Step(`^the host sends "([^"]*)" in the background$`, w.sendsInBackground)
	sc.Step(`^the host registers "([^"]*)"(?: as "([^"]*)")?(?: with timeoutMs (\d+))? in the background$`, w.registersInBackground)
	sc.Step(`^the host waits until the agent is idle, in the background$`, w.awaitsIdleInBackground)
	sc.Step(`^the wait until the agent is idle is still running$`, w.idleWaitRunning)
	sc.Step(`^the wait until the agent is idle ended after the latch "([^"]*)" was released$`, w.idleWaitEndedAfter)
	sc.Step(`^the host registers "([^"]*)"(?: as "([^"]*)")?(?: with timeoutMs (\d+))?$`, w.registers)
	sc.Step(`^the host unregisters "([^"]*)"$`, w.unregisters)
	sc.Step(`^the host unregisters "([^"]*)" in the background$`, w.unregistersInBackground)
	sc.Step(`^the host closes the agent$`, w.closesAgent)
	sc.Step(`^the host closes the agent in the background$`, w.closesAgentInBackground)
	sc.Step(`^the host lists the servers(?: (\d+) times)?$`, w.lists)
	sc.Step(`^"([^"]*)" is declared as "([^"]*)" through `+sourceAlt+`(?: at the host "([^"]*)")?$`, w.declaredThrough)
	sc.Step(`^the entry (\{.*\}) is declared as "([^"]*)" through `+sourceAlt+`$`, w.entryDeclaredThrough)
	sc.Step(`^the process of "([^"]*)" is killed$`, w.processKilled)
	sc.Step(`^"([^"]*)" receives a call of the tool "([^"]*)"$`, w.receivesCall)
	sc.Step(`^the host runs "([^"]*)" in the background$`, w.runsInBackground)
	sc.Step(`^the host creates the session$`, w.createsAgent)
}

// createsAgent: When the host creates the agent
func (w *world) createsAgent(ctx context.Context) error { return w.createAgent(ctx) }

// createsAgentAndSends: When the host creates the agent and sends "hello"
// — the send is skipped when creation fails, so the step fits scenarios
// where refusing at construction and ignoring are both conforming.
func (w *world) createsAgentAndSends(ctx context.Context, prompt string) error {
	if err := w.createAgent(ctx); err != nil {
		return err
	}
	if w.agent == nil {
		return nil
	}
	return w.sends(ctx, prompt)
}

// sends: When the host sends "hello"
func (w *world) sends(ctx context.Context, prompt string) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpSend); err != nil {
		return err
	}
	return w.send(ctx, w.agent, "", prompt)
}

// send sends a prompt to an agent (the root or the sub-agent) as the
// scenario's outcome, marking where its model requests begin.
func (w *world) send(ctx context.Context, g adapter.Agent, who, prompt string) error {
	w.sendMark = len(w.host.modelRequests())
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	return w.timed(fmt.Sprintf("%ssending %q", who, prompt), func() error {
		_, err := g.Send(sctx, prompt)
		return err
	})
}

// runsInBackground: When the host runs "go" in the background — a send
// through the run's event stream (agent.run()).
func (w *world) runsInBackground(ctx context.Context, prompt string) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpRun); err != nil {
		return err
	}
	return w.inBackground(ctx, fmt.Sprintf("running %q", prompt), func(ctx context.Context) error {
		_, err := w.agent.Run(ctx, prompt)
		return err
	})
}

// sendsInBackground: When the host sends "go" in the background
func (w *world) sendsInBackground(ctx context.Context, prompt string) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpSend); err != nil {
		return err
	}
	return w.inBackground(ctx, fmt.Sprintf("sending %q", prompt), func(ctx context.Context) error {
		_, err := w.agent.Send(ctx, prompt)
		return err
	})
}

// registersInBackground: When the host registers "p" [as "s"] [with timeoutMs 3000] in the background
func (w *world) registersInBackground(ctx context.Context, name, alias, timeoutMs string) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpRegister); err != nil {
		return err
	}
	if alias == "" {
		alias = name
	}
	e, err := w.entry(name)
	if err != nil {
		return err
	}
	e = withTimeoutMs(e, timeoutMs)
	if err := w.snapshotList(ctx); err != nil {
		return err
	}
	return w.inBackground(ctx, fmt.Sprintf("registering %q", alias), func(ctx context.Context) error {
		return w.agent.Register(ctx, alias, e)
	})
}

// inBackground starts an operation that runs while other steps go on; it
// lives as long as the scenario, bounded by three step timeouts, or until
// the host aborts it. One runs at a time.
func (w *world) inBackground(ctx context.Context, what string, op func(context.Context) error) error {
	if w.bg != nil {
		select {
		case <-w.bg.done: // it ended: the next one takes its place
		default:
			return fmt.Errorf("an operation already runs in the background")
		}
	}
	w.bg = w.startBackground(ctx, what, op)
	return nil
}

// startBackground starts a background operation.
func (w *world) startBackground(ctx context.Context, what string, op func(context.Context) error) *background {
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*w.run.opts.StepTimeout)
	bg := &background{what: what, done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(bg.done)
		defer cancel()
		bg.err = op(bctx)
		bg.ended = time.Now()
	}()
	return bg
}

// awaitsIdleInBackground: When the host waits until the agent is idle, in
// the background — beside the background operation already running.
func (w *world) awaitsIdleInBackground(ctx context.Context) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpAwaitIdle); err != nil {
		return err
	}
	if w.bg == nil || w.bg2 != nil {
		return fmt.Errorf("the wait until the agent is idle runs beside one background operation")
	}
	w.bg2 = w.startBackground(ctx, "waiting until the agent is idle", func(ctx context.Context) error {
		return w.agent.AwaitIdle(ctx)
	})
	return nil
}

// idleWaitRunning: Then the wait until the agent is idle is still running
func (w *world) idleWaitRunning() error {
	if w.bg2 == nil {
		return fmt.Errorf("the host does not wait until the agent is idle in the background")
	}
	t := time.NewTimer(stillRunningGrace)
	defer t.Stop()
	select {
	case <-w.bg2.done:
		return w.expect(false, "awaitIdle() waits while the run is active", "it returned (%v) while %s was running", errText(w.bg2.err), w.bg.what)
	case <-t.C:
		return w.expect(true, "", "")
	}
}

// idleWaitEndedAfter: Then the wait until the agent is idle ended after
// the latch "finish" was released — the run it waited for could not end
// before, so neither may the wait.
func (w *world) idleWaitEndedAfter(latch string) error {
	if w.bg2 == nil {
		return fmt.Errorf("the host does not wait until the agent is idle in the background")
	}
	select {
	case <-w.bg2.done:
	default:
		return w.expect(false, "awaitIdle() returned", "it is still running")
	}
	var released time.Time
	for _, r := range w.log.Records() {
		if r.Kind == record.KindRelease && r.Method == latch {
			released = r.Time
		}
	}
	if released.IsZero() {
		return fmt.Errorf("the latch %q was never released", latch)
	}
	return w.expect(w.bg2.err == nil && w.bg2.ended.After(released), fmt.Sprintf("awaitIdle() returned after the latch %q was released", latch),
		"it returned %v, %v before the release", errText(w.bg2.err), released.Sub(w.bg2.ended))
}

// registers: When the host registers "p" [as "alias"] [with timeoutMs N]
func (w *world) registers(ctx context.Context, name, alias, timeoutMs string) error {
	if alias == "" {
		alias = name
	}
	e, err := w.entry(name)
	if err != nil {
		return err
	}
	return w.registerWithTimeout(ctx, alias, e, timeoutMs)
}

// registerWithTimeout registers an entry, adding timeoutMs when set.
func (w *world) registerWithTimeout(ctx context.Context, alias string, e json.RawMessage, timeoutMs string) error {
	return w.register(ctx, alias, withTimeoutMs(e, timeoutMs))
}

// withTimeoutMs returns the entry e with timeoutMs set, or e itself when
// timeoutMs is empty.
func withTimeoutMs(e json.RawMessage, timeoutMs string) json.RawMessage {
	if timeoutMs == "" {
		return e
	}
	var m map[string]any
	_ = json.Unmarshal(e, &m)
	m["timeoutMs"] = json.Number(timeoutMs)
	e, _ = json.Marshal(m)
	return e
}

// register registers an entry.
func (w *world) register(ctx context.Context, alias string, entry json.RawMessage) error {
	return w.changeRegistry(ctx, adapter.OpRegister, fmt.Sprintf("registering %q", alias), func(ctx context.Context) error {
		return w.agent.Register(ctx, alias, entry)
	})
}

// unregisters: When the host unregisters "search"
func (w *world) unregisters(ctx context.Context, alias string) error {
	return w.changeRegistry(ctx, adapter.OpUnregister, fmt.Sprintf("unregistering %q", alias), func(ctx context.Context) error {
		return w.agent.Unregister(ctx, alias)
	})
}

// changeRegistry runs a registry change as the scenario's outcome,
// remembering list() before it for "list() is unchanged".
func (w *world) changeRegistry(ctx context.Context, op adapter.Operation, what string, change func(context.Context) error) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(op); err != nil {
		return err
	}
	if err := w.snapshotList(ctx); err != nil {
		return err
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	return w.timed(what, func() error { return change(sctx) })
}

// unregistersInBackground: When the host unregisters "p" in the background
func (w *world) unregistersInBackground(ctx context.Context, alias string) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpUnregister); err != nil {
		return err
	}
	if err := w.snapshotList(ctx); err != nil {
		return err
	}
	return w.inBackground(ctx, fmt.Sprintf("unregistering %q", alias), func(ctx context.Context) error {
		return w.agent.Unregister(ctx, alias)
	})
}

// closesAgentInBackground: When the host closes the agent in the background
func (w *world) closesAgentInBackground(ctx context.Context) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpClose); err != nil {
		return err
	}
	return w.inBackground(ctx, "closing the agent", func(ctx context.Context) error {
		return closeWithin(ctx, w.agent)
	})
}

// closesAgent: When the host closes the agent
func (w *world) closesAgent(ctx context.Context) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpClose); err != nil {
		return err
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	return w.settle("closing the agent", closeWithin(sctx, w.agent))
}

// lists: When the host lists the servers [N times]
func (w *world) lists(ctx context.Context, n string) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpList); err != nil {
		return err
	}
	times := max(atoi(n), 1)
	w.listMark = w.log.Len()
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	var err error
	for range times {
		if _, err = w.agent.List(sctx); err != nil {
			break
		}
	}
	return w.settle("listing the servers", err)
}

// declaredThrough: When "h" is declared as "alias" through register() [at the host "localhost"]
func (w *world) declaredThrough(ctx context.Context, name, alias, source, host string) error {
	e, err := w.entry(name)
	if err != nil {
		return err
	}
	if host != "" {
		if e, err = w.entryAt(name, host); err != nil {
			return err
		}
	}
	return w.declare(ctx, alias, e, source)
}

// entryDeclaredThrough: When the entry {...} is declared as "h" through ...
func (w *world) entryDeclaredThrough(ctx context.Context, entry, alias, source string) error {
	text, err := w.render(entry)
	if err != nil {
		return err
	}
	e, err := rawJSON(text)
	if err != nil {
		return err
	}
	return w.declare(ctx, alias, e, source)
}

// declare declares an entry through a source and makes it take effect: a
// configuration source is read by creating the agent and sending once;
// register() is called on a fresh agent. The outcome is the first failure.
func (w *world) declare(ctx context.Context, alias string, e json.RawMessage, source string) error {
	if source == srcRegister {
		if w.agent == nil {
			if err := w.createAgent(ctx); err != nil {
				return err
			}
			if err := w.needAgent(); err != nil {
				return err
			}
		}
		return w.register(ctx, alias, e)
	}
	if err := w.addEntry(source, alias, e); err != nil {
		return err
	}
	return w.createsAgentAndSends(ctx, "hello")
}

// processKilled: When the process of "p" is killed
func (w *world) processKilled(ctx context.Context, name string) error {
	pids := liveProcesses(w.log.Records(), name)
	if len(pids) == 0 {
		return fmt.Errorf("%q has no running process to kill", name)
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			return fmt.Errorf("killing %q (pid %d): %w", name, pid, err)
		}
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	_, err := w.log.Wait(sctx, func(rs []record.Record) bool { return len(liveProcesses(rs, name)) == 0 })
	return err
}

// receivesCall: When "p" receives a call of the tool "slow" — waits for it.
func (w *world) receivesCall(ctx context.Context, name, tool string) error {
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	_, err := w.log.Wait(sctx, func(rs []record.Record) bool { return len(toolCalls(rs, name, tool)) > 0 })
	if err != nil {
		return fmt.Errorf("%q never received a call of %q: %w", name, tool, err)
	}
	return nil
}

// kindIs reports whether err has the given kind.
func kindIs(err error, kind string) bool { return string(adapter.KindOf(err)) == kind }
