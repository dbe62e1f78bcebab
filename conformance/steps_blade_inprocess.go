package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/internal/procs"
	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Steps of Blade's in-process servers (BL-INP): servers the scenario
// defines as data ({"type": "in-process", "name", "version", "tools"}),
// which the adapter turns into createSdkMcpServer over tool() values whose
// handlers are host/inProcessTool callbacks the runner answers; and the
// processes the implementation starts, watched from before the session is
// created and while each handler runs.

// transportInProcess is the transport of an in-process server's fake.
const transportInProcess = "in-process"

// registerBladeInProcessSteps defines the steps whose methods are in this
// file.
func (w *world) registerBladeInProcessSteps(sc stepDefiner) {
	sc.Step(`^an in-process server "([^"]*)" named "([^"]*)" with the tools:$`, w.inProcessServer)
	sc.Step(`^the in-process tool "([^"]*)" of "([^"]*)" answers (\{.*\})$`, w.inProcessAnswers)
	sc.Step(`^the in-process tool "([^"]*)" of "([^"]*)" answers with its run count$`, w.inProcessCounts)
	sc.Step(`^the in-process tool "([^"]*)" of "([^"]*)" ran (\d+) times?(?:, with (\{.*\}))?$`, w.inProcessRan)
	sc.Step(`^the in-process tool "([^"]*)" of "([^"]*)" never ran$`, w.inProcessNeverRan)
	sc.Step(`^every run of an in-process tool reported the implementation's own process$`, w.inProcessOwnProcess)
	sc.Step(`^the processes the implementation starts are watched$`, w.watchProcesses)
	sc.Step(`^the implementation started no process, before or while its in-process tools ran$`, w.startedNoProcess)
	sc.Step(`^every model request offered "([^"]*)" described as "([^"]*)"$`, w.offeredDescribed)
}

// inProcessState is what a scenario declared of its in-process servers and
// saw of the implementation's processes.
type inProcessState struct {
	// inProcessNames are the createSdkMcpServer names of the in-process
	// servers, by mcpServers key.
	inProcessNames map[string]string

	watchMu   sync.Mutex
	watching  bool
	watchRoot int            // the implementation's process
	baseline  map[int]uint64 // its descendants (PID → start) before the session
	spawned   map[int]string // processes that appeared since, described
	watchErr  error          // why the processes could not be watched
	watchSeen int            // readings taken
}

// inProcessHost is the host's side of in-process handlers, under the
// host's lock.
type inProcessHost struct {
	// answers are the scripted responses by "server/tool"; counting the
	// tools that answer with their run count.
	answers  map[string]json.RawMessage
	counting map[string]bool
	runs     []adapter.InProcessToolRequest
	// watch, when set, reads the implementation's processes while a
	// handler runs.
	watch func()
}

var _ adapter.InProcessHost = (*host)(nil)

// InProcessTool answers one run of an in-process tool's handler.
func (h *host) InProcessTool(ctx context.Context, req adapter.InProcessToolRequest) (json.RawMessage, error) {
	return serve[json.RawMessage](ctx, func() any { return h.arriveInProcessTool(req) })
}

func (h *host) arriveInProcessTool(req adapter.InProcessToolRequest) func(context.Context) (json.RawMessage, error) {
	params, _ := json.Marshal(req)
	h.log.Append(record.Record{Kind: record.KindHost, Method: "inProcessTool", Server: req.Server, Params: params})
	key := req.Server + "/" + req.Tool
	h.mu.Lock()
	h.inproc.runs = append(h.inproc.runs, req)
	n := 0
	for _, r := range h.inproc.runs {
		if r.Server == req.Server && r.Tool == req.Tool {
			n++
		}
	}
	answer, counting, watch := h.inproc.answers[key], h.inproc.counting[key], h.inproc.watch
	h.mu.Unlock()
	if watch != nil {
		watch() // the handler is running now
	}
	switch {
	case counting:
		answer = textResponse(fmt.Sprintf("%s run %d", req.Tool, n))
	case answer == nil:
		answer = textResponse(req.Tool + " ran")
	}
	return func(context.Context) (json.RawMessage, error) { return answer, nil }
}

// textResponse is an McpToolCallResponse of one text item.
func textResponse(text string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": text}}})
	return b
}

// inProcessRuns returns the handler runs so far.
func (h *host) inProcessRuns() []adapter.InProcessToolRequest {
	return snapshot(h, &h.inproc.runs)
}

// inProcessServer: Given an in-process server "myTools" named "my-tools" with the tools:
//
//	| name | description | schema |
func (w *world) inProcessServer(key, name string, table *godog.Table) error {
	if len(table.Rows) < 2 || len(table.Rows[0].Cells) != 3 {
		return errors.New("the tools table has a header | name | description | schema | and a row per tool")
	}
	script := &mcpfake.Script{}
	for _, row := range table.Rows[1:] {
		schema := json.RawMessage(row.Cells[2].Value)
		if !json.Valid(schema) {
			return fmt.Errorf("the schema of %q is not JSON: %s", row.Cells[0].Value, schema)
		}
		script.Tools = append(script.Tools, mcpfake.Tool{Name: row.Cells[0].Value, Description: row.Cells[1].Value, InputSchema: schema})
	}
	if err := w.defineFake(key, transportInProcess, script); err != nil {
		return err
	}
	if w.inProcessNames == nil {
		w.inProcessNames = map[string]string{}
	}
	w.inProcessNames[key] = name
	return nil
}

// inProcessEntry is the mcpServers value of an in-process server.
func (w *world) inProcessEntry(f *fake) (json.RawMessage, error) {
	type tool struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"schema"`
	}
	e := struct {
		Type    string `json:"type"`
		Name    string `json:"name"`
		Version string `json:"version"`
		Tools   []tool `json:"tools"`
	}{Type: transportInProcess, Name: w.inProcessNames[f.name], Version: "1.0.0"}
	for _, t := range f.script.Tools {
		e.Tools = append(e.Tools, tool{t.Name, t.Description, t.InputSchema})
	}
	return json.Marshal(e)
}

// inProcessKey is the host's key of a tool of the in-process server key.
func (w *world) inProcessKey(tool, key string) (string, error) {
	name, ok := w.inProcessNames[key]
	if !ok {
		return "", fmt.Errorf("the scenario has no in-process server %q", key)
	}
	return name + "/" + tool, nil
}

// inProcessAnswers: Given the in-process tool "get-weather" of "myTools" answers {"content": [...]}
func (w *world) inProcessAnswers(tool, key, response string) error {
	k, err := w.inProcessKey(tool, key)
	if err != nil {
		return err
	}
	if !json.Valid([]byte(response)) {
		return fmt.Errorf("the response is not JSON: %s", response)
	}
	h := w.host
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.inproc.answers == nil {
		h.inproc.answers = map[string]json.RawMessage{}
	}
	h.inproc.answers[k] = json.RawMessage(response)
	return nil
}

// inProcessCounts: Given the in-process tool "tally" of "myTools" answers with its run count
// — the text "<tool> run <n>", n counted by the runner: state of the
// host's process that only a handler run there can change.
func (w *world) inProcessCounts(tool, key string) error {
	k, err := w.inProcessKey(tool, key)
	if err != nil {
		return err
	}
	h := w.host
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.inproc.counting == nil {
		h.inproc.counting = map[string]bool{}
	}
	h.inproc.counting[k] = true
	return nil
}

// runsOf returns the runs of one in-process tool.
func (w *world) runsOf(tool, key string) ([]adapter.InProcessToolRequest, error) {
	name, ok := w.inProcessNames[key]
	if !ok {
		return nil, fmt.Errorf("the scenario has no in-process server %q", key)
	}
	var out []adapter.InProcessToolRequest
	for _, r := range w.host.inProcessRuns() {
		if r.Server == name && r.Tool == tool {
			out = append(out, r)
		}
	}
	return out, nil
}

// describeRuns renders handler runs for Actual.
func describeRuns(rs []adapter.InProcessToolRequest) string {
	if len(rs) == 0 {
		return "no handler ran"
	}
	var parts []string
	for _, r := range rs {
		parts = append(parts, fmt.Sprintf("%s/%s(%s) in pid %d", r.Server, r.Tool, safetext.Cap(string(r.Arguments), 120), r.PID))
	}
	return strings.Join(parts, "; ")
}

// inProcessRan: Then the in-process tool "get-weather" of "myTools" ran 1 time, with {"city": "Paris"}
// — every run got exactly these arguments (JSON-equal).
func (w *world) inProcessRan(tool, key string, n int, args string) error {
	runs, err := w.runsOf(tool, key)
	if err != nil {
		return err
	}
	expected := fmt.Sprintf("the handler of %q of %q ran %d time(s)", tool, key, n)
	ok := len(runs) == n
	if args != "" {
		var want any
		if err := json.Unmarshal([]byte(args), &want); err != nil {
			return fmt.Errorf("the arguments are not JSON: %v", err)
		}
		expected += " with " + args
		for _, r := range runs {
			var got any
			if json.Unmarshal(r.Arguments, &got) != nil || !cmp.Equal(got, want) {
				ok = false
			}
		}
	}
	return w.expect(ok, expected, "%s", describeRuns(w.host.inProcessRuns()))
}

// inProcessNeverRan: Then the in-process tool "get-weather" of "myTools" never ran
func (w *world) inProcessNeverRan(tool, key string) error {
	runs, err := w.runsOf(tool, key)
	if err != nil {
		return err
	}
	return w.expect(len(runs) == 0, fmt.Sprintf("the handler of %q of %q never ran", tool, key), "%s", describeRuns(runs))
}

// implementationPID is the process the implementation runs in, as its
// adapter knows it.
func (w *world) implementationPID() (int, error) {
	o, ok := w.adapter.(adapter.ProcessOwner)
	if !ok || o.ImplementationPID() <= 0 {
		return 0, errors.New("the adapter does not say which process the implementation runs in")
	}
	return o.ImplementationPID(), nil
}

// inProcessOwnProcess: Then every run of an in-process tool reported the implementation's own process
func (w *world) inProcessOwnProcess() error {
	pid, err := w.implementationPID()
	if err != nil {
		return err
	}
	runs := w.host.inProcessRuns()
	ok := len(runs) > 0 && !slices.ContainsFunc(runs, func(r adapter.InProcessToolRequest) bool { return r.PID != pid })
	return w.expect(ok, fmt.Sprintf("at least one handler run, each in process %d, the implementation's", pid), "%s", describeRuns(runs))
}

// watchProcesses: Given the processes the implementation starts are watched
// — from just before the session is created (watchBaseline), and while
// every in-process handler runs.
func (w *world) watchProcesses() error {
	w.watching = true
	h := w.host
	h.mu.Lock()
	defer h.mu.Unlock()
	h.inproc.watch = w.watchNow
	return nil
}

// watchedProcesses reads the implementation's running descendants. In the
// runner's own process, only those with this scenario's HOME are its:
// other scenarios run there too.
func (w *world) watchedProcesses() map[int]procs.Proc {
	out := map[int]procs.Proc{}
	for _, p := range procs.Descendants(w.watchRoot) {
		if w.watchRoot == os.Getpid() && !slices.Contains(procs.Environ(p.PID), "HOME="+w.home) {
			continue
		}
		out[p.PID] = p
	}
	return out
}

// watchBaseline reads the implementation's processes before the session
// is created, when the scenario watches them.
func (w *world) watchBaseline() {
	if !w.watching {
		return
	}
	w.watchMu.Lock()
	defer w.watchMu.Unlock()
	w.watchRoot, w.watchErr = w.implementationPID()
	if w.watchErr != nil {
		return
	}
	w.baseline, w.spawned = map[int]uint64{}, map[int]string{}
	for pid, p := range w.watchedProcesses() {
		w.baseline[pid] = p.Start
	}
}

// watchNow notes every process of the implementation that was not there
// before the session.
func (w *world) watchNow() {
	w.watchMu.Lock()
	defer w.watchMu.Unlock()
	if w.baseline == nil {
		return
	}
	w.watchSeen++
	for pid, p := range w.watchedProcesses() {
		if start, ok := w.baseline[pid]; ok && start == p.Start {
			continue
		}
		if _, ok := w.spawned[pid]; !ok {
			w.spawned[pid] = fmt.Sprintf("pid %d: %s", pid, safetext.Cap(strings.Join(procs.Argv(pid), " "), 120))
		}
	}
}

// startedNoProcess: Then the implementation started no process, before or while its in-process tools ran
func (w *world) startedNoProcess() error {
	if w.watchErr != nil {
		return w.watchErr
	}
	if w.baseline == nil {
		return errors.New("the processes were not watched: the scenario must watch them before it creates the session")
	}
	w.watchNow()
	w.watchMu.Lock()
	defer w.watchMu.Unlock()
	var seen []string
	for _, pid := range slices.Sorted(maps.Keys(w.spawned)) {
		seen = append(seen, w.spawned[pid])
	}
	return w.expect(len(seen) == 0, fmt.Sprintf("no process below the implementation's (%d) that was not there before the session, in %d readings", w.watchRoot, w.watchSeen), "%s", strings.Join(seen, "; "))
}

// offeredDescribed: Then every model request offered "mcp__myTools__get-weather" described as "查询指定城市的当前天气"
func (w *world) offeredDescribed(name, description string) error {
	return w.everyOffered(name, func(n int, t adapter.ToolDef) error {
		return w.expect(t.Description == description, fmt.Sprintf("model request %d offered %q described as %q", n, name, description), "described as %q", safetext.Cap(t.Description, 200))
	})
}
