package conformance

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// Steps that drive a sub-agent of the root agent (LA-REG-14..20).

// registerSubAgentSteps defines the steps whose methods are in this file.
func (w *world) registerSubAgentSteps(sc stepDefiner) {
	sc.Step(`^the host creates a sub-agent(?: with allowedTools "([^"]*)")?(?: whose policy (allows|denies) "([^"]*)")?$`, w.createsSubAgent)
	sc.Step(`^the sub-agent (registers|unregisters) "([^"]*)"$`, w.subChanges)
	sc.Step(`^the sub-agent sends "([^"]*)"( in the background(?: too)?)?$`, w.subSends)
	sc.Step(`^both background operations end successfully$`, w.bothEnd)
	sc.Step(`^the host closes the sub-agent$`, w.closesSubAgent)
}

// subAgentState is the slice of the world this file's steps own: the sub-agent the sub-agent steps created.
type subAgentState struct {
	sub adapter.Agent // the sub-agent, once created
}

// createsSubAgent: When the host creates a sub-agent [with allowedTools "a"
// | whose policy allows|denies "x"]
func (w *world) createsSubAgent(ctx context.Context, allowed, verb, names string) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.needCapability(adapter.CapSubagent); err != nil {
		return err
	}
	if err := w.need(adapter.OpSubagent); err != nil {
		return err
	}
	if w.sub != nil {
		return fmt.Errorf("the scenario creates a second sub-agent")
	}
	var opts adapter.SubAgentOptions
	if allowed != "" {
		opts.AllowedTools = splitNames(allowed)
	}
	switch verb {
	case "allows":
		opts.Permission = &adapter.Policy{Allow: splitNames(names)}
	case "denies":
		opts.Permission = &adapter.Policy{Deny: splitNames(names)}
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	sub, err := w.agent.SubAgent(sctx, opts)
	if err != nil {
		return fmt.Errorf("creating the sub-agent: %w", err)
	}
	w.sub = sub
	return nil
}

// needSub fails the step when there is no sub-agent.
func (w *world) needSub() error {
	if w.sub == nil {
		return fmt.Errorf("there is no sub-agent: the scenario must create it first")
	}
	return nil
}

// subChanges: When the sub-agent registers|unregisters "q"
func (w *world) subChanges(ctx context.Context, verb, name string) error {
	if err := w.needSub(); err != nil {
		return err
	}
	if verb == "registers" {
		e, err := w.entry(name)
		if err != nil {
			return err
		}
		return w.changeRegistry(ctx, adapter.OpRegister, fmt.Sprintf("the sub-agent registering %q", name), func(ctx context.Context) error {
			return w.sub.Register(ctx, name, e)
		})
	}
	return w.changeRegistry(ctx, adapter.OpUnregister, fmt.Sprintf("the sub-agent unregistering %q", name), func(ctx context.Context) error {
		return w.sub.Unregister(ctx, name)
	})
}

// subSends: When the sub-agent sends "go" [in the background [too]] —
// "too" is a second background operation beside the first.
func (w *world) subSends(ctx context.Context, prompt, background string) error {
	if err := w.needSub(); err != nil {
		return err
	}
	if background == "" {
		return w.send(ctx, w.sub, "the sub-agent ", prompt)
	}
	if strings.HasSuffix(background, " too") {
		if w.bg == nil || w.bg2 != nil {
			return fmt.Errorf("\"in the background too\" needs exactly one operation already in the background")
		}
		w.bg2 = w.startBackground(ctx, fmt.Sprintf("the sub-agent sending %q", prompt), func(ctx context.Context) error {
			_, err := w.sub.Send(ctx, prompt)
			return err
		})
		return nil
	}
	return w.inBackground(ctx, fmt.Sprintf("the sub-agent sending %q", prompt), func(ctx context.Context) error {
		_, err := w.sub.Send(ctx, prompt)
		return err
	})
}

// closesSubAgent: When the host closes the sub-agent
func (w *world) closesSubAgent(ctx context.Context) error {
	if err := w.needSub(); err != nil {
		return err
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	return w.settle("closing the sub-agent", closeWithin(sctx, w.sub))
}

// bothEnd: Then both background operations end successfully
func (w *world) bothEnd() error {
	if w.bg == nil || w.bg2 == nil {
		return fmt.Errorf("two operations must run in the background")
	}
	for _, bg := range []*background{w.bg, w.bg2} {
		t := time.NewTimer(w.run.opts.StepTimeout)
		select {
		case <-bg.done:
		case <-t.C:
			t.Stop()
			return w.expect(false, bg.what+" ends", "it is still running")
		}
		t.Stop()
		if err := w.expect(bg.err == nil, bg.what+" succeeds", "%s", errText(bg.err)); err != nil {
			return err
		}
	}
	return nil
}
