package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/cucumber/godog"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/fakes/mcpfake"
	"github.com/mcpconform/mcpconform/fakes/oauth"
	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/fakes/tlsca"
	"github.com/mcpconform/mcpconform/internal/safetext"
	"github.com/mcpconform/mcpconform/internal/scratch"
)

// world is everything one scenario owns: its directories, its fakes, its
// record log, its adapter and agent, and what its steps observed. Nothing
// is shared between worlds, so scenarios run concurrently in any order.
type world struct {
	run  *runner
	sc   Scenario
	info adapter.Info

	dir     string // removed at the end
	workdir string
	home    string // HOME of the implementation
	environ []string

	log   *record.Log
	rec   *record.Server
	http  *mcpfake.HTTPServer // started on first use
	https *mcpfake.HTTPServer // started on first use, with the world's CA
	ca    *tlsca.CA           // made when the first HTTPS fake is defined

	fakes map[string]*fake
	opts  adapter.AgentOptions
	host  *host

	adapter adapter.Adapter
	agent   adapter.Agent

	last *outcome // the outcome "it" refers to

	agents int // agents created so far

	bladeState bladeState      // what a Blade scenario observed of its session
	bladeOAuth bladeOAuthState // steps_blade_oauth.go

	// Each domain's own state, declared beside its steps.
	configState     // steps_config.go
	registryState   // steps_registry.go
	modelState      // steps_model.go
	timingState     // steps_timing.go
	subAgentState   // steps_subagent.go
	hookState       // steps_host.go
	charsetState    // steps_charset.go
	archiveState    // steps_archive.go
	projectionState // steps_projection.go
	oauthState      // oauthworld.go
	inProcessState  // steps_blade_inprocess.go

	assertions int    // how many checks the steps made
	positives  int    // Then steps that passed observing an effect (observes)
	skipReason string // why a step skipped the scenario
	closed     bool

	obs        observations // what the agents showed the host (observe.go)
	plantedEnv []string     // KEY=VALUE the scenario planted in the host environment
	leftovers  []finding    // processes that outlived the scenario

	adapterLeft      []adapter.Leftover // what the adapter process left running, which its Close killed
	adapterReused    bool               // the adapter's process had served other scenarios ([adapter.Reuser])
	fault            error              // the adapter's own failure outside any operation
	startDiagnostics []string           // what the runner saw of an adapter that could not be opened
	diagnose         bool               // a step failed: its evidence gets the adapter's diagnostics once closed
}

// fake is one scripted MCP server of the scenario.
type fake struct {
	name        string
	transport   string // "stdio", "http", "https" or "sse"
	script      *mcpfake.Script
	protectedBy string                // the authorization server guarding it, if any
	resource    oauth.ResourceOptions // how the guard shapes the resource
	guard       *oauth.Resource       // its guard, once mounted
	path        string                // the script file, for stdio
	url         string                // the endpoint, for http
}

// outcome is the result of the last action of a scenario.
type outcome struct {
	what string
	err  error
	took time.Duration // how long the action took
	mark int           // the record log's length when it returned
}

// background is an operation running while other steps go on.
type background struct {
	what   string
	done   chan struct{}
	err    error
	ended  time.Time // when it ended, valid once done is closed
	cancel context.CancelFunc
}

// setup prepares a scenario's world: directories, environment and record
// server. Fakes and the adapter start when steps need them.
func (w *world) setup(sc Scenario) error {
	dir, err := scratch.Quick("scenario") // on a RAM file system when it can: one per scenario
	if err != nil {
		return err
	}
	w.sc, w.info, w.dir = sc, w.run.info, dir
	w.workdir, w.home = filepath.Join(dir, "work"), filepath.Join(dir, "home")
	w.log, w.fakes, w.snapshots, w.marked = record.NewLog(), map[string]*fake{}, map[string]fileState{}, map[string]string{}
	w.authServers, w.bindings = map[string]*authServer{}, map[string]*bindingSpec{}
	// The directory of the fakes' scripts is made with the first
	// (materialize): each directory a scenario makes costs it CPU.
	for _, d := range []string{w.workdir, w.home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	w.project = &configFile{path: filepath.Join(w.workdir, ".lite-agent", "mcps.json")}
	w.global = &configFile{path: filepath.Join(w.home, ".lite-agent", "mcps.json")}
	w.option = &optionConfig{}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "HOME" && !slices.Contains(trustVariables, k) {
			w.environ = append(w.environ, kv)
		}
	}
	w.environ = append(w.environ, "HOME="+w.home)
	if err := w.installOpeners(); err != nil {
		return err
	}
	w.host = &host{log: w.log}
	w.opts = adapter.AgentOptions{System: adapter.LiteAgent, Workdir: w.workdir, Approval: true}
	if slices.Equal(sc.Systems, []adapter.System{adapter.Blade}) {
		w.opts.System = adapter.Blade
	}
	w.rec, err = record.NewServer(w.log)
	return err
}

// trustVariables are the variables that name the certificates an
// implementation trusts. The runner's own are not handed on: a world
// trusts its own test CA when it has HTTPS fakes ([world.makeCA]) and
// nothing else, so that the machine's trust store neither reaches a
// verdict nor makes every agent and adapter parse the system's bundle
// (where the machine sets SSL_CERT_FILE and SSL_CERT_DIR to it, that
// parse was a fifth of the runner's CPU in-process, and more through
// the protocol).
var trustVariables = []string{"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "MCPCONFORM_CA_FILE"}

// budget scales a real-time budget of a scenario by the run's timeout
// multiplier.
func (w *world) budget(d time.Duration) time.Duration {
	return time.Duration(float64(d) * w.run.opts.TimeoutMultiplier)
}

// stepCtx bounds one step.
func (w *world) stepCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, w.run.opts.StepTimeout)
}

// defineFake adds a scripted server.
func (w *world) defineFake(name, transport string, script *mcpfake.Script) error {
	if _, dup := w.fakes[name]; dup {
		return fmt.Errorf("the scenario defines the MCP server %q twice", name)
	}
	script.Name = name
	if transport == "https" && w.ca == nil {
		if err := w.makeCA(); err != nil {
			return err
		}
	}
	w.fakes[name] = &fake{name: name, transport: transport, script: script}
	return nil
}

// makeCA makes the world's test CA and hands its PEM file to the
// implementation through its environment (SSL_CERT_FILE for Go and most
// TLS stacks, NODE_EXTRA_CA_CERTS for Node.js).
func (w *world) makeCA() error {
	if w.adapter != nil {
		return errors.New("HTTPS servers must be defined before the agent is created")
	}
	ca, err := tlsca.New("mcpconform scenario CA")
	if err != nil {
		return err
	}
	path := filepath.Join(w.dir, "ca.pem")
	if err := ca.WriteFile(path); err != nil {
		return err
	}
	w.ca = ca
	w.environ = append(w.environ, "SSL_CERT_FILE="+path, "NODE_EXTRA_CA_CERTS="+path, "MCPCONFORM_CA_FILE="+path)
	return nil
}

// fake returns a defined server.
func (w *world) fake(name string) (*fake, error) {
	f, ok := w.fakes[name]
	if !ok {
		return nil, fmt.Errorf("the scenario has no MCP server %q; define it with a Given step first", name)
	}
	return f, nil
}

// materialize makes a fake reachable: a script file for stdio, a mount
// for http. It is idempotent.
func (w *world) materialize(f *fake) error {
	switch f.transport {
	case "stdio":
		if f.path == "" {
			dir := filepath.Join(w.dir, "fakes")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			f.path = filepath.Join(dir, f.name+".json")
		}
		return f.script.WriteFile(f.path)
	case "http", "https":
		if f.url != "" {
			return nil
		}
		if err := w.protect(f); err != nil {
			return err
		}
		srv, err := w.httpServer(f.transport)
		if err != nil {
			return err
		}
		f.url = srv.Mount(f.script)
	case "sse":
		if f.url != "" {
			return nil
		}
		srv, err := w.httpServer("http")
		if err != nil {
			return err
		}
		f.url = srv.MountSSE(f.script)
	}
	return nil
}

// httpServer returns the world's HTTP or HTTPS fake server, starting it.
// The plain one also listens on [::1] where the host has IPv6.
func (w *world) httpServer(transport string) (*mcpfake.HTTPServer, error) {
	if transport == "https" {
		if w.https == nil {
			cert, err := w.ca.Issue("localhost", "127.0.0.1", "::1")
			if err != nil {
				return nil, err
			}
			if w.https, err = mcpfake.NewHTTPServer(w.log, mcpfake.HTTPOptions{TLS: &cert}); err != nil {
				return nil, err
			}
		}
		return w.https, nil
	}
	if w.http == nil {
		h, err := mcpfake.NewHTTPServer(w.log, mcpfake.HTTPOptions{IPv6: true})
		if err != nil {
			return nil, err
		}
		w.http = h
	}
	return w.http, nil
}

// entryAt is the entry of an HTTP fake reached at another loopback host
// ("localhost", "127.0.0.1", "[::1]"). A host the machine lacks (no IPv6)
// skips the scenario.
func (w *world) entryAt(name, host string) (json.RawMessage, error) {
	f, err := w.fake(name)
	if err != nil {
		return nil, err
	}
	if err := w.materialize(f); err != nil {
		return nil, err
	}
	srv, err := w.httpServer(f.transport)
	if err != nil {
		return nil, err
	}
	u, err := srv.URL(name, host)
	if err != nil {
		if host == "[::1]" {
			w.skipReason = fmt.Sprintf("this machine has no IPv6 loopback: %v", err)
			return nil, godog.ErrSkip
		}
		return nil, err
	}
	return json.Marshal(map[string]any{"type": "http", "url": u})
}

// stdioArgs are the arguments of a stdio fake's command, plus extra.
func (w *world) stdioArgs(f *fake, extra ...string) []string {
	args := slices.Clone(w.run.opts.FakeCommand[1:])
	args = append(args, mcpfake.StdioArgs(f.path, w.rec.Addr())...)
	return append(args, extra...)
}

// entry returns the configuration entry of a fake, with an explicit type.
func (w *world) entry(name string) (json.RawMessage, error) {
	f, err := w.fake(name)
	if err != nil {
		return nil, err
	}
	if err := w.materialize(f); err != nil {
		return nil, err
	}
	if f.transport == transportInProcess {
		return w.inProcessEntry(f)
	}
	var e map[string]any
	if f.transport == "sse" {
		e = map[string]any{"type": "sse", "url": f.url}
	} else if f.transport != "stdio" {
		e = map[string]any{"type": "http", "url": f.url}
	} else {
		e = map[string]any{"type": "stdio", "command": w.run.opts.FakeCommand[0], "args": w.stdioArgs(f)}
	}
	return json.Marshal(e)
}

// expect records one check of a Then step: it fails with Expected and
// Actual when ok is false.
func (w *world) expect(ok bool, expected string, actual string, args ...any) error {
	w.assertions++
	if ok {
		return nil
	}
	// Capped here, not only in the report: godog keeps every step's error
	// until the run ends, and Actual may quote whatever the adapter sent.
	return fmt.Errorf("\n  Expected: %s\n  Actual:   %s", safetext.Cap(expected, safetext.Message), safetext.Cap(fmt.Sprintf(actual, args...), safetext.Message))
}

// openAdapter opens the world's adapter once.
func (w *world) openAdapter(ctx context.Context) error {
	if w.adapter != nil {
		return nil
	}
	// A scenario the baseline expects to fail runs in an adapter process of
	// its own from the start: a failure in a reused one would run again.
	_, expected := w.run.opts.Baseline.entryFor(ScenarioResult{ID: w.sc.ID, Rules: w.sc.Rules})
	a, err := w.run.opts.Target.Open(ctx, adapter.Env{Dir: w.dir, Environ: w.environ, Fresh: w.run.opts.fresh || expected})
	if err != nil {
		var d adapter.Diagnoser
		if errors.As(err, &d) {
			w.startDiagnostics = d.Diagnostics()
		}
		return fmt.Errorf("the adapter could not be opened: %w", err)
	}
	w.adapter = a
	return nil
}

// need skips the scenario when the adapter does not implement op.
func (w *world) need(op adapter.Operation) error {
	if w.info.Implements(op) {
		return nil
	}
	return w.skip(fmt.Sprintf("the adapter does not implement the operation %s", op))
}

// skip skips the scenario, saying why.
func (w *world) skip(reason string) error {
	w.skipReason = reason
	return godog.ErrSkip
}

// settle makes err the outcome "it" refers to, unless it is the adapter's
// own failure: that fails the step, whatever the scenario expected.
func (w *world) settle(what string, err error) error {
	if adapter.IsFailure(err) {
		return err
	}
	w.last = &outcome{what: what, err: err, mark: w.log.Len()}
	return nil
}

// timed runs an action and settles its outcome with its duration.
func (w *world) timed(what string, action func() error) error {
	start := time.Now()
	err := action()
	if serr := w.settle(what, err); serr != nil {
		return serr
	}
	w.last.took = time.Since(start)
	return nil
}

// createAgent writes the configuration and builds the agent; the result is
// the outcome.
func (w *world) createAgent(ctx context.Context) error {
	if w.agent != nil {
		return errors.New("the scenario creates the agent twice")
	}
	if err := w.need(adapter.OpCreate); err != nil {
		return err
	}
	if err := w.writeConfigs(); err != nil {
		return err
	}
	if err := w.openAdapter(ctx); err != nil {
		return err
	}
	w.watchBaseline()
	opts := w.opts
	mcp, err := w.option.render(w)
	if err != nil {
		return err
	}
	opts.MCPServers = mcp
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	if opts.MCPOAuth, err = w.resolveOAuth(sctx); err != nil {
		return err
	}
	if err := w.resolveBladeOAuth(&opts); err != nil {
		return err
	}
	for _, c := range []*configFile{w.project, w.global} {
		if data, _ := c.content(w); data != nil {
			w.obs.config(string(data))
		}
	}
	if opts.MCPServers != nil {
		w.obs.config(string(opts.MCPServers))
	}
	w.agents++
	view := &hostView{w: w, h: w.host, agent: fmt.Sprintf("agent %d", w.agents)}
	agent, err := w.adapter.NewAgent(sctx, opts, view)
	if err == nil {
		a := &observedAgent{Agent: agent, label: "the agent", obs: &w.obs, view: view}
		w.agent = a
		a.snapshotList(ctx, "list() after creating the agent")
	} else {
		_ = w.obs.failure("creating the agent", err)
	}
	return w.settle("creating the agent", err)
}

// needAgent fails the step when the agent does not exist.
func (w *world) needAgent() error {
	if w.agent == nil {
		if w.last != nil && w.last.err != nil {
			return fmt.Errorf("there is no agent: %s failed: %v", w.last.what, w.last.err)
		}
		return errors.New("there is no agent: the scenario must create it first")
	}
	return nil
}

// snapshotList remembers list() before a registry change, when the adapter
// can list.
func (w *world) snapshotList(ctx context.Context) error {
	if !w.info.Implements(adapter.OpList) {
		return nil
	}
	sctx, cancel := w.stepCtx(ctx)
	defer cancel()
	l, err := w.agent.List(sctx)
	if err != nil {
		return fmt.Errorf("list() failed before the change: %w", err)
	}
	w.listBefore, w.listTaken = l, true
	return nil
}

// close tears the world down: the agent and adapter, then any fake process
// still alive, the fakes, the record server and the directories. It is
// idempotent.
func (w *world) close(checkLeftovers bool) {
	if w.closed {
		return
	}
	w.closed = true
	ctx, cancel := context.WithTimeout(context.Background(), w.budget(15*time.Second))
	defer cancel()
	if w.agent != nil && w.info.Implements(adapter.OpClose) {
		// A conforming close returns promptly; one that hangs is the
		// scenario's failure, not a reason to hold the run.
		cctx, ccancel := context.WithTimeout(ctx, w.budget(5*time.Second))
		_ = closeWithin(cctx, w.agent)
		ccancel()
	}
	for _, bg := range []*background{w.bg, w.bg2} {
		if bg != nil {
			select {
			case <-bg.done:
			case <-ctx.Done():
			}
		}
	}
	if w.adapter != nil {
		_ = w.adapter.Close()
		if r, ok := w.adapter.(adapter.LeftoverReporter); ok {
			w.adapterLeft = r.Leftovers()
		}
		if f, ok := w.adapter.(adapter.Faulter); ok {
			w.fault = f.Fault()
		}
		if r, ok := w.adapter.(adapter.Reuser); ok {
			w.adapterReused = r.Reused()
		}
	}
	w.releasePort() // the adapter is closed: no listener of it is left
	if w.log != nil {
		if checkLeftovers {
			w.checkLeftovers(ctx)
		}
		w.killFakes(ctx)
	}
	w.closeAuthServers()
	if w.http != nil {
		_ = w.http.Close()
	}
	if w.https != nil {
		_ = w.https.Close()
	}
	if w.rec != nil {
		_ = w.rec.Close()
	}
	if w.dir != "" {
		_ = os.RemoveAll(w.dir)
	}
}

// release drops everything the world holds once its scenario's result is
// final. godog keeps every step's handler, and with it the world, until
// the run ends: a world that kept its log, host and observations would
// grow the run's memory with every scenario, by whatever the adapter and
// the fakes sent. A world whose background operation never ended is kept
// as it is, since that operation may still read it.
func (w *world) release() {
	for _, bg := range []*background{w.bg, w.bg2} {
		if bg == nil {
			continue
		}
		select {
		case <-bg.done:
		default:
			return
		}
	}
	*w = world{run: w.run, closed: true}
}

// closeWithin closes an agent, giving up when ctx ends.
func closeWithin(ctx context.Context, a adapter.Agent) error {
	done := make(chan error, 1)
	go func() { done <- a.Close(ctx) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("close() did not return: %w", ctx.Err())
	}
}

// killFakes kills the process group of every fake process that has not
// exited, and waits for their exit records.
func (w *world) killFakes(ctx context.Context) {
	alive := liveProcesses(w.log.Records(), "")
	if len(alive) == 0 {
		return
	}
	for _, pid := range alive {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	wctx, cancel := context.WithTimeout(ctx, w.budget(5*time.Second))
	defer cancel()
	_, _ = w.log.Wait(wctx, func(rs []record.Record) bool { return len(liveProcesses(rs, "")) == 0 })
}

// liveProcesses returns the pids of fake processes of server (all servers
// when empty) that started and have not exited.
func liveProcesses(rs []record.Record, server string) []int {
	live := map[string]int{}
	for _, r := range rs {
		if server != "" && r.Server != server {
			continue
		}
		switch r.Kind {
		case record.KindStart:
			live[r.Instance] = r.PID
		case record.KindExit:
			delete(live, r.Instance)
		}
	}
	var pids []int
	for _, pid := range live {
		pids = append(pids, pid)
	}
	slices.Sort(pids)
	return pids
}
