package conformance

import (
	"context"
	"fmt"

	"github.com/mcpconform/mcpconform/fakes/record"
)

// Steps about the approval handler: how the host answers it, and what it
// was asked (LA-SEC).

// registerApprovalSteps defines the steps whose methods are in this file.
func (w *world) registerApprovalSteps(sc stepDefiner) {
	sc.Step(`^the approval handler was asked for "([^"]*)"(?: of "([^"]*)")?$`, w.approvalAsked)
	sc.Step(`^the approval handler was asked for "([^"]*)" (\d+) times?$`, w.approvalAskedTimes)
	sc.Step(`^the approval handler was never asked for "([^"]*)"$`, w.approvalNever)
	sc.Step(`^the approval handler was never asked anything$`, w.approvalNothing)
	sc.Step(`^the approval handler denies "([^"]*)"$`, w.approvalDenies)
	sc.Step(`^the approval handler allows everything$`, w.approvalAllowsAll)
	sc.Step(`^the approval handler fails for "([^"]*)"$`, w.approvalFails)
	sc.Step(`^the host has no approval handler$`, w.noApprovalHandler)
	sc.Step(`^the approval handler waits for "([^"]*)" until it is cancelled$`, w.approvalWaits)
	sc.Step(`^the approval handler is asked for "([^"]*)"$`, w.approvalIsAsked)
	sc.Step(`^the approval for "([^"]*)" was cancelled$`, w.approvalCancelled)
	sc.Step(`^the approval handler was asked (\d+) times?$`, w.approvalAskedAny)
}

// approvalAsked: Then the approval handler was asked for "mcp_connect" [of "p"]
func (w *world) approvalAsked(name, server string) error {
	var got []string
	for _, a := range w.host.approvalRequests() {
		got = append(got, a.Name+"/"+a.Server)
		if a.Name == name && (server == "" || a.Server == server) {
			return w.expect(true, "", "")
		}
	}
	return w.expect(false, fmt.Sprintf("the approval handler was asked for %s of %q", name, server), "it was asked for %v", got)
}

// approvalAskedTimes: Then the approval handler was asked for "mcp_connect" 1 time
func (w *world) approvalAskedTimes(name string, n int) error {
	count := 0
	for _, a := range w.host.approvalRequests() {
		if a.Name == name {
			count++
		}
	}
	return w.expect(count == n, fmt.Sprintf("the approval handler was asked for %s %d time(s)", name, n), "%d time(s)", count)
}

// approvalNever: Then the approval handler was never asked for "mcp_connect"
func (w *world) approvalNever(name string) error { return w.approvalAskedTimes(name, 0) }

// approvalNothing: Then the approval handler was never asked anything
func (w *world) approvalNothing() error {
	got := w.host.approvalRequests()
	return w.expect(len(got) == 0, "the approval handler was never asked anything", "it was asked %d time(s): %+v", len(got), got)
}

// approvalDenies: Given the approval handler denies "mcp_connect"
func (w *world) approvalDenies(name string) error {
	w.host.deny(name)
	return nil
}

// approvalAllowsAll: Given the approval handler allows everything
func (w *world) approvalAllowsAll() error {
	w.host.mu.Lock()
	defer w.host.mu.Unlock()
	w.host.denied, w.host.hang, w.host.failing = nil, nil, nil
	return nil
}

// approvalFails: Given the approval handler fails for "mcp__p__a"
func (w *world) approvalFails(name string) error {
	add(w.host, &w.host.failing, name)
	return nil
}

// noApprovalHandler: Given the host has no approval handler
func (w *world) noApprovalHandler() error {
	if w.agent != nil {
		return fmt.Errorf("the approval handler must be taken away before the agent is created")
	}
	w.opts.Approval = false
	return nil
}

// approvalWaits: Given the approval handler waits for "X" until it is cancelled
func (w *world) approvalWaits(name string) error {
	add(w.host, &w.host.hang, name)
	return nil
}

// approvalIsAsked: When the approval handler is asked for "X" — waits for it.
func (w *world) approvalIsAsked(ctx context.Context, name string) error {
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	_, err := w.log.Wait(sctx, func(rs []record.Record) bool { return hostRecords(rs, "approval", name) > 0 })
	if err != nil {
		return fmt.Errorf("the approval handler was never asked for %q: %w", name, err)
	}
	return nil
}

// approvalCancelled: Then the approval for "X" was cancelled
func (w *world) approvalCancelled(ctx context.Context, name string) error {
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	_, err := w.log.Wait(sctx, func(rs []record.Record) bool { return hostRecords(rs, "approval-cancelled", name) > 0 })
	return w.expect(err == nil, fmt.Sprintf("the signal of the approval for %s was aborted", name), "it was not: the approval is still waiting")
}

// approvalAskedAny: Then the approval handler was asked 2 times
func (w *world) approvalAskedAny(n int) error {
	got := w.host.approvalRequests()
	var names []string
	for _, a := range got {
		names = append(names, a.Name)
	}
	return w.expect(len(got) == n, fmt.Sprintf("the approval handler was asked %d time(s)", n), "%d time(s): %v", len(got), names)
}
