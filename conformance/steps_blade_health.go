package conformance

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Steps of Blade's health statuses (BL-HC-04), read through the adapter's
// health accessor (capability health, operation agent/mcpHealth).

// registerBladeHealthSteps defines the steps whose methods are in this
// file.
func (w *world) registerBladeHealthSteps(sc stepDefiner) {
	sc.Step(`^the health of "([^"]*)" soon reads "(healthy|degraded|unhealthy|checking|disabled)"$`, w.healthReads)
}

// healthReader finds the health accessor of an agent, below the runner's
// own wrappers.
func healthReader(a adapter.Agent) (adapter.HealthReader, bool) {
	for {
		if h, ok := a.(adapter.HealthReader); ok {
			return h, true
		}
		switch x := a.(type) {
		case *observedAgent:
			a = x.Agent
		case *renamingAgent:
			a = x.Agent
		default:
			return nil, false
		}
	}
}

// describeHealth renders a health reading for Actual.
func describeHealth(hs []adapter.ServerHealth) string {
	var parts []string
	for _, h := range hs {
		parts = append(parts, fmt.Sprintf("%s: %s", safetext.Cap(h.Name, 40), safetext.Cap(h.Health, 40)))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// healthReads: Then the health of "p" soon reads "degraded" — reads the
// health of every server until that server's reads so, within the step's
// time.
func (w *world) healthReads(ctx context.Context, name, want string) error {
	if err := w.needAgent(); err != nil {
		return err
	}
	if err := w.need(adapter.OpMCPHealth); err != nil {
		return err
	}
	hr, ok := healthReader(w.agent)
	if !ok {
		return fmt.Errorf("the adapter declares %s but its agent has no health accessor", adapter.OpMCPHealth)
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	var last []adapter.ServerHealth
	err := poll(sctx, nil, func() (bool, error) {
		hs, err := hr.MCPHealth(sctx)
		if err != nil {
			return false, fmt.Errorf("reading the health failed: %w", err)
		}
		last = hs
		return slices.ContainsFunc(hs, func(h adapter.ServerHealth) bool { return h.Name == name && h.Health == want }), nil
	})
	expected := fmt.Sprintf("the health of %q reads %q", name, want)
	switch {
	case sctx.Err() != nil:
		return w.expect(false, expected, "not within %v; last read %s", w.run.opts.StepTimeout, describeHealth(last))
	case err != nil:
		return err
	}
	return w.expect(true, expected, "")
}
