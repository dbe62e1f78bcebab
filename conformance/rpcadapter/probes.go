package rpcadapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/internal/bounded"
)

// probe is one named check of [Check].
type probe struct {
	name string
	// op is the operation the probe exercises: an adapter that does not
	// declare it has the probe skipped. "" needs none.
	op adapter.Operation
	// system, when set, is the system the adapter must claim for the probe
	// to be reported at all.
	system adapter.System
	// agent marks a probe that needs an agent of the adapter, so one of
	// the systems the handshake claims.
	agent bool
	// needed marks a probe the later ones depend on: when it fails, only
	// the schema check follows.
	needed bool
	run    func(ctx context.Context, c *checkRun) (Verdict, string)
}

// probes are the checks of [Check], in the order they run. They share one
// adapter process and, from agent/create on, one agent; "unknown version"
// starts a fresh process.
var probes = []probe{
	{name: "handshake", run: probeHandshake},
	{name: "unknown method", run: probeUnknownMethod},
	{name: "agent/create", agent: true, needed: true, run: probeCreate},
	{name: "agent/create invalid", agent: true, run: probeCreateInvalid},
	{name: "agent/list", op: adapter.OpList, agent: true, run: probeList},
	{name: "agent/register invalid", op: adapter.OpRegister, agent: true, run: probeRegisterInvalid},
	{name: "agent/unregister unknown", op: adapter.OpUnregister, agent: true, run: probeUnregisterUnknown},
	{name: "agent/send", op: adapter.OpSend, agent: true, run: probeSend},
	{name: "cancellation", op: adapter.OpSend, agent: true, run: probeCancellation},
	{name: "agent/run", op: adapter.OpRun, agent: true, run: probeRun},
	{name: "agent/project", op: adapter.OpProject, agent: true, run: probeProject},
	{name: "agent/subagent", op: adapter.OpSubagent, agent: true, run: probeSubagent},
	{name: "agent/awaitIdle", op: adapter.OpAwaitIdle, agent: true, run: probeAwaitIdle},
	{name: "agent/close", op: adapter.OpClose, agent: true, run: probeClose},
	{name: "blade session", op: adapter.OpMCPStatus, system: adapter.Blade, agent: true, run: probeBladeSession},
	{name: "unknown agent", run: probeUnknownAgent},
	{name: "reuse", agent: true, run: probeReuse},
	{name: "shutdown", run: probeShutdown},
	{name: "unknown version", run: probeUnknownVersion},
}

// checkRun is what the probes of one [Check] share.
type checkRun struct {
	target *Target // the adapter, observed for the schema check
	env    adapter.Env
	dir    string
	p      *process // the adapter process, from the handshake on
	info   adapter.Info
	host   *checkHost
	opts   adapter.AgentOptions // the agent's options
	agent  adapter.Agent        // the agent, from agent/create on

	results  []CheckResult
	noAgents bool // the "agents" skip was reported
	end      bool // a probe ended the check, without the schema check

	mu      sync.Mutex
	invalid []string // messages that did not match their schema
}

// add adds one check's result.
func (c *checkRun) add(name string, v Verdict, format string, args ...any) {
	c.results = append(c.results, CheckResult{Check: name, Verdict: v, Detail: fmt.Sprintf(format, args...)})
}

// applies reports whether pr runs; when it does not, skip is the result
// to report instead, if any.
func (c *checkRun) applies(pr probe) (skip *CheckResult, run bool) {
	switch {
	case pr.agent && len(c.info.Systems) == 0:
		if c.noAgents {
			return nil, false
		}
		c.noAgents = true
		return &CheckResult{Check: "agents", Verdict: CheckSkipped, Detail: "the handshake claims no system, so no agent can be created; the checks of agents and operations did not run"}, false
	case pr.system != "" && !c.info.Claims(pr.system):
		return nil, false
	case pr.op != "" && !c.info.Implements(pr.op):
		return &CheckResult{Check: pr.name, Verdict: CheckSkipped, Detail: "not among the declared operations"}, false
	}
	return nil, true
}

// call makes one bounded call on the adapter process.
func (c *checkRun) call(ctx context.Context, method string, params, result any) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return c.p.call(cctx, method, params, result)
}

// noConfigRules is the rule the adapter declares it leaves out when the
// implementation has none of the product's configuration rules (a
// third-party SDK, which says so), so no invalid configuration to refuse.
func (c *checkRun) noConfigRules() (string, bool) { return c.info.Leaves("LA-CFG-10") }

func probeHandshake(ctx context.Context, c *checkRun) (Verdict, string) {
	p, err := c.target.open(ctx, c.env)
	if err != nil {
		c.end = true
		return CheckFailed, err.Error()
	}
	c.p, c.info = p, p.pr.info
	info := p.pr.info
	var problems []string
	if len(info.Systems) == 0 {
		problems = append(problems, fmt.Sprintf("no systems: an adapter claims %s, %s or both", adapter.LiteAgent, adapter.Blade))
	}
	problems = append(problems, p.pr.unknown...)
	if !info.Implements(adapter.OpCreate) {
		problems = append(problems, "agent/create is not among the operations")
	}
	if len(problems) > 0 {
		return CheckFailed, strings.Join(problems, "; ")
	}
	return CheckOK, fmt.Sprintf("%s %s driving %s %s; systems %v; capabilities %v; operations %v",
		info.Name, info.Version, info.Implementation.Name, info.Implementation.Version, info.Systems, info.Capabilities, info.Operations)
}

func probeUnknownMethod(ctx context.Context, c *checkRun) (Verdict, string) {
	err := c.call(ctx, bogusMethod, empty{}, nil)
	if adapter.KindOf(err) == adapter.KindUnsupported {
		return CheckOK, "answered -32601"
	}
	return CheckFailed, fmt.Sprintf("want error -32601 (method not found), got %v", describeErr(err))
}

// probeCreate creates the agent of the adapter's first system the later
// probes use.
func probeCreate(ctx context.Context, c *checkRun) (Verdict, string) {
	c.opts = adapter.AgentOptions{System: c.info.Systems[0], Workdir: filepath.Join(c.dir, "work"), Approval: true}
	_ = os.MkdirAll(c.opts.Workdir, 0o755)
	g, err := c.p.NewAgent(ctx, c.opts, c.host)
	if err != nil {
		return CheckFailed, "a minimal valid agent was refused: " + describeErr(err)
	}
	c.agent = g
	return CheckOK, "a minimal agent was created"
}

func probeCreateInvalid(ctx context.Context, c *checkRun) (Verdict, string) {
	bad := c.opts
	bad.MCPServers = json.RawMessage(`{"bad alias!": {"command": "x"}}`)
	if rule, declared := c.noConfigRules(); declared {
		return CheckSkipped, fmt.Sprintf("the adapter declares %s not implemented", rule)
	}
	_, err := c.p.NewAgent(ctx, bad, c.host)
	switch {
	case expectKind(err, adapter.KindName, adapter.KindConfig):
		return CheckOK, fmt.Sprintf("an invalid alias was refused with kind %s", adapter.KindOf(err))
	case err == nil:
		// An implementation that accepts the alias (a third-party SDK
		// without the product's naming rules) breaks a rule, which is the
		// verdict of `mcpconform run` (LA-NAME-03), not a fault of the
		// adapter's protocol.
		return CheckSkipped, "the implementation accepted the invalid alias \"bad alias!\": `mcpconform run` judges that (LA-NAME-03)"
	}
	return CheckFailed, fmt.Sprintf("an invalid alias in mcpServers: want kind name or config, got %v", describeErr(err))
}

func probeList(ctx context.Context, c *checkRun) (Verdict, string) {
	l, err := c.agent.List(ctx)
	if err != nil {
		return CheckFailed, describeErr(err)
	}
	if len(l) != 0 {
		return CheckFailed, fmt.Sprintf("an agent without configuration lists %d servers", len(l))
	}
	return CheckOK, "an empty registry lists no server"
}

func probeRegisterInvalid(ctx context.Context, c *checkRun) (Verdict, string) {
	if rule, declared := c.noConfigRules(); declared {
		return CheckSkipped, "the adapter declares " + rule + " not implemented"
	}
	err := c.agent.Register(ctx, "web", json.RawMessage(`{"url": "https://mcp.test/mcp"}`))
	if !expectKind(err, adapter.KindConfig) {
		return CheckFailed, "an entry with a url but no type: want kind config, got " + describeErr(err)
	}
	err = c.agent.Register(ctx, "a.b", json.RawMessage(`{"type": "http", "url": "https://mcp.test/mcp"}`))
	if !expectKind(err, adapter.KindName) {
		return CheckFailed, "alias \"a.b\": want kind name, got " + describeErr(err)
	}
	return CheckOK, "invalid entries were refused with kinds config and name"
}

func probeUnregisterUnknown(ctx context.Context, c *checkRun) (Verdict, string) {
	err := c.agent.Unregister(ctx, "nobody")
	if !expectKind(err, adapter.KindNotFound) {
		return CheckFailed, "an unknown name: want kind not_found, got " + describeErr(err)
	}
	return CheckOK, "an unknown name was refused with kind not_found"
}

func probeSend(ctx context.Context, c *checkRun) (Verdict, string) {
	res, err := c.agent.Send(ctx, "hello")
	if err != nil {
		return CheckFailed, describeErr(err)
	}
	host := c.host
	host.mu.Lock()
	n := len(host.models)
	var first adapter.ModelRequest
	if n > 0 {
		first = host.models[0]
	}
	host.mu.Unlock()
	switch {
	case n == 0:
		return CheckFailed, "the send never called host/model"
	case len(first.Messages) == 0 || !strings.Contains(first.Messages[len(first.Messages)-1].Text, "hello"):
		return CheckFailed, "host/model did not carry the prompt as the last message"
	case res.Text != "done":
		return CheckFailed, fmt.Sprintf("the send returned %q, not the model's text \"done\"", res.Text)
	}
	return CheckOK, "host/model was called and its text returned"
}

func probeCancellation(ctx context.Context, c *checkRun) (Verdict, string) {
	host := c.host
	host.mu.Lock()
	host.hang = true
	host.mu.Unlock()
	defer func() { host.mu.Lock(); host.hang = false; host.mu.Unlock() }()
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { _, err := c.agent.Send(cctx, "wait"); done <- err }()
	time.AfterFunc(200*time.Millisecond, cancel)
	select {
	case err := <-done:
		if adapter.IsFailure(err) {
			return CheckFailed, describeErr(err)
		}
		return CheckOK, "a cancelled send ended"
	case <-time.After(10 * time.Second):
		return CheckFailed, "a send whose model never answers did not end within 10 s of $/cancelRequest"
	}
}

func probeRun(ctx context.Context, c *checkRun) (Verdict, string) {
	// The cancelled send before may still be winding down in the adapter:
	// the runner stops waiting at $/cancelRequest.
	if c.info.Implements(adapter.OpAwaitIdle) {
		if err := c.agent.AwaitIdle(ctx); err != nil {
			return CheckFailed, "agent/awaitIdle before the run: " + describeErr(err)
		}
	}
	res, err := c.agent.Run(ctx, "hello again")
	if err != nil {
		return CheckFailed, describeErr(err)
	}
	if res.Text != "done" {
		return CheckFailed, fmt.Sprintf("the run returned %q, not the model's text \"done\"", res.Text)
	}
	return CheckOK, "a run called host/model and returned its text"
}

func probeProject(ctx context.Context, c *checkRun) (Verdict, string) {
	pr, err := c.agent.Project(ctx, json.RawMessage(`{"content":[{"type":"text","text":"hello"}]}`))
	if err != nil {
		return CheckFailed, describeErr(err)
	}
	if pr.Bytes <= 0 || pr.Archived || pr.IsError || !strings.Contains(pr.Text, "hello") {
		return CheckFailed, fmt.Sprintf("a 5-byte text result projected as %d bytes, archived=%v, isError=%v, text %q", pr.Bytes, pr.Archived, pr.IsError, pr.Text)
	}
	return CheckOK, fmt.Sprintf("a small text result is projected inline (%d bytes)", pr.Bytes)
}

func probeSubagent(ctx context.Context, c *checkRun) (Verdict, string) {
	sub, err := c.agent.SubAgent(ctx, adapter.SubAgentOptions{})
	if err != nil {
		return CheckFailed, describeErr(err)
	}
	if c.info.Implements(adapter.OpList) {
		if _, err := sub.List(ctx); err != nil {
			return CheckFailed, "list() of the sub-agent: " + describeErr(err)
		}
	}
	if c.info.Implements(adapter.OpClose) {
		if err := sub.Close(ctx); err != nil {
			return CheckFailed, "closing the sub-agent: " + describeErr(err)
		}
	}
	return CheckOK, "a sub-agent was created, listed and closed"
}

func probeAwaitIdle(ctx context.Context, c *checkRun) (Verdict, string) {
	if err := c.agent.AwaitIdle(ctx); err != nil {
		return CheckFailed, describeErr(err)
	}
	return CheckOK, "an idle agent is idle"
}

func probeClose(ctx context.Context, c *checkRun) (Verdict, string) {
	if err := c.agent.Close(ctx); err != nil {
		return CheckFailed, describeErr(err)
	}
	if c.info.Implements(adapter.OpSend) {
		_, err := c.agent.Send(ctx, "after close")
		if !expectKind(err, adapter.KindClosed) {
			return CheckFailed, "a send after close: want kind closed, got " + describeErr(err)
		}
	}
	return CheckOK, "closed, and refuses work afterwards with kind closed"
}

// probeBladeSession checks a Blade session's runtime API, when the
// adapter claims Blade.
func probeBladeSession(ctx context.Context, c *checkRun) (Verdict, string) {
	bo := adapter.AgentOptions{System: adapter.Blade, Workdir: c.opts.Workdir, Approval: true}
	s, err := c.p.NewAgent(ctx, bo, c.host)
	if err != nil {
		return CheckFailed, "a Blade session without servers was refused: " + describeErr(err)
	}
	defer s.Close(ctx)
	if st, err := s.MCPStatus(ctx); err != nil || len(st) != 0 {
		return CheckFailed, fmt.Sprintf("agent/mcpStatus of a session without servers: want [], got %v %s", st, describeErr(err))
	}
	if c.info.Implements(adapter.OpMCPListTools) {
		if t, err := s.MCPListTools(ctx); err != nil || len(t) != 0 {
			return CheckFailed, fmt.Sprintf("agent/mcpListTools of a session without servers: want [], got %v %s", t, describeErr(err))
		}
	}
	if c.info.Implements(adapter.OpMCPConnect) {
		if err := s.MCPConnect(ctx, "nobody"); !expectKind(err, adapter.KindNotFound) {
			return CheckFailed, "agent/mcpConnect of an unknown server: want kind not_found, got " + describeErr(err)
		}
	}
	return CheckOK, "a session without servers reports none, lists no tool and refuses an unknown name"
}

// probeUnknownAgent sends an operation to an agent that does not exist.
func probeUnknownAgent(ctx context.Context, c *checkRun) (Verdict, string) {
	err := c.call(ctx, string(adapter.OpSend), SendParams{AgentID: "no-such-agent", Prompt: "x"}, nil)
	if adapter.KindOf(err) == "" || adapter.IsFailure(err) {
		return CheckFailed, fmt.Sprintf("agent/send to an unknown agent: want an error, got %v", describeErr(err))
	}
	return CheckOK, fmt.Sprintf("refused with kind %s", adapter.KindOf(err))
}

// probeReuse, for an adapter that declares reuse, ends the scenario and
// begins another: scenario/end answered, scenario/begin answered, the
// last scenario's agent unknown, and a new agent created in the new one.
func probeReuse(ctx context.Context, c *checkRun) (Verdict, string) {
	if !c.info.Supports(adapter.CapReuse) {
		return CheckSkipped, fmt.Sprintf("the adapter does not declare %q", adapter.CapReuse)
	}
	if err := c.call(ctx, MethodScenarioEnd, empty{}, nil); err != nil {
		return CheckFailed, "scenario/end: " + describeErr(err)
	}
	if err := c.call(ctx, MethodScenarioBegin, BeginParams{Dir: c.env.Dir, Environ: c.target.environ(c.env)}, nil); err != nil {
		return CheckFailed, "scenario/begin: " + describeErr(err)
	}
	if ag, ok := c.agent.(*agent); ok {
		err := c.call(ctx, string(adapter.OpSend), SendParams{AgentID: ag.id, Prompt: "x"}, nil)
		if adapter.KindOf(err) != adapter.KindNotFound {
			return CheckFailed, fmt.Sprintf("agent/send to the last scenario's agent %q: want kind %s, got %v", ag.id, adapter.KindNotFound, describeErr(err))
		}
	}
	if _, err := c.p.NewAgent(ctx, c.opts, c.host); err != nil {
		return CheckFailed, "agent/create in the scenario begun: " + describeErr(err)
	}
	return CheckOK, "ended the scenario (its agent forgotten) and began another, in which an agent was created"
}

// probeShutdown sends shutdown; then the process must end once its stdin
// closes. It ends the shared process.
func probeShutdown(ctx context.Context, c *checkRun) (Verdict, string) {
	defer c.p.Close()
	if err := c.call(ctx, MethodShutdown, empty{}, nil); err != nil {
		return CheckFailed, describeErr(err)
	}
	c.p.pr.stdin.Close()
	if bounded.Closed(c.p.pr.exited, 5*time.Second) {
		return CheckOK, "answered, and exited when stdin closed"
	}
	return CheckFailed, "still running 5 s after shutdown and the end of stdin"
}

// probeUnknownVersion starts the adapter afresh and offers protocol
// version "999".
func probeUnknownVersion(ctx context.Context, c *checkRun) (Verdict, string) {
	p, err := c.target.start(c.env)
	if err != nil {
		return CheckFailed, err.Error()
	}
	defer p.Close()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	err = p.pr.conn.Call(cctx, MethodInitialize, InitializeParams{ProtocolVersion: "999", Runner: runnerPeer}, &InitializeResult{})
	var ae *adapter.Error
	switch {
	case err == nil:
		return CheckFailed, "protocol version \"999\" was accepted"
	case errors.As(err, &ae):
		return CheckOK, "refused: " + ae.Message
	}
	return CheckFailed, "want an error answer to protocol version \"999\", got " + err.Error()
}
