package rpcadapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/internal/bounded"
)

// runnerPeer identifies the runner in the handshake.
var runnerPeer = Peer{Name: "mcpconform", Version: "0.1.0"}

// Target is an adapter program: the runner starts Command once per
// scenario world, in the world's directory and environment plus Env, and
// speaks the protocol with it.
type Target struct {
	// Command is the adapter's command line.
	Command []string
	// Env is added to every scenario's environment.
	Env map[string]string
	// HandshakeTimeout bounds starting the adapter and its handshake; 0
	// means 20 s.
	HandshakeTimeout time.Duration
	// Observe, if set, sees every protocol message of every adapter
	// process, in both directions.
	Observe func(Traffic)

	once    sync.Once
	info    adapter.Info
	infoErr error
}

var _ adapter.Target = (*Target)(nil)

func (t *Target) handshakeTimeout() time.Duration {
	if t.HandshakeTimeout > 0 {
		return t.HandshakeTimeout
	}
	return 20 * time.Second
}

// Info starts the adapter once, in a scratch directory, to learn what it
// claims; the answer is kept for the run.
func (t *Target) Info(ctx context.Context) (adapter.Info, error) {
	t.once.Do(func() {
		dir, err := os.MkdirTemp("", "mcpconform-adapter-")
		if err != nil {
			t.infoErr = err
			return
		}
		defer os.RemoveAll(dir)
		a, err := t.open(ctx, adapter.Env{Dir: dir, Environ: os.Environ()})
		if err != nil {
			t.infoErr = err
			return
		}
		t.info = a.info
		a.Close()
	})
	return t.info, t.infoErr
}

// Open starts the adapter for one scenario world.
func (t *Target) Open(ctx context.Context, env adapter.Env) (adapter.Adapter, error) {
	return t.open(ctx, env)
}

// open starts the adapter process and performs the handshake.
func (t *Target) open(ctx context.Context, env adapter.Env) (*process, error) {
	p, err := t.start(env)
	if err != nil {
		return nil, err
	}
	hctx, cancel := context.WithTimeout(ctx, t.handshakeTimeout())
	defer cancel()
	var res InitializeResult
	if err := p.call(hctx, MethodInitialize, InitializeParams{ProtocolVersion: ProtocolVersion, Runner: runnerPeer}, &res); err != nil {
		p.Close()
		var ae *adapter.Error
		if errors.As(err, &ae) {
			return nil, &adapter.Failure{Op: MethodInitialize, Reason: "the adapter refused the handshake: " + ae.Message}
		}
		return nil, err
	}
	if res.ProtocolVersion != ProtocolVersion {
		p.Close()
		return nil, &adapter.Failure{Op: MethodInitialize, Reason: fmt.Sprintf("the adapter speaks protocol version %q; the runner speaks %q", res.ProtocolVersion, ProtocolVersion)}
	}
	if res.Adapter.Name == "" || res.Implementation.Name == "" {
		p.Close()
		return nil, &adapter.Failure{Op: MethodInitialize, Reason: "the handshake result names no adapter or no implementation"}
	}
	p.info = res.info()
	return p, nil
}

// start starts the adapter process, without the handshake.
func (t *Target) start(env adapter.Env) (*process, error) {
	if len(t.Command) == 0 {
		return nil, errors.New("the adapter target has no command")
	}
	cmd := exec.Command(t.Command[0], t.Command[1:]...)
	cmd.Dir = env.Dir
	cmd.Env = append([]string{}, env.Environ...)
	for k, v := range t.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &process{target: t, cmd: cmd, stderr: newRing(64 << 10), traffic: newLines(20), hosts: map[string]adapter.Host{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	// A grandchild holding stderr open must not keep Wait from returning.
	cmd.WaitDelay = 2 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, &adapter.Failure{Op: "starting the adapter", Reason: fmt.Sprintf("%q does not start: %v", strings.Join(t.Command, " "), err)}
	}
	p.stdin = stdin
	p.conn = NewConn(stdout, stdin, p.handle)
	p.conn.Observe = p.observe
	go func() {
		_ = p.conn.Run()
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// process is one running adapter: an [adapter.Adapter] for one world.
type process struct {
	target  *Target
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	conn    *Conn
	stderr  *ring
	traffic *lines
	info    adapter.Info
	exited  chan struct{}
	waitErr error

	mu     sync.Mutex
	hosts  map[string]adapter.Host
	agents int

	closeOnce sync.Once
}

func (p *process) Info() adapter.Info { return p.info }

// observe keeps the last messages for diagnostics and passes them on.
func (p *process) observe(t Traffic) {
	dir := "←"
	if t.Sent {
		dir = "→"
	}
	p.traffic.add(fmt.Sprintf("adapter %s %s", dir, truncate(string(t.Raw), 200)))
	if p.target.Observe != nil {
		p.target.Observe(t)
	}
}

// Console returns the tail of the adapter's stderr: the console of the
// implementation behind it.
func (p *process) Console() string { return p.stderr.String() }

// Diagnostics describes the adapter for a failing scenario.
func (p *process) Diagnostics() []string {
	out := []string{fmt.Sprintf("adapter process %d: %s", p.cmd.Process.Pid, strings.Join(p.target.Command, " "))}
	select {
	case <-p.conn.Done():
		out = append(out, "adapter connection ended: "+p.reason())
	default:
	}
	out = append(out, p.traffic.list()...)
	if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
		out = append(out, "adapter stderr (tail):")
		for _, l := range strings.Split(tail, "\n") {
			out = append(out, "  "+l)
		}
	}
	return out
}

// reason says why the connection ended.
func (p *process) reason() string {
	err := p.conn.Err()
	var pe *ProtocolError
	switch {
	case errors.As(err, &pe):
		return pe.Error()
	case errors.Is(err, io.EOF) || err == nil:
		select {
		case <-p.exited:
			return fmt.Sprintf("the adapter process exited (%v)", p.waitErr)
		case <-time.After(time.Second):
			return "the adapter closed its stdout"
		}
	}
	return err.Error()
}

// call sends a request, turning anything but an implementation error into
// an [adapter.Failure].
func (p *process) call(ctx context.Context, method string, params, result any) error {
	return p.callThen(ctx, method, params, result, nil)
}

// callThen is call, running then as the answer arrives ([Conn.CallThen]).
func (p *process) callThen(ctx context.Context, method string, params, result any, then func()) error {
	err := p.conn.CallThen(ctx, method, params, result, then)
	var re *RemoteError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re) && re.Code == CodeMethodNotFound && p.info.Implements(adapter.Operation(method)):
		return &adapter.Failure{Op: method, Reason: "the adapter declared this operation but answers -32601 (method not found)"}
	case errors.As(err, &re):
		return re.Contract
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &adapter.Failure{Op: method, Reason: "the adapter did not answer in time"}
	case ctx.Err() != nil:
		return &adapter.Error{Kind: adapter.KindCancelled, Message: "the runner cancelled " + method}
	}
	select {
	case <-p.conn.Done():
		return &adapter.Failure{Op: method, Reason: p.reason()}
	default:
	}
	return &adapter.Failure{Op: method, Reason: err.Error()}
}

// handle answers the adapter's host/* requests.
func (p *process) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	var ref AgentRef
	_ = json.Unmarshal(params, &ref)
	p.mu.Lock()
	host := p.hosts[ref.AgentID]
	p.mu.Unlock()
	if host == nil && strings.HasPrefix(method, "host/") {
		return nil, &adapter.Error{Kind: adapter.KindNotFound, Message: fmt.Sprintf("%s names an unknown agent %q", method, ref.AgentID)}
	}
	switch method {
	case MethodModel:
		var mp ModelParams
		if err := json.Unmarshal(params, &mp); err != nil {
			return nil, invalidParams(method, err)
		}
		return host.Model(ctx, mp.Request)
	case MethodApprove:
		var ap ApproveParams
		if err := json.Unmarshal(params, &ap); err != nil {
			return nil, invalidParams(method, err)
		}
		d, err := host.Approve(ctx, ap.Request)
		return ApproveResult{Decision: d}, err
	case MethodEvent:
		var ep EventParams
		if err := json.Unmarshal(params, &ep); err != nil {
			return nil, invalidParams(method, err)
		}
		host.Event(ctx, ep.Event)
		return nil, nil
	case MethodHook:
		var hp HookParams
		if err := json.Unmarshal(params, &hp); err != nil {
			return nil, invalidParams(method, err)
		}
		return empty{}, host.Hook(ctx, hp.Hook)
	case MethodValidate:
		var vp ValidateParams
		if err := json.Unmarshal(params, &vp); err != nil {
			return nil, invalidParams(method, err)
		}
		issues, err := host.Validate(ctx, vp.Request)
		return ValidateResult{Issues: orEmpty(issues)}, err
	case MethodExecute:
		var xp ExecuteParams
		if err := json.Unmarshal(params, &xp); err != nil {
			return nil, invalidParams(method, err)
		}
		res, err := host.Execute(ctx, xp.Request)
		return ExecuteResult{Result: res}, err
	case MethodPermission:
		var pp PermissionParams
		if err := json.Unmarshal(params, &pp); err != nil {
			return nil, invalidParams(method, err)
		}
		d, err := host.Permission(ctx, pp.Request)
		return PermissionResult{Decision: d}, err
	case MethodAuthorize:
		var ap AuthorizeParams
		if err := json.Unmarshal(params, &ap); err != nil {
			return nil, invalidParams(method, err)
		}
		cb, err := host.Authorize(ctx, ap.Request)
		return AuthorizeResult{CallbackURL: cb}, err
	case MethodProvider:
		var pp ProviderParams
		if err := json.Unmarshal(params, &pp); err != nil {
			return nil, invalidParams(method, err)
		}
		v, err := host.Provider(ctx, pp.Call)
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		return ProviderResult{Value: v}, err
	}
	return nil, &adapter.Error{Kind: adapter.KindUnsupported, Message: fmt.Sprintf("the runner has no method %q", method)}
}

// newID assigns the next agent id and binds host to it.
func (p *process) newID(host adapter.Host) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.agents++
	id := fmt.Sprintf("agent-%d", p.agents)
	p.hosts[id] = host
	return id
}

// NewAgent creates an agent in the adapter.
func (p *process) NewAgent(ctx context.Context, opts adapter.AgentOptions, host adapter.Host) (adapter.Agent, error) {
	id := p.newID(host)
	var res CreateResult
	if err := p.call(ctx, string(adapter.OpCreate), CreateParams{AgentID: id, Options: opts}, &res); err != nil {
		return nil, err
	}
	if res.AgentID != "" && res.AgentID != id {
		p.mu.Lock()
		p.hosts[res.AgentID] = host
		p.mu.Unlock()
		id = res.AgentID
	}
	return &agent{p: p, id: id, host: host, root: true}, nil
}

// Close ends the adapter process and its whole process group: shutdown,
// then stdin closed, then SIGTERM, then SIGKILL.
func (p *process) Close() error {
	p.closeOnce.Do(func() {
		select {
		case <-p.conn.Done():
		default:
			ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
			_ = p.conn.Call(ctx, MethodShutdown, empty{}, nil)
			cancel()
		}
		p.stdin.Close()
		pgid := p.cmd.Process.Pid
		if !bounded.Closed(p.exited, 2*time.Second) {
			_ = syscall.Kill(-pgid, syscall.SIGTERM)
			if !bounded.Closed(p.exited, 2*time.Second) {
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
				bounded.Closed(p.exited, 5*time.Second)
			}
		}
		// What the adapter left behind in its group goes too.
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	})
	return nil
}

// shutdownGrace is how long the runner waits for the answer to shutdown:
// the adapter closes its agents, reaping their children, before answering.
const shutdownGrace = 5 * time.Second

// agent is an agent living in the adapter process.
type agent struct {
	p    *process
	id   string
	host adapter.Host // a sub-agent shares its root's
	root bool
}

func (g *agent) Send(ctx context.Context, prompt string) (adapter.SendResult, error) {
	var res adapter.SendResult
	err := g.p.call(ctx, string(adapter.OpSend), SendParams{AgentID: g.id, Prompt: prompt}, &res)
	return res, err
}

func (g *agent) Run(ctx context.Context, prompt string) (adapter.SendResult, error) {
	var res adapter.SendResult
	err := g.p.call(ctx, string(adapter.OpRun), SendParams{AgentID: g.id, Prompt: prompt}, &res)
	return res, err
}

func (g *agent) SubAgent(ctx context.Context, opts adapter.SubAgentOptions) (adapter.Agent, error) {
	id := g.p.newID(g.host)
	if err := g.p.call(ctx, string(adapter.OpSubagent), SubagentParams{AgentID: g.id, SubAgentID: id, Options: opts}, nil); err != nil {
		return nil, err
	}
	return &agent{p: g.p, id: id, host: g.host}, nil
}

func (g *agent) Project(ctx context.Context, result json.RawMessage) (adapter.Projection, error) {
	var res adapter.Projection
	err := g.p.call(ctx, string(adapter.OpProject), ProjectParams{AgentID: g.id, Result: result}, &res)
	return res, err
}

func (g *agent) MCPStatus(ctx context.Context) ([]adapter.BladeServerStatus, error) {
	var res MCPStatusResult
	err := g.p.call(ctx, string(adapter.OpMCPStatus), AgentRef{AgentID: g.id}, &res)
	return res.Servers, err
}

func (g *agent) MCPConnect(ctx context.Context, name string) error {
	return g.p.call(ctx, string(adapter.OpMCPConnect), NameParams{AgentID: g.id, Name: name}, nil)
}

func (g *agent) MCPDisconnect(ctx context.Context, name string) error {
	return g.p.call(ctx, string(adapter.OpMCPDisconnect), NameParams{AgentID: g.id, Name: name}, nil)
}

func (g *agent) MCPReconnect(ctx context.Context, name string) error {
	return g.p.call(ctx, string(adapter.OpMCPReconnect), NameParams{AgentID: g.id, Name: name}, nil)
}

func (g *agent) MCPListTools(ctx context.Context) ([]adapter.ToolInfo, error) {
	var res MCPListToolsResult
	err := g.p.call(ctx, string(adapter.OpMCPListTools), AgentRef{AgentID: g.id}, &res)
	return res.Tools, err
}

func (g *agent) Register(ctx context.Context, name string, entry json.RawMessage) error {
	return g.p.call(ctx, string(adapter.OpRegister), RegisterParams{AgentID: g.id, Name: name, Entry: entry}, nil)
}

func (g *agent) Unregister(ctx context.Context, name string) error {
	return g.p.call(ctx, string(adapter.OpUnregister), UnregisterParams{AgentID: g.id, Name: name}, nil)
}

func (g *agent) List(ctx context.Context) ([]adapter.ServerStatus, error) {
	var res ListResult
	if err := g.p.call(ctx, string(adapter.OpList), AgentRef{g.id}, &res); err != nil {
		return nil, err
	}
	if res.Servers == nil {
		return []adapter.ServerStatus{}, nil
	}
	return res.Servers, nil
}

func (g *agent) AwaitIdle(ctx context.Context) error {
	return g.p.call(ctx, string(adapter.OpAwaitIdle), AgentRef{g.id}, nil)
}

// Close closes the agent; a host that watches closes learns of it as the
// answer arrives, before any callback that came after it.
func (g *agent) Close(ctx context.Context) error {
	var then func()
	if w, ok := g.host.(adapter.CloseWatcher); ok && g.root {
		then = w.AgentClosed
	}
	return g.p.callThen(ctx, string(adapter.OpClose), AgentRef{g.id}, nil, then)
}

func (g *agent) AdvanceClock(ctx context.Context, d time.Duration) error {
	return g.p.call(ctx, string(adapter.OpAdvanceClock), AdvanceParams{AgentID: g.id, Ms: d.Milliseconds()}, nil)
}

func (g *agent) Logs(ctx context.Context) ([]string, error) {
	var res LogsResult
	err := g.p.call(ctx, string(adapter.OpLogs), AgentRef{g.id}, &res)
	return res.Lines, err
}

// invalidParams reports params that do not decode.
func invalidParams(method string, err error) error {
	return &adapter.Error{Kind: adapter.KindInternal, Message: fmt.Sprintf("the params of %s do not decode: %v", method, err)}
}
