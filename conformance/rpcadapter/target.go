package rpcadapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcpconform/mcpconform/internal/tailbuf"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/internal/bounded"
	"github.com/mcpconform/mcpconform/internal/safetext"
	"github.com/mcpconform/mcpconform/internal/scratch"
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
	// Limits bound what one adapter process (one scenario) may send the
	// runner; a zero field takes its value from [DefaultLimits].
	Limits Limits

	once    sync.Once
	info    adapter.Info
	unknown []string // what the handshake declared that the runner does not know
	infoErr error
}

var _ adapter.Target = (*Target)(nil)

// DefaultLimits are the bounds on what one adapter process may send the
// runner in one scenario (spec/adapter-protocol.md §2): hundreds of times
// what the reference sends in any scenario (at most 45 messages, 2
// notifications and 64 KiB), and little enough that a run against an
// adapter that sends the largest messages it may stays within the
// runner's memory: the bytes of three of the largest messages.
var DefaultLimits = Limits{Notifications: 10_000, Bytes: 3 * MaxLine, InFlight: 256}

// limits are t's bounds, defaults filled in.
func (t *Target) limits() Limits {
	l := t.Limits
	if l.Notifications == 0 {
		l.Notifications = DefaultLimits.Notifications
	}
	if l.Bytes == 0 {
		l.Bytes = DefaultLimits.Bytes
	}
	if l.InFlight == 0 {
		l.InFlight = DefaultLimits.InFlight
	}
	return l
}

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
		dir, err := scratch.Dir("adapter")
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
		t.unknown = a.unknown
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
	var res handshake
	fail := func(err error) (*process, error) {
		p.close(false) // no shutdown: there is no protocol to speak
		return nil, &StartError{Err: err, Lines: p.Diagnostics()}
	}
	if err := p.call(hctx, MethodInitialize, InitializeParams{ProtocolVersion: ProtocolVersion, Runner: runnerPeer}, &res); err != nil {
		var ae *adapter.Error
		if errors.As(err, &ae) {
			err = &adapter.Failure{Op: MethodInitialize, Reason: "the adapter refused the handshake: " + ae.Message}
		}
		return fail(err)
	}
	if res.ProtocolVersion != ProtocolVersion {
		return fail(&adapter.Failure{Op: MethodInitialize, Reason: fmt.Sprintf("the adapter speaks protocol version %q; the runner speaks %q", safetext.Cap(res.ProtocolVersion, safetext.Field), ProtocolVersion)})
	}
	if res.Adapter.Name == "" || res.Implementation.Name == "" {
		return fail(&adapter.Failure{Op: MethodInitialize, Reason: "the handshake result names no adapter or no implementation"})
	}
	p.info, p.unknown = res.decoded()
	return p, nil
}

// StartError is an adapter process that could not be started or failed
// its handshake, with what the runner saw of it: its command, why the
// connection ended, its last messages and the tail of its stderr.
type StartError struct {
	Err   error
	Lines []string
}

func (e *StartError) Error() string { return e.Err.Error() }

// Diagnostics implements [adapter.Diagnoser].
func (e *StartError) Diagnostics() []string { return e.Lines }

// Unwrap returns the failure.
func (e *StartError) Unwrap() error { return e.Err }

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
	// The runner's own pipes for stdout and stderr: Wait then waits for
	// the adapter process only, never for a grandchild that holds them.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, &adapter.Failure{Op: "starting the adapter", Reason: fmt.Sprintf("%q does not start: %v", strings.Join(t.Command, " "), err)}
	}
	p := &process{target: t, cmd: cmd, stdin: stdin, stdout: outR, stderrPipe: errR, pipes: []uint64{inode(outR), inode(errR)},
		stderr: tailbuf.New(64 << 10), traffic: newLines(30), hosts: map[string]adapter.Host{},
		exited: make(chan struct{}), connDone: make(chan struct{}), stderrDone: make(chan struct{})}
	p.conn = NewConn(outR, stdin, p.handle)
	p.conn.Observe = p.observe
	p.conn.Arrive = p.arrive
	p.conn.Limits = t.limits()
	go func() {
		_, _ = io.Copy(p.stderr, errR)
		close(p.stderrDone)
	}()
	go func() {
		_ = p.conn.Run()
		// A connection the adapter broke is read on, and discarded, so
		// that a writing adapter is not stuck and notices the end of its
		// stdin.
		_, _ = io.Copy(io.Discard, outR)
		close(p.connDone)
	}()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// process is one running adapter: an [adapter.Adapter] for one world.
type process struct {
	target     *Target
	cmd        *exec.Cmd
	stdin      io.WriteCloser
	stdout     *os.File // the read ends of the adapter's stdout and stderr
	stderrPipe *os.File
	pipes      []uint64 // their inodes
	conn       *Conn
	stderr     *tailbuf.Buffer
	traffic    *lines
	info       adapter.Info
	unknown    []string      // what the handshake declared that the runner does not know
	exited     chan struct{} // closed when the adapter process has exited
	waitErr    error         // its exit status, once exited
	connDone   chan struct{} // closed when the connection's reader has ended
	stderrDone chan struct{} // closed when stderr has ended

	mu     sync.Mutex
	hosts  map[string]adapter.Host
	agents int

	closeOnce sync.Once
	leftovers []adapter.Leftover // set by Close
}

func (p *process) Info() adapter.Info { return p.info }

// ImplementationPID implements [adapter.ProcessOwner]: the adapter
// process is the implementation's.
func (p *process) ImplementationPID() int { return p.cmd.Process.Pid }

// observe keeps the last messages for diagnostics and passes them on.
func (p *process) observe(t Traffic) {
	dir := "←"
	if t.Sent {
		dir = "→"
	}
	p.traffic.add(fmt.Sprintf("adapter %s %s", dir, safetext.CapBytes(t.Raw, 200)))
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
	p.stderrSettled()
	for _, l := range p.Leftovers() {
		out = append(out, l.String())
	}
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
	var fe *FloodError
	switch {
	case errors.As(err, &pe):
		return pe.Error()
	case errors.As(err, &fe):
		return fmt.Sprintf("flooded: the adapter sent more than %d %s in one scenario, the protocol's bound (spec/adapter-protocol.md §2); the message at byte offset %d passed it", fe.Bound, fe.What, fe.Offset)
	case errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) || err == nil:
		if bounded.Closed(p.exited, time.Second) {
			p.stderrSettled()
			return fmt.Sprintf("the adapter process exited (%s)", exitStatus(p.waitErr))
		}
		return "the adapter closed its stdout"
	}
	return err.Error()
}

// stderrSettled waits, briefly, for the stderr of an adapter that exited
// to be read to its end: its last words explain its death.
func (p *process) stderrSettled() {
	select {
	case <-p.exited:
		bounded.Closed(p.stderrDone, outputGrace)
	default:
	}
}

// exitStatus describes how a process ended.
func exitStatus(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// Fault implements [adapter.Faulter]: a connection the adapter broke (a
// malformed message, an answer to nothing, a flood), whether or not an
// operation was waiting.
func (p *process) Fault() error {
	select {
	case <-p.conn.Done():
	default:
		return nil
	}
	var pe *ProtocolError
	var fe *FloodError
	if err := p.conn.Err(); errors.As(err, &pe) || errors.As(err, &fe) {
		return &adapter.Failure{Op: "the scenario", Reason: p.reason()}
	}
	return nil
}

// Leftovers implements [adapter.LeftoverReporter].
func (p *process) Leftovers() []adapter.Leftover {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.leftovers)
}

// call sends a request, turning anything but an implementation error into
// an [adapter.Failure].
func (p *process) call(ctx context.Context, method string, params, result any) error {
	return p.callThen(ctx, method, params, result, nil)
}

// callThen is call, running then as the answer arrives ([Conn.CallThen]).
func (p *process) callThen(ctx context.Context, method string, params, result any, then func()) error {
	budget := "its deadline"
	if dl, ok := ctx.Deadline(); ok {
		budget = time.Until(dl).Round(100 * time.Millisecond).String()
	}
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
		return &adapter.Failure{Op: method, Reason: fmt.Sprintf("the adapter did not answer %s within %s", method, budget)}
	case ctx.Err() != nil:
		return &adapter.Error{Kind: adapter.KindCancelled, Message: "the runner cancelled " + method}
	}
	// A request that could not be written to an adapter that is gone (its
	// stdin closed as it exited): how it ended says more than the write.
	if errors.Is(err, os.ErrClosed) || errors.Is(err, syscall.EPIPE) {
		bounded.Closed(p.conn.Done(), time.Second)
	}
	select {
	case <-p.conn.Done():
		return &adapter.Failure{Op: method, Reason: p.reason()}
	default:
	}
	return &adapter.Failure{Op: method, Reason: err.Error()}
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
// then stdin closed, then SIGTERM, then SIGKILL. Once the adapter process
// itself has exited, whatever it left running (in its group, or holding
// its stdout or stderr) is killed at once and named ([process.Leftovers]);
// Close returns when the connection and stderr have been read to their
// end, so that no callback is handled after it.
func (p *process) Close() error { return p.close(true) }

// close is Close, sending shutdown first when polite.
func (p *process) close(polite bool) error {
	p.closeOnce.Do(func() {
		select {
		case <-p.conn.Done():
		default:
			if polite {
				ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
				_ = p.conn.Call(ctx, MethodShutdown, empty{}, nil)
				cancel()
			}
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
		left := groupLeftovers(pgid)
		if !bounded.Closed(p.connDone, outputGrace) || !bounded.Closed(p.stderrDone, outputGrace) {
			// Someone outside the group still holds the adapter's output.
			left = append(left, pipeLeftovers(p.pipes)...)
		}
		p.mu.Lock()
		p.leftovers = left
		p.mu.Unlock()
		// Read what is left in the pipes, then stop reading.
		bounded.Closed(p.connDone, 2*time.Second)
		p.stdout.Close()
		bounded.Closed(p.stderrDone, time.Second)
		p.stderrPipe.Close()
		bounded.Closed(p.connDone, 5*time.Second)
		bounded.Closed(p.stderrDone, time.Second)
	})
	return nil
}

// outputGrace is how long the adapter's output may stay open after the
// adapter and its group are gone before the runner looks for who holds it.
const outputGrace = 500 * time.Millisecond

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

// MCPHealth implements [adapter.HealthReader].
func (g *agent) MCPHealth(ctx context.Context) ([]adapter.ServerHealth, error) {
	var res MCPHealthResult
	err := g.p.call(ctx, string(adapter.OpMCPHealth), AgentRef{AgentID: g.id}, &res)
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
