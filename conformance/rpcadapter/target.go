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
	// Limits bound what one adapter process may send the runner in one
	// scenario; a zero field takes its value from [DefaultLimits].
	Limits Limits
	// Reuse lets one adapter process serve several scenarios in turn, one
	// at a time, when the adapter declares [adapter.CapReuse]
	// (spec/adapter-protocol.md §1): each scenario ends with scenario/end
	// and a check that nothing of it is left, and the next begins with
	// scenario/begin, its directory and environment. A scenario opened
	// with [adapter.Env.Fresh] gets a process of its own all the same.
	// [Target.Close] ends the processes waiting for a scenario.
	Reuse bool

	pool pool

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
		t.unknown = a.pr.unknown
		t.info = a.pr.info
		a.Close()
	})
	return t.info, t.infoErr
}

// Open starts the adapter for one scenario world, or, with [Target.Reuse],
// hands the world an adapter process that has ended another scenario.
func (t *Target) Open(ctx context.Context, env adapter.Env) (adapter.Adapter, error) {
	reuse := t.Reuse && !env.Fresh
	if reuse {
		if p := t.reopen(ctx, env); p != nil {
			return p, nil
		}
	}
	p, err := t.open(ctx, env)
	if err != nil {
		return nil, err
	}
	if p.pr.reuse = reuse && p.pr.info.Supports(adapter.CapReuse); p.pr.reuse {
		p.pr.since = p.pr.cmd.Process.Pid // what it starts has a PID above its own
		p.pr.mark()
	}
	return p, nil
}

// environ is the environment of the adapter in world env.
func (t *Target) environ(env adapter.Env) []string {
	out := append([]string{}, env.Environ...)
	for k, v := range t.Env {
		out = append(out, k+"="+v)
	}
	return out
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
		p.close()
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
	p.pr.info, p.pr.unknown = res.decoded()
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
	cmd.Env = t.environ(env)
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
	pr := &adapterProc{target: t, cmd: cmd, stdin: stdin, stdout: outR, stderrPipe: errR, pipes: []uint64{inode(outR), inode(errR)},
		exited: make(chan struct{}), connDone: make(chan struct{}), stderrDone: make(chan struct{})}
	p := pr.begin()
	pr.conn = NewConn(outR, stdin, pr.handle)
	pr.conn.Observe = pr.observe
	pr.conn.Arrive = pr.arrive
	pr.conn.Limits = t.limits()
	go func() {
		pr.copyStderr(errR)
		close(pr.stderrDone)
	}()
	go func() {
		_ = pr.conn.Run()
		// A connection the adapter broke is read on, and discarded, so
		// that a writing adapter is not stuck and notices the end of its
		// stdin.
		_, _ = io.Copy(io.Discard, outR)
		close(pr.connDone)
	}()
	go func() {
		pr.waitErr = cmd.Wait()
		close(pr.exited)
	}()
	return p, nil
}

// begin makes a new scenario the one the process serves: its stderr
// tail, its last messages and its agents are its own.
func (a *adapterProc) begin() *process {
	p := &process{target: a.target, pr: a,
		stderr: tailbuf.New(64 << 10), traffic: newLines(30), hosts: map[string]adapter.Host{}}
	a.mu.Lock()
	p.reused = a.served > 0
	a.cur, a.idle = p, false
	a.served++
	a.mu.Unlock()
	return p
}

// adapterProc is one running adapter process. It serves one scenario at
// a time: a [process] per scenario, in turn when the adapter declares
// [adapter.CapReuse] and the target allows it (spec/adapter-protocol.md
// §1), else just one.
type adapterProc struct {
	target     *Target
	cmd        *exec.Cmd
	stdin      io.WriteCloser
	stdout     *os.File // the read ends of the adapter's stdout and stderr
	stderrPipe *os.File
	pipes      []uint64 // their inodes
	conn       *Conn
	info       adapter.Info
	unknown    []string      // what the handshake declared that the runner does not know
	exited     chan struct{} // closed when the adapter process has exited
	waitErr    error         // its exit status, once exited
	connDone   chan struct{} // closed when the connection's reader has ended
	stderrDone chan struct{} // closed when stderr has ended

	reuse bool // it may serve another scenario after this one

	mu      sync.Mutex
	cur     *process        // the scenario it serves, or the last one it served
	idle    bool            // between scenarios
	stray   string          // what the adapter sent while idle, if anything
	served  int             // scenarios begun
	drains  []chan struct{} // callers of drainStderr waiting
	sockets []string        // the inodes of the sockets it held as its first scenario began
	since   int             // the last PID given when the last scenario's leftovers were looked for
	agents  int             // agent ids handed out, over every scenario
}

// current is the scenario the process serves (or served last).
func (a *adapterProc) current() *process {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cur
}

// Write is the adapter's stderr: the current scenario's tail keeps it.
func (a *adapterProc) Write(b []byte) (int, error) { return a.current().stderr.Write(b) }

// process is one scenario's use of an adapter process: an
// [adapter.Adapter] for one world.
type process struct {
	target  *Target
	pr      *adapterProc
	stderr  *tailbuf.Buffer // what the adapter wrote on stderr during the scenario
	traffic *lines
	reused  bool // the process served another scenario before this one

	mu       sync.Mutex
	hosts    map[string]adapter.Host
	ended    bool // the scenario ended (scenario/end answered)
	released bool // and the process went back to its target: what becomes of it is another scenario's

	closeOnce sync.Once
	leftovers []adapter.Leftover // set by Close
	fault     error              // set by Close when the scenario's end found one
}

func (p *process) Info() adapter.Info { return p.pr.info }

// ImplementationPID implements [adapter.ProcessOwner]: the adapter
// process is the implementation's.
func (p *process) ImplementationPID() int { return p.pr.cmd.Process.Pid }

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
	out := []string{fmt.Sprintf("adapter process %d: %s", p.pr.cmd.Process.Pid, strings.Join(p.target.Command, " "))}
	if p.reused {
		out = append(out, "the adapter process had served other scenarios before this one (capability reuse)")
	}
	p.mu.Lock()
	released := p.released
	p.mu.Unlock()
	select {
	case <-p.pr.conn.Done():
		if !released { // else it ended in another scenario
			out = append(out, "adapter connection ended: "+p.reason())
		}
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
	err := p.pr.conn.Err()
	var pe *ProtocolError
	var fe *FloodError
	switch {
	case errors.As(err, &pe):
		return pe.Error()
	case errors.As(err, &fe):
		return fmt.Sprintf("flooded: the adapter sent more than %d %s in one scenario, the protocol's bound (spec/adapter-protocol.md §2); the message at byte offset %d passed it", fe.Bound, fe.What, fe.Offset)
	case errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) || err == nil:
		if bounded.Closed(p.pr.exited, time.Second) {
			p.stderrSettled()
			return fmt.Sprintf("the adapter process exited (%s)", exitStatus(p.pr.waitErr))
		}
		return "the adapter closed its stdout"
	}
	return err.Error()
}

// stderrSettled waits, briefly, for the stderr of an adapter that exited
// to be read to its end: its last words explain its death.
func (p *process) stderrSettled() {
	select {
	case <-p.pr.exited:
		bounded.Closed(p.pr.stderrDone, outputGrace)
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
	p.mu.Lock()
	f, released := p.fault, p.released
	p.mu.Unlock()
	if f != nil || released {
		return f
	}
	select {
	case <-p.pr.conn.Done():
	default:
		return nil
	}
	var pe *ProtocolError
	var fe *FloodError
	if err := p.pr.conn.Err(); errors.As(err, &pe) || errors.As(err, &fe) {
		return &adapter.Failure{Op: "the scenario", Reason: p.reason()}
	}
	return nil
}

// Reused implements [adapter.Reuser].
func (p *process) Reused() bool { return p.reused }

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
	p.mu.Lock()
	ended := p.ended
	p.mu.Unlock()
	if ended {
		// The process may serve another scenario by now.
		return &adapter.Failure{Op: method, Reason: "the scenario's adapter was closed"}
	}
	budget := "its deadline"
	if dl, ok := ctx.Deadline(); ok {
		budget = time.Until(dl).Round(100 * time.Millisecond).String()
	}
	err := p.pr.conn.CallThen(ctx, method, params, result, then)
	var re *RemoteError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re) && re.Code == CodeMethodNotFound && p.pr.info.Implements(adapter.Operation(method)):
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
		bounded.Closed(p.pr.conn.Done(), time.Second)
	}
	select {
	case <-p.pr.conn.Done():
		return &adapter.Failure{Op: method, Reason: p.reason()}
	default:
	}
	return &adapter.Failure{Op: method, Reason: err.Error()}
}

// newID assigns the next agent id and binds host to it. Ids are never
// given twice by one adapter process, even across scenarios.
func (p *process) newID(host adapter.Host) string {
	p.pr.mu.Lock()
	p.pr.agents++
	id := fmt.Sprintf("agent-%d", p.pr.agents)
	p.pr.mu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
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

// Close ends the scenario. An adapter process that may serve another
// (capability reuse) is asked to end it (scenario/end): when it answers,
// nothing it started is left running and no listener of it is left open,
// it waits for the target's next scenario. Otherwise, and always without
// reuse, Close ends the adapter process and its whole process group:
// shutdown, then stdin closed, then SIGTERM, then SIGKILL. Once the
// adapter process itself has exited, whatever it left running (in its
// group, or holding its stdout or stderr) is killed at once and named
// ([process.Leftovers]); Close returns when the connection and stderr
// have been read to their end, so that no callback is handled after it.
func (p *process) Close() error {
	p.closeOnce.Do(func() {
		if p.pr.reuse && p.endScenario() {
			p.mu.Lock()
			p.released = true
			p.mu.Unlock()
			p.target.release(p.pr)
			return
		}
		left := p.pr.stop(true)
		p.mu.Lock()
		p.leftovers = append(p.leftovers, left...)
		p.mu.Unlock()
	})
	return nil
}

// close ends the adapter process at once, without asking it to end the
// scenario or shut down: there is no protocol to speak.
func (p *process) close() {
	p.closeOnce.Do(func() { p.pr.stop(false) })
}

// endScenario asks the adapter to end the scenario and checks that the
// scenario left nothing behind; it reports whether the process may
// serve another. What it finds is the scenario's: leftovers are killed
// and named, a listener left open is the scenario's fault.
func (p *process) endScenario() bool {
	select {
	case <-p.pr.conn.Done():
		return false
	case <-p.pr.exited:
		return false
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	err := p.pr.conn.Call(ctx, MethodScenarioEnd, empty{}, nil)
	cancel()
	if err != nil {
		return false // ended the old way: shutdown, stdin, signals
	}
	p.pr.drainStderr() // what it wrote before its answer is this scenario's
	p.pr.mu.Lock()
	p.pr.idle = true
	p.mu.Lock()
	p.ended = true
	p.mu.Unlock()
	p.pr.mu.Unlock()
	left, listening := p.pr.leftBehind()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.leftovers = left
	if len(listening) > 0 {
		p.fault = &adapter.Failure{Op: MethodScenarioEnd, Reason: fmt.Sprintf("the adapter process still listens on %s after it ended the scenario: an adapter that declares %q keeps nothing of a scenario (spec/adapter-protocol.md §1)", strings.Join(listening, ", "), adapter.CapReuse)}
	}
	return len(left) == 0 && len(listening) == 0
}

// stop ends the adapter process and its whole process group, sending
// shutdown first when polite, and returns what it left running, killed.
func (a *adapterProc) stop(polite bool) []adapter.Leftover {
	select {
	case <-a.conn.Done():
	default:
		if polite {
			ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
			_ = a.conn.Call(ctx, MethodShutdown, empty{}, nil)
			cancel()
		}
	}
	a.stdin.Close()
	pgid := a.cmd.Process.Pid
	if !bounded.Closed(a.exited, 2*time.Second) {
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		if !bounded.Closed(a.exited, 2*time.Second) {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			bounded.Closed(a.exited, 5*time.Second)
		}
	}
	left := groupLeftovers(pgid)
	if !bounded.Closed(a.connDone, outputGrace) || !bounded.Closed(a.stderrDone, outputGrace) {
		// Someone outside the group still holds the adapter's output.
		left = append(left, pipeLeftovers(a.pipes)...)
	}
	// Read what is left in the pipes, then stop reading.
	bounded.Closed(a.connDone, 2*time.Second)
	a.stdout.Close()
	bounded.Closed(a.stderrDone, time.Second)
	a.stderrPipe.Close()
	bounded.Closed(a.connDone, 5*time.Second)
	bounded.Closed(a.stderrDone, time.Second)
	return left
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
