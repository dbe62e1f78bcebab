package mcpfake

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testDeadline bounds every wait of a test.
const testDeadline = 30 * time.Second

// recorder is a record log with its server, for fake processes.
type recorder struct {
	log *record.Log
	srv *record.Server
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	log := record.NewLog()
	srv, err := record.NewServer(log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return &recorder{log: log, srv: srv}
}

// wait waits for cond on the log, failing the test at the deadline.
func (rc *recorder) wait(t *testing.T, what string, cond func([]record.Record) bool) []record.Record {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	defer cancel()
	rs, err := rc.log.Wait(ctx, cond)
	if err != nil {
		t.Fatalf("waiting for %s: %v; records: %s", what, err, dump(rs))
	}
	return rs
}

// dump renders records for failure messages, without their environments.
func dump(rs []record.Record) string {
	out := ""
	for _, r := range rs {
		r.Env = nil
		b, _ := json.Marshal(r)
		if len(b) > 400 {
			b = append(b[:400], "…"...)
		}
		out += "\n  " + string(b)
	}
	return out
}

// of returns the records of kind k.
func of(rs []record.Record, k record.Kind) []record.Record {
	var out []record.Record
	for _, r := range rs {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

// writeScript writes s to a temporary file and returns its path.
func writeScript(t *testing.T, s *Script) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), s.Name+".json")
	if err := s.WriteFile(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// fakeCommand is the command of a stdio fake of s, run by the test binary
// (see TestMain), in a process group of its own so that tests can kill it
// with its grandchildren.
func fakeCommand(t *testing.T, rc *recorder, s *Script) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], StdioArgs(writeScript(t, s), rc.srv.Addr())...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// connect starts a stdio fake of s and connects a go-sdk client to it at
// protocol version pv ("" for the latest).
func connect(t *testing.T, rc *recorder, s *Script, pv string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, opts)
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: fakeCommand(t, rc, s)}, &mcp.ClientSessionOptions{ProtocolVersion: pv})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// rawProc is a stdio fake driven line by line, to see its bytes.
type rawProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File
	out    *bufio.Reader
	nextID int
}

// startRaw starts a stdio fake of s. Its stderr is discarded, or with
// mergeStderr written to the same pipe as its stdout.
func startRaw(t *testing.T, rc *recorder, s *Script, mergeStderr bool) *rawProc {
	t.Helper()
	cmd := fakeCommand(t, rc, s)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = w
	if mergeStderr {
		cmd.Stderr = w
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	p := &rawProc{t: t, cmd: cmd, stdin: stdin, stdout: r, out: bufio.NewReaderSize(r, 1<<20)}
	t.Cleanup(func() {
		stdin.Close()
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		r.Close()
	})
	return p
}

// send writes one message.
func (p *rawProc) send(msg string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, msg+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

// call sends a request and returns its id.
func (p *rawProc) call(method, params string) int {
	p.nextID++
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, p.nextID, method, params))
	return p.nextID
}

// line reads the next line, without its newline.
func (p *rawProc) line() []byte {
	p.t.Helper()
	_ = p.stdout.SetReadDeadline(time.Now().Add(testDeadline))
	b, err := p.out.ReadBytes('\n')
	if err != nil {
		p.t.Fatalf("reading the fake's stdout: %v (read %d bytes)", err, len(b))
	}
	return b[:len(b)-1]
}

// rpc is a JSON-RPC message as a client sees it.
type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// message reads and decodes the next line.
func (p *rawProc) message() (rpc, []byte) {
	p.t.Helper()
	b := p.line()
	var m rpc
	if err := json.Unmarshal(b, &m); err != nil {
		p.t.Fatalf("the fake wrote a line that is not JSON (%d bytes): %v", len(b), err)
	}
	return m, b
}

// initialize performs the 2025-11-25 handshake.
func (p *rawProc) initialize() {
	p.t.Helper()
	id := p.call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	m, b := p.message()
	if string(m.ID) != fmt.Sprint(id) || m.Result == nil {
		p.t.Fatalf("initialize answered %s", b)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}
