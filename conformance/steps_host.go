package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/mcpconform/mcpconform/conformance/adapter"
)

// Steps that set up the host side of an agent (issue 5): its permission
// policy and approval handler, its own tools, its hooks and options.

// registerHostSteps defines the steps whose methods are in this file.
func (w *world) registerHostSteps(sc stepDefiner) {
	sc.Step(`^the permission policy (allows|asks|denies) "([^"]*)"(?: and (allows|asks|denies) "([^"]*)")?$`, w.permissionPolicy)
	sc.Step(`^the agent option allowedTools is "([^"]*)"$`, w.allowedTools)
	sc.Step(`^the agent is in dry-run mode$`, w.dryRun)
	sc.Step(`^the host defines the tool "([^"]*)" with a (standard|native) schema (\{.*\})$`, w.definesTool)
	sc.Step(`^the host tool "([^"]*)" returns (\{.*\}|"[^"]*")$`, w.hostToolReturns)
	sc.Step(`^the host tool "([^"]*)" waits for the latch "([^"]*)"$`, w.hostToolWaits)
	sc.Step(`^the "(tool:start|tool:end)" hook calls (register|unregister)\(\) for "([^"]*)"$`, w.hookCalls)
	sc.Step(`^the file "([^"]*)" in the scenario's directory holds "([^"]*)"$`, w.fileHolds)
	sc.Step(`^the "(tool:start|tool:end)" hook was called for "([^"]*)"(?: with (\{.*\}))?$`, w.hookWasCalled)
	sc.Step(`^the "(tool:start|tool:end)" hook was called for "([^"]*)" with an error$`, w.hookWithError)
	sc.Step(`^the hook's call was rejected within (\d+) milliseconds$`, w.hookRejected)
	sc.Step(`^the host validated the input of "([^"]*)" (\d+) times?$`, w.validatedTimes)
	sc.Step(`^the host executed "([^"]*)" exactly once, with (\{.*\})$`, w.executedOnce)
	sc.Step(`^the host never executed "([^"]*)"$`, w.neverExecuted)
	sc.Step(`^the file granted nothing: the agent refused it, or asked for "([^"]*)" and "([^"]*)"$`, w.fileGrantedNothing)
}

// hookState is the slice of the world this file's steps own: what the scenario's hook did.
type hookState struct {
	hookCall *hookCall // what the scenario's hook did
}

// permissionPolicy: Given the permission policy allows "a, b" [and denies "c"]
func (w *world) permissionPolicy(verb1, names1, verb2, names2 string) error {
	if w.agent != nil {
		return fmt.Errorf("the permission policy must be set before the agent is created")
	}
	p := &adapter.Policy{}
	if w.opts.Permission != nil {
		p = w.opts.Permission
	}
	add := func(verb, names string) {
		list := splitNames(names)
		switch verb {
		case "allows":
			p.Allow = append(p.Allow, list...)
		case "asks":
			p.Ask = append(p.Ask, list...)
		case "denies":
			p.Deny = append(p.Deny, list...)
		}
	}
	add(verb1, names1)
	if verb2 != "" {
		add(verb2, names2)
	}
	w.opts.Permission = p
	return nil
}

// allowedTools: Given the agent option allowedTools is "mcp__docs__a"
func (w *world) allowedTools(names string) error {
	w.opts.AllowedTools = splitNames(names)
	return nil
}

// dryRun: Given the agent is in dry-run mode
func (w *world) dryRun() error {
	if err := w.needCapability(adapter.CapDryRun); err != nil {
		return err
	}
	w.opts.DryRun = true
	return nil
}

// needCapability skips the scenario when the adapter lacks c.
func (w *world) needCapability(c adapter.Capability) error {
	if !w.info.Supports(c) {
		return w.skip(fmt.Sprintf("the adapter does not declare the capability %q", c))
	}
	return nil
}

// definesTool: Given the host defines the tool "lookup" with a standard schema {...}
func (w *world) definesTool(name, kind, schema string) error {
	raw, err := rawJSON(schema)
	if err != nil {
		return err
	}
	t := &hostTool{def: adapter.CustomTool{Name: name, Description: "a host tool of the scenario", Schema: adapter.ToolSchema{Kind: kind, JSONSchema: raw}}}
	if kind == "standard" {
		var s jsonschema.Schema
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf("the schema of %q: %w", name, err)
		}
		if t.validator, err = s.Resolve(nil); err != nil {
			return fmt.Errorf("the schema of %q: %w", name, err)
		}
	}
	w.host.mu.Lock()
	defer w.host.mu.Unlock()
	if w.host.tools == nil {
		w.host.tools = map[string]*hostTool{}
	}
	if _, dup := w.host.tools[name]; dup {
		return fmt.Errorf("the scenario defines the host tool %q twice", name)
	}
	w.host.tools[name] = t
	w.opts.Tools = append(w.opts.Tools, t.def)
	return nil
}

// hostToolOf returns a host tool the scenario defined.
func (w *world) hostToolOf(name string) (*hostTool, error) {
	w.host.mu.Lock()
	defer w.host.mu.Unlock()
	t := w.host.tools[name]
	if t == nil {
		return nil, fmt.Errorf("the scenario defines no host tool %q", name)
	}
	return t, nil
}

// hostToolReturns: Given the host tool "lookup" returns "text" | {"content": ...}
func (w *world) hostToolReturns(name, result string) error {
	t, err := w.hostToolOf(name)
	if err != nil {
		return err
	}
	raw, err := rawJSON(result)
	if err != nil {
		return err
	}
	w.host.mu.Lock()
	defer w.host.mu.Unlock()
	t.result = raw
	return nil
}

// hostToolWaits: Given the host tool "h1" waits for the latch "h1"
func (w *world) hostToolWaits(name, latch string) error {
	t, err := w.hostToolOf(name)
	if err != nil {
		return err
	}
	w.host.mu.Lock()
	defer w.host.mu.Unlock()
	t.latch = latch
	return nil
}

// hookCall is what the scenario's hook did when it called back into the
// agent.
type hookCall struct {
	what string
	err  error
	took time.Duration
	done chan struct{} // closed once it returned
}

// hookCalls: Given the "tool:start" hook calls register() for "q"
func (w *world) hookCalls(hook, call, name string) error {
	if call == "register" {
		if _, err := w.fake(name); err != nil {
			return err
		}
	}
	hc := &hookCall{what: fmt.Sprintf("%s() for %q from a %s hook", call, name, hook), done: make(chan struct{})}
	w.hookCall = hc
	var once bool
	w.host.mu.Lock()
	defer w.host.mu.Unlock()
	w.host.onHook = func(ctx context.Context, h adapter.HookEvent) {
		if h.Type != hook || once {
			return
		}
		once = true
		defer close(hc.done)
		sctx, cancel := w.stepCtx(ctx)
		defer cancel()
		start := time.Now()
		if call == "register" {
			e, err := w.entry(name)
			if err != nil {
				hc.err = err
				return
			}
			hc.err = w.agent.Register(sctx, name, e)
		} else {
			hc.err = w.agent.Unregister(sctx, name)
		}
		hc.took = time.Since(start)
	}
	return nil
}

// hookRejected: Then the hook's call was rejected within 100 milliseconds
func (w *world) hookRejected(ctx context.Context, ms int) error {
	hc := w.hookCall
	if hc == nil {
		return fmt.Errorf("the scenario's hook calls nothing")
	}
	select {
	case <-hc.done:
	default:
		return w.expect(false, hc.what+" was made", "the hook never ran")
	}
	limit := w.budget(time.Duration(ms) * time.Millisecond)
	return w.expect(hc.err != nil && hc.took < limit, fmt.Sprintf("%s is rejected within %v", hc.what, limit),
		"it returned %v after %v", errText(hc.err), hc.took.Round(time.Millisecond))
}

// errText describes an outcome error.
func errText(err error) string {
	if err == nil {
		return "success"
	}
	return fmt.Sprintf("%q (kind %s)", err.Error(), adapter.KindOf(err))
}

// fileHolds: Given the file "la-canary.txt" in the scenario's directory holds "..."
func (w *world) fileHolds(name, text string) error {
	if strings.Contains(name, "/") {
		return fmt.Errorf("the file name %q must not hold a directory", name)
	}
	return os.WriteFile(filepath.Join(w.dir, name), []byte(text), 0o644)
}

// hookWasCalled: Then the "tool:start" hook was called for "mcp__docs__search" [with {...}]
func (w *world) hookWasCalled(hook, name, input string) error {
	hooks := w.host.hookEvents()
	var want json.RawMessage
	if input != "" {
		var err error
		if want, err = rawJSON(input); err != nil {
			return err
		}
	}
	for _, h := range hooks {
		if h.Type == hook && h.Name == name && (want == nil || jsonEqual(h.Input, want)) {
			return w.expect(true, "", "")
		}
	}
	what := fmt.Sprintf("the %s hook is called for %s", hook, name)
	if want != nil {
		what += " with " + string(want)
	}
	return w.expect(false, what, "%s", describeHooks(hooks))
}

// hookWithError: Then the "tool:end" hook was called for "mcp__p__t" with an error
func (w *world) hookWithError(hook, name string) error {
	hooks := w.host.hookEvents()
	for _, h := range hooks {
		if h.Type == hook && h.Name == name && (h.IsError || slices.Contains([]string{"error", "invalid", "denied", "timeout", "failed"}, h.Outcome)) {
			return w.expect(true, "", "")
		}
	}
	return w.expect(false, fmt.Sprintf("the %s hook reports an error for %s", hook, name), "%s", describeHooks(hooks))
}

// describeHooks summarizes hook calls for failures.
func describeHooks(hs []adapter.HookEvent) string {
	if len(hs) == 0 {
		return "no hook was called"
	}
	var parts []string
	for _, h := range hs {
		parts = append(parts, fmt.Sprintf("%s %s input=%s isError=%v outcome=%q", h.Type, h.Name, h.Input, h.IsError, h.Outcome))
	}
	return strings.Join(parts, "; ")
}

// validatedTimes: Then the host validated the input of "lookup" 2 times
func (w *world) validatedTimes(name string, n int) error {
	t, err := w.hostToolOf(name)
	if err != nil {
		return err
	}
	w.host.mu.Lock()
	got := t.validations
	w.host.mu.Unlock()
	return w.expect(got == n, fmt.Sprintf("validate() of %q was called %d time(s)", name, n), "%d time(s)", got)
}

// executedOnce: Then the host executed "lookup" exactly once, with {...}
func (w *world) executedOnce(name, input string) error {
	want, err := rawJSON(input)
	if err != nil {
		return err
	}
	got := w.executions(name)
	return w.expect(len(got) == 1 && jsonEqual(got[0], want), fmt.Sprintf("execute() of %q ran once, with %s", name, want), "it ran with %s", describeInputs(got))
}

// neverExecuted: Then the host never executed "lookup"
func (w *world) neverExecuted(name string) error {
	got := w.executions(name)
	return w.expect(len(got) == 0, fmt.Sprintf("execute() of %q never ran", name), "it ran with %s", describeInputs(got))
}

// executions returns the inputs a host tool was executed with.
func (w *world) executions(name string) []json.RawMessage {
	var out []json.RawMessage
	for _, r := range hostRecordsOf(w.log.Records(), "execute") {
		var req adapter.ExecuteRequest
		_ = json.Unmarshal(r.Params, &req)
		if req.Tool == name {
			out = append(out, req.Input)
		}
	}
	return out
}

// describeInputs lists inputs for failures.
func describeInputs(in []json.RawMessage) string {
	if len(in) == 0 {
		return "nothing"
	}
	var parts []string
	for _, i := range in {
		parts = append(parts, string(i))
	}
	return strings.Join(parts, ", ")
}

// fileGrantedNothing: Then the file granted nothing: the agent refused it,
// or asked for "mcp_connect" and "mcp__p__a" (X-04: rejecting or ignoring
// the key both conform; granting never does).
func (w *world) fileGrantedNothing(connect, call string) error {
	if w.last != nil && w.last.err != nil && kindIs(w.last.err, string(adapter.KindConfig)) {
		return w.expect(true, "", "")
	}
	asked := map[string]bool{}
	for _, a := range w.host.approvalRequests() {
		asked[a.Name] = true
	}
	return w.expect(asked[connect] && asked[call], fmt.Sprintf("a config error, or approvals asked for %s and %s", connect, call),
		"outcome %s; approvals asked: %v", errText(w.lastErr()), w.approvalNames())
}

// lastErr is the error of the last action, if any.
func (w *world) lastErr() error {
	if w.last == nil {
		return nil
	}
	return w.last.err
}

// approvalNames lists the names the approval handler was asked for.
func (w *world) approvalNames() []string {
	var out []string
	for _, a := range w.host.approvalRequests() {
		out = append(out, a.Name)
	}
	return out
}
