package conformance

import (
	"context"
	"fmt"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// Steps that drive a sub-agent of the root agent (LA-REG-14..20).

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

// subSends: When the sub-agent sends "go" [in the background]
func (w *world) subSends(ctx context.Context, prompt, background string) error {
	if err := w.needSub(); err != nil {
		return err
	}
	if background == "" {
		return w.send(ctx, w.sub, "the sub-agent ", prompt)
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
