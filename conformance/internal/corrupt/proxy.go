package corrupt

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/mcpconform/mcpconform/conformance/internal/bounded"
)

// MaxLine is the longest protocol line the proxy relays, newline excluded
// (the protocol's own bound).
const MaxLine = 16 << 20

// A Hook sees every message that crosses the proxy, in the order each
// direction carries them, and returns what goes on in its place: m itself
// (perhaps changed), nothing, several messages, messages of the proxy's
// own ([State.Answer], [State.Call], ...), in either direction. Hooks run
// one at a time.
type Hook func(s *State, m *Msg) []*Msg

// pass is the hook that changes nothing.
func pass(_ *State, m *Msg) []*Msg { return []*Msg{m} }

// Proxy relays the adapter protocol between a runner and an adapter
// command it starts, showing every message to its Hook.
type Proxy struct {
	// Command is the adapter's command line, started in the proxy's
	// directory and environment, in a process group of its own.
	Command []string
	// Hook breaks the implementation; nil relays everything unchanged.
	Hook Hook
	// Stderr receives the adapter's stderr; nil discards it.
	Stderr io.Writer
	// Effects, once Run returned, is how many messages the hook did not
	// pass on as they came: 0 means the corruption never had a chance to
	// show in what crossed.
	Effects int
	// Grace bounds each wait of the shutdown: for the adapter to exit once
	// its stdin closed, for its output to end once it exited, and for the
	// runner's input to end once the adapter's output did. 0 means 10 s.
	Grace time.Duration
}

func (p *Proxy) grace() time.Duration {
	if p.Grace > 0 {
		return p.Grace
	}
	return 10 * time.Second
}

// Run starts the adapter and relays in (the runner's messages) to it and
// its messages to out, until the adapter's output ends; out is closed
// then. Closing in (or sending shutdown, which the adapter answers before
// its input ends) ends the adapter: its stdin is closed, it is waited for
// (bounded by Grace, then its process group is killed) and its group is
// reaped. When ctx ends first, the adapter's group is killed. Run returns
// once the adapter is reaped and in has ended, or Grace after that if in
// does not end; no goroutine of Run's outlives it but the one still
// reading an input that never ends.
func (p *Proxy) Run(ctx context.Context, in io.Reader, out io.WriteCloser) error {
	if len(p.Command) == 0 {
		return errors.New("corrupt: no adapter command")
	}
	hook := p.Hook
	if hook == nil {
		hook = pass
	}
	child, err := startChild(p.Command, p.Stderr)
	if err != nil {
		return err
	}
	s := newSession(hook, child.stdin, out)
	defer func() {
		s.mu.Lock()
		p.Effects = s.effects
		s.mu.Unlock()
	}()

	inDone := make(chan error, 1)
	go func() { inDone <- s.read(in, ToAdapter) }()
	childOut := make(chan error, 1)
	go func() { childOut <- s.read(child.stdout, ToRunner) }()

	var errs []error
	inEnded := false
	select {
	case err := <-inDone:
		// The runner's input ended and the adapter's stdin is closing: it
		// has Grace to exit.
		errs, inEnded = append(errs, err), true
		t := time.NewTimer(p.grace())
		select {
		case <-child.exited:
		case <-ctx.Done():
			child.kill()
		case <-t.C:
			child.kill()
		}
		t.Stop()
		errs = append(errs, p.drain(child, childOut))
	case err := <-childOut:
		errs = append(errs, err)
	case <-child.exited:
		errs = append(errs, p.drain(child, childOut))
	case <-ctx.Done():
		child.kill()
		errs = append(errs, p.drain(child, childOut), ctx.Err())
	}
	// Everything the adapter said goes out before out closes.
	s.queues[ToRunner].close()
	errs = append(errs, s.queues[ToRunner].wait())
	// The runner's input may not have ended: the adapter's stdin closes
	// now anyway, so that it exits.
	s.queues[ToAdapter].close()
	if !bounded.Closed(child.exited, p.grace()) {
		child.kill()
		<-child.exited
	}
	// With the adapter gone, a write still blocked on its stdin fails.
	child.reap()
	_ = s.queues[ToAdapter].wait()
	if !inEnded {
		select {
		case err := <-inDone:
			errs = append(errs, err)
		case <-time.After(p.grace()):
		}
	}
	return errors.Join(errs...)
}

// drain waits for the end of the adapter's output once it exited or was
// killed: what it wrote is still to be read, unless something it left
// behind holds its stdout open past Grace.
func (p *Proxy) drain(c *child, out <-chan error) error {
	select {
	case err := <-out:
		return err
	case <-time.After(p.grace()):
		c.stdout.Close()
		return <-out
	}
}

// session is the proxy's state while it relays: the hook and what it
// knows, the requests in flight in each direction, and the output queues.
type session struct {
	hook  Hook
	state *State

	mu sync.Mutex // serializes hooks, the pending maps and queueing
	// pending are the requests sent on in each direction, by id, awaiting
	// their answer from the other direction.
	pending [2]map[string]*Msg
	queues  [2]*queue
	// effects counts the messages the hook did not pass on as they came.
	effects int
}

// newSession returns a session writing to the adapter and to the runner.
func newSession(hook Hook, toAdapter, toRunner io.WriteCloser) *session {
	s := &session{hook: hook, state: newState(), pending: [2]map[string]*Msg{{}, {}}}
	s.state.pending = &s.pending
	s.queues[ToAdapter] = newQueue(toAdapter)
	s.queues[ToRunner] = newQueue(toRunner)
	return s
}

// read relays the lines of r travelling d until r ends. When the runner's
// input ends, the adapter's stdin is closed after what was queued for it.
func (s *session) read(r io.Reader, d Dir) error {
	br := bufio.NewReaderSize(r, 64<<10)
	defer func() {
		if d == ToAdapter {
			s.queues[ToAdapter].close()
		}
	}()
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			s.handle(decode(line, d))
		}
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) {
				return nil
			}
			return fmt.Errorf("reading %s: %w", d, err)
		}
	}
}

// readLine reads one line without its newline, refusing lines over
// [MaxLine]. A last line without a newline is returned with io.EOF.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine+1 {
			return nil, fmt.Errorf("a line is longer than %d bytes", MaxLine)
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		return line, err
	}
}

// handle shows one message to the hook and queues what it returns. The
// answer to one of the proxy's own requests goes to the request's then,
// never on.
func (s *session) handle(m *Msg) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.IsResponse() {
		key := idKey(m.ID)
		if req, ok := s.pending[m.Dir.reverse()][key]; ok {
			delete(s.pending[m.Dir.reverse()], key)
			m.Method, m.Request = req.Method, req
			if req.own {
				if req.then != nil {
					s.emit(req.then(s.state, m))
				}
				return
			}
		}
	}
	s.state.observe(m)
	out := s.hook(s.state, m)
	if len(out) != 1 || out[0] != m || m.changed() {
		s.effects++
	}
	if m.Method == "initialize" && m.Kind == Result {
		withoutReuse(m)
	}
	s.emit(out)
}

// withoutReuse takes the capability reuse out of the adapter's handshake:
// a proxy's hooks keep what crossed in one scenario ([State]), so a
// proxy serves one scenario, whatever the adapter behind it can do.
func withoutReuse(m *Msg) {
	m.EditResult(func(r Object) {
		caps, _ := r["capabilities"].([]any)
		kept := []any{}
		for _, c := range caps {
			if c != "reuse" {
				kept = append(kept, c)
			}
		}
		r["capabilities"] = kept
	})
}

// emit queues messages, tracking the requests among them.
func (s *session) emit(msgs []*Msg) {
	for _, o := range msgs {
		if o == nil {
			continue
		}
		if o.Kind == Request {
			s.pending[o.Dir][idKey(o.ID)] = o
		}
		s.queues[o.Dir].push(o)
	}
}

// idKey is a map key for a request id: its compact JSON.
func idKey(id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}

// queue writes messages in order to one side, in a goroutine of its own,
// so that no hook waits on a slow reader.
type queue struct {
	w      io.WriteCloser
	mu     sync.Mutex
	items  []*Msg
	closed bool
	wake   chan struct{}
	done   chan struct{}
	err    error
}

func newQueue(w io.WriteCloser) *queue {
	q := &queue{w: w, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go q.run()
	return q
}

// push queues a message; after close it is dropped (the side is gone).
func (q *queue) push(m *Msg) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	q.items = append(q.items, m)
	q.signal()
}

// close lets the queue write what it holds, then close its side.
func (q *queue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.signal()
}

func (q *queue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// wait waits until the queue closed its side and returns the first write
// error.
func (q *queue) wait() error {
	<-q.done
	return q.err
}

func (q *queue) run() {
	defer close(q.done)
	bw := bufio.NewWriterSize(q.w, 64<<10)
	for range q.wake {
		q.mu.Lock()
		items, closed := q.items, q.closed
		q.items = nil
		q.mu.Unlock()
		for _, m := range items {
			line, err := m.encode()
			if err == nil && q.err == nil {
				_, err = bw.Write(append(line, '\n'))
			}
			if err != nil && q.err == nil {
				q.err = err
			}
		}
		if err := bw.Flush(); err != nil && q.err == nil {
			q.err = err
		}
		if closed {
			if err := q.w.Close(); err != nil && q.err == nil && !errors.Is(err, os.ErrClosed) {
				q.err = err
			}
			return
		}
	}
}

// child is the adapter process.
type child struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end of its stdin
	stdout *os.File // our end of its stdout
	exited chan struct{}
}

// startChild starts the adapter command in a process group of its own.
// Its stdin and stdout are pipes whose ends the proxy owns, so that its
// output can be read to the end after it exits.
func startChild(argv []string, stderr io.Writer) (*child, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout = inR, outW
	if stderr != nil {
		cmd.Stderr = stderr
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("corrupt: starting the adapter %q: %w", argv, err)
	}
	c := &child{cmd: cmd, stdin: inW, stdout: outR, exited: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// kill ends the adapter's process group: SIGTERM, then SIGKILL.
func (c *child) kill() {
	pgid := c.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	if !bounded.Closed(c.exited, 2*time.Second) {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// reap kills what the adapter left in its process group and releases the
// pipes.
func (c *child) reap() {
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	c.stdin.Close()
	c.stdout.Close()
}
