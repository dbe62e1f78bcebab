package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cucumber/godog"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/record"
)

// Then steps about the registry as list() shows it: its servers, their
// tools, sources and statuses, and what a listing touched.

// registerRegistrySteps defines the steps whose methods are in this file.
func (w *world) registerRegistrySteps(sc stepDefiner) {
	sc.Step(`^list\(\) shows exactly the servers "([^"]*)"$`, w.listExactly)
	sc.Step(`^list\(\) shows (\d+) servers?$`, w.listCount)
	sc.Step(`^list\(\) shows "([^"]*)" with exactly the tools "([^"]*)"$`, w.listTools)
	sc.Step(`^list\(\) shows "([^"]*)" with (\d+) tools$`, w.listToolCount)
	sc.Step(`^list\(\) shows "([^"]*)" from the "([^"]*)" source with status "([^"]*)"$`, w.listSourceStatus)
	sc.Step(`^list\(\) is unchanged$`, w.listUnchanged)
	sc.Step(`^list\(\) contains neither "([^"]*)" nor "([^"]*)"$`, w.listHasNo)
	sc.Step(`^"([^"]*)" is reported failed$`, w.isReportedFailed)
	sc.Step(`^no MCP server received anything during the listing$`, w.nothingDuringListing)
}

// registryState is the slice of the world this file's steps own: list() as it was before the last change, and when a listing started.
type registryState struct {
	listBefore []adapter.ServerStatus // list() before the last registry change
	listTaken  bool                   // listBefore was captured
	listMark   int                    // log length when a listing started
}

// listExactly: Then list() shows exactly the servers "f, o, r"
func (w *world) listExactly(ctx context.Context, servers string) error {
	l, err := w.list(ctx)
	if err != nil {
		return err
	}
	got, want := names(l), splitNames(servers)
	slices.Sort(got)
	slices.Sort(want)
	return w.expect(slices.Equal(got, want), fmt.Sprintf("list() shows exactly %v", want), "it shows %v", got)
}

// listCount: Then list() shows 32 servers
func (w *world) listCount(ctx context.Context, n int) error {
	l, err := w.list(ctx)
	if err != nil {
		return err
	}
	return w.expect(len(l) == n, fmt.Sprintf("list() shows %d servers", n), "it shows %d: %v", len(l), names(l))
}

// listTools: Then list() shows "docs" with exactly the tools "mcp__docs__search"
func (w *world) listTools(ctx context.Context, name, tools string) error {
	l, err := w.list(ctx)
	if err != nil {
		return err
	}
	e, ok := entryOf(l, name)
	got, want := slices.Clone(e.Tools), splitNames(tools)
	slices.Sort(got)
	slices.Sort(want)
	return w.expect(ok && slices.Equal(got, want), fmt.Sprintf("list() shows %q with the tools %v", name, want), "found=%v tools=%v (list: %v)", ok, got, names(l))
}

// listToolCount: Then list() shows "paged" with 16 tools
func (w *world) listToolCount(ctx context.Context, name string, n int) error {
	l, err := w.list(ctx)
	if err != nil {
		return err
	}
	e, ok := entryOf(l, name)
	return w.expect(ok && len(e.Tools) == n, fmt.Sprintf("list() shows %q with %d tools", name, n), "found=%v with %d tools", ok, len(e.Tools))
}

// listSourceStatus: Then list() shows "g" from the "global" source with status "connected"
func (w *world) listSourceStatus(ctx context.Context, name, source, status string) error {
	if !w.info.Supports(adapter.CapListNormalize) {
		w.skipReason = fmt.Sprintf("the adapter does not declare the capability %q", adapter.CapListNormalize)
		return godog.ErrSkip
	}
	l, err := w.list(ctx)
	if err != nil {
		return err
	}
	e, ok := entryOf(l, name)
	return w.expect(ok && string(e.Source) == source && string(e.Status) == status,
		fmt.Sprintf("list() shows %q with source %s and status %s", name, source, status),
		"found=%v source=%q status=%q", ok, e.Source, e.Status)
}

// listUnchanged: Then list() is unchanged — equal to list() before the last
// registry change.
func (w *world) listUnchanged(ctx context.Context) error {
	if err := w.need(adapter.OpList); err != nil {
		return err
	}
	if !w.listTaken {
		return fmt.Errorf("list() was not captured before a registry change")
	}
	l, err := w.list(ctx)
	if err != nil {
		return err
	}
	strip := func(l []adapter.ServerStatus) string {
		c := slices.Clone(l)
		for i := range c {
			c[i].Raw = nil
		}
		b, _ := json.Marshal(c)
		return string(b)
	}
	before, after := strip(w.listBefore), strip(l)
	return w.expect(before == after, "list() is unchanged: "+before, "%s", after)
}

// listHasNo: Then list() contains neither "A" nor "B"
func (w *world) listHasNo(ctx context.Context, a, b string) error {
	l, err := w.list(ctx)
	if err != nil {
		return err
	}
	var surfaces []surface
	for _, s := range l {
		surfaces = append(surfaces, surface{where: fmt.Sprintf("list() entry %q", s.Name), text: jsonText(s) + string(s.Raw)})
	}
	hits := sweep(surfaces, []secret{{value: a, what: fmt.Sprintf("%q", a)}, {value: b, what: fmt.Sprintf("%q", b)}})
	var found []string
	for _, f := range hits {
		found = append(found, f.actual)
	}
	return w.expect(len(hits) == 0, "list() holds no credential", "%s", strings.Join(found, "; "))
}

// isReportedFailed: Then "p" is reported failed — the run failed, or an
// error event names the server, or list() marks it failed (interpretation
// either outcome conforms, but the failure must be observable).
func (w *world) isReportedFailed(ctx context.Context, name string) error {
	if w.last != nil && w.last.err != nil {
		return w.expect(true, "", "")
	}
	if len(w.host.errorEvents(name)) > 0 {
		return w.expect(true, "", "")
	}
	if w.info.Supports(adapter.CapListNormalize) && w.info.Implements(adapter.OpList) {
		l, err := w.list(ctx)
		if err != nil {
			return err
		}
		if e, ok := entryOf(l, name); ok && e.Status == adapter.StatusFailed {
			return w.expect(true, "", "")
		}
	}
	return w.expect(false, fmt.Sprintf("a failure of %q is reported (an error, an error event or a failed status)", name), "nothing reported it")
}

// nothingDuringListing: Then no MCP server received anything during the listing
func (w *world) nothingDuringListing() error {
	var extra []record.Record
	for _, r := range w.log.Records()[w.listMark:] {
		if r.Kind != record.KindHost && r.Kind != record.KindHTTPResponse {
			extra = append(extra, r)
		}
	}
	return w.expect(len(extra) == 0, "list() made no request to any server", "%s", summarize(extra))
}
