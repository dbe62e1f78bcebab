package conformance

import (
	"context"
	"fmt"
	"slices"

	"github.com/cucumber/godog"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// Then steps: every one of them checks something through w.expect, so a
// scenario can never pass on steps that assert nothing.

// registerOutcomeSteps defines the steps whose methods are in this file.
func (w *world) registerOutcomeSteps(sc stepDefiner) {
	sc.Step(`^it (succeeds|fails|fails with an? "([^"]*)" error)$`, w.itIs)
	sc.Step(`^the agent either refused the configuration with an? "([^"]*)" error or connected "([^"]*)"$`, w.refusedOrConnected)
	sc.Step(`^these happened in this order:$`, w.inOrder)
}

// itIs: Then it succeeds | Then it fails | Then it fails with a "name" error
func (w *world) itIs(verdict, kind string) error {
	if verdict != "succeeds" {
		verdict = "fails"
	}
	return w.outcomeIs(verdict, kind)
}

// outcomeIs: Then it succeeds | Then it fails with a "name" error
func (w *world) outcomeIs(verdict, kind string) error {
	if w.last == nil {
		return fmt.Errorf("no action happened yet: \"it\" refers to the last When step")
	}
	if verdict == "succeeds" {
		return w.expect(w.last.err == nil, w.last.what+" succeeds", "%s failed: %v", w.last.what, w.last.err)
	}
	if kind == "" {
		return w.expect(w.last.err != nil, w.last.what+" fails", "%s succeeded", w.last.what)
	}
	if w.last.err == nil {
		return w.expect(false, fmt.Sprintf("%s fails with a %s error", w.last.what, kind), "%s succeeded", w.last.what)
	}
	return w.expect(kindIs(w.last.err, kind), fmt.Sprintf("%s fails with a %s error", w.last.what, kind), "%v", w.last.err)
}

// list calls the agent's list() for a Then step.
func (w *world) list(ctx context.Context) ([]adapter.ServerStatus, error) {
	if err := w.needAgent(); err != nil {
		return nil, err
	}
	if err := w.need(adapter.OpList); err != nil {
		return nil, err
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	l, err := w.agent.List(sctx)
	if err != nil {
		return nil, fmt.Errorf("list() failed: %w", err)
	}
	return l, nil
}

func names(l []adapter.ServerStatus) []string {
	out := []string{}
	for _, s := range l {
		out = append(out, s.Name)
	}
	return out
}

// entryOf finds a list() entry.
func entryOf(l []adapter.ServerStatus, name string) (adapter.ServerStatus, bool) {
	i := slices.IndexFunc(l, func(s adapter.ServerStatus) bool { return s.Name == name })
	if i < 0 {
		return adapter.ServerStatus{}, false
	}
	return l[i], true
}

// refusedOrConnected: Then the agent either refused the configuration with
// a "config" error or connected "p, h" — for rules that allow either
// (LA-CFG-08: literals passed verbatim, or the configuration refused).
func (w *world) refusedOrConnected(kind, servers string) error {
	if w.last != nil && w.last.err != nil {
		return w.expect(adapter.KindOf(w.last.err) == adapter.Kind(kind), fmt.Sprintf("%s refused with a %s error", w.last.what, kind), "%s", errText(w.last.err))
	}
	rs := w.log.Records()
	for _, name := range splitNames(servers) {
		if err := w.expect(connections(rs, name) > 0, fmt.Sprintf("the configuration refused, or %q connected", name), "neither: %q received %s", name, summarize(contactsOf(rs, name))); err != nil {
			return err
		}
	}
	return nil
}

// inOrder: Then these happened in this order: | ... |
func (w *world) inOrder(table *godog.Table) error {
	rs := w.log.Records()
	prev, prevText := int64(0), ""
	for _, row := range table.Rows {
		text := row.Cells[0].Value
		seq, err := eventSeq(rs, text)
		if err != nil {
			return err
		}
		if seq == 0 {
			return w.expect(false, text, "it never happened; the log holds %s", summarize(rs))
		}
		if err := w.expect(seq > prev, fmt.Sprintf("%q after %q", text, prevText), "it happened first (#%d before #%d)", seq, prev); err != nil {
			return err
		}
		prev, prevText = seq, text
	}
	return nil
}
