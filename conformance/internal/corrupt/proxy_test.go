package corrupt

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// patience bounds the waits for what must happen (an answer, an end, an
// exit): it happens at once on an idle machine, and a loaded one may take
// seconds, so it is long; it is paid only by a test that fails.
const patience = time.Minute

// runnerSide is a test playing the runner in front of a proxy.
type runnerSide struct {
	t    *testing.T
	in   *io.PipeWriter // the proxy's input
	out  chan string    // the proxy's output lines
	done chan struct{}  // closed when Run returned
	err  error          // what Run returned
	mu   sync.Mutex
	seen []string // "dir kind method" of what the hook saw
}

// startProxy runs a proxy with hook in front of the test child in mode.
func startProxy(t *testing.T, mode string, hook Hook) *runnerSide {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := &runnerSide{t: t, out: make(chan string, 100), done: make(chan struct{})}
	if hook == nil {
		hook = pass
	}
	watched := func(s *State, m *Msg) []*Msg {
		r.mu.Lock()
		r.seen = append(r.seen, fmt.Sprintf("%s %s %s", m.Dir, m.Kind, m.Method))
		r.mu.Unlock()
		return hook(s, m)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r.in = inW
	p := &Proxy{Command: []string{exe, childMode, mode}, Hook: watched, Grace: 2 * time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		r.err = p.Run(ctx, inR, outW)
		close(r.done)
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			r.out <- sc.Text()
		}
		close(r.out)
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		select {
		case <-r.done:
		case <-time.After(patience):
			t.Errorf("the proxy did not end within %v of its context and input ending", patience)
		}
	})
	return r
}

// send writes a line to the proxy.
func (r *runnerSide) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

// recv reads the proxy's next line, within patience.
func (r *runnerSide) recv() map[string]any {
	r.t.Helper()
	select {
	case line, ok := <-r.out:
		if !ok {
			r.t.Fatal("the proxy's output ended")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			r.t.Fatalf("the proxy wrote %q: %v", line, err)
		}
		return m
	case <-time.After(patience):
		r.t.Fatalf("the proxy wrote nothing within %v", patience)
	}
	return nil
}

// call sends a request and returns the result of its answer.
func (r *runnerSide) call(id int, method, params string) any {
	r.t.Helper()
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
	m := r.recv()
	if fmt.Sprint(m["id"]) != fmt.Sprint(id) {
		r.t.Fatalf("sent request %d, got %v", id, m)
	}
	return m["result"]
}

// hookSaw returns what the hook saw so far.
func (r *runnerSide) hookSaw() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

func TestProxyRelaysBothWays(t *testing.T) {
	r := startProxy(t, "echo", nil)
	if got := r.call(1, "echo", `{"a":1}`); fmt.Sprint(got) != "map[a:1]" {
		t.Errorf("echo answered %v", got)
	}
	// The adapter asks the runner while it serves a request.
	r.send(`{"jsonrpc":"2.0","id":2,"method":"ask","params":{"q":"x"}}`)
	ping := r.recv()
	if ping["method"] != "host/ping" {
		t.Fatalf("want the adapter's host/ping, got %v", ping)
	}
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{"pong":true}}`, ping["id"]))
	if ans := r.recv(); fmt.Sprint(ans["id"]) != "2" || fmt.Sprint(ans["result"]) != "map[pong:true]" {
		t.Errorf("ask answered %v", ans)
	}
	r.send(`{"jsonrpc":"2.0","method":"note","params":{}}`)
	if n := r.recv(); n["method"] != "host/note" {
		t.Errorf("want the notification back, got %v", n)
	}
	want := []string{
		"runner→adapter request echo", "adapter→runner result echo",
		"runner→adapter request ask", "adapter→runner request host/ping",
		"runner→adapter result host/ping", "adapter→runner result ask",
		"runner→adapter notification note", "adapter→runner notification host/note",
	}
	if got := r.hookSaw(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the hook saw\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestProxyOwnMessages(t *testing.T) {
	tests := []struct {
		name  string
		hook  Hook
		check func(t *testing.T, r *runnerSide)
	}{
		{"a request answered by the proxy never reaches the adapter",
			always("echo", map[string]any{"by": "proxy"}),
			func(t *testing.T, r *runnerSide) {
				if got := r.call(1, "echo", `{}`); fmt.Sprint(got) != "map[by:proxy]" {
					t.Errorf("echo answered %v", got)
				}
				if got := r.hookSaw(); len(got) != 1 {
					t.Errorf("the hook saw %v; the adapter must not have answered", got)
				}
			}},
		{"the answer to the proxy's own copy of a request is swallowed",
			onRequest("host/ping", func(s *State, m *Msg) []*Msg { return []*Msg{m, s.Again(m)} }),
			func(t *testing.T, r *runnerSide) {
				r.send(`{"jsonrpc":"2.0","id":1,"method":"ask","params":{}}`)
				a, b := r.recv(), r.recv()
				if a["method"] != "host/ping" || b["method"] != "host/ping" || fmt.Sprint(a["id"]) == fmt.Sprint(b["id"]) {
					t.Fatalf("want two host/ping of different ids, got %v and %v", a, b)
				}
				for _, m := range []map[string]any{a, b} {
					id, _ := json.Marshal(m["id"])
					r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, id))
				}
				if ans := r.recv(); fmt.Sprint(ans["id"]) != "1" {
					t.Fatalf("want the answer to ask, got %v", ans)
				}
				if got := r.call(2, "count", `{}`); fmt.Sprint(got) != "map[answers:1 stray:0]" {
					t.Errorf("the adapter got %v answers; want exactly its own one", got)
				}
			}},
		{"a held notification goes out after the response that releases it",
			func(s *State, m *Msg) []*Msg {
				if m.Is("host/note") {
					s.Hold(m)
					return nil
				}
				if m.IsResponse() && m.Is("echo") {
					return append([]*Msg{m}, s.Release()...)
				}
				return []*Msg{m}
			},
			func(t *testing.T, r *runnerSide) {
				r.send(`{"jsonrpc":"2.0","method":"note","params":{}}`)
				r.send(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{}}`)
				if a, b := r.recv(), r.recv(); fmt.Sprint(a["id"]) != "1" || b["method"] != "host/note" {
					t.Errorf("want the echo answer, then the note; got %v, %v", a, b)
				}
			}},
		{"a line that is not JSON-RPC goes on verbatim",
			nil,
			func(t *testing.T, r *runnerSide) {
				r.send(`{"jsonrpc":"2.0","id":1,"method":"echo","params":"not json-rpc: `)
				r.send(`{"jsonrpc":"2.0","id":2,"method":"echo","params":{}}`)
				if ans := r.recv(); fmt.Sprint(ans["id"]) != "2" {
					t.Errorf("want the adapter to skip the bad line and answer 2, got %v", ans)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, startProxy(t, "echo", tt.hook))
		})
	}
}

// alive reports whether a process runs (and is not a zombie).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !strings.Contains(string(stat), ") Z ")
}

// exitsWithin reports whether the process ends within d: a signal is
// delivered asynchronously, so its end is watched for, bounded.
func exitsWithin(pid int, d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for alive(pid) {
		select {
		case <-deadline.C:
			return false
		case <-tick.C:
		}
	}
	return true
}

func TestProxyShutdown(t *testing.T) {
	tests := []struct {
		mode string
		end  func(r *runnerSide)
	}{
		{"orphan", func(r *runnerSide) { r.in.Close() }},
		{"orphan", func(r *runnerSide) {
			if got := r.call(9, "shutdown", `{}`); fmt.Sprint(got) != "map[]" {
				r.t.Errorf("shutdown answered %v", got)
			}
		}},
		{"deaf", func(r *runnerSide) { r.in.Close() }},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%s-%d", tt.mode, i), func(t *testing.T) {
			r := startProxy(t, tt.mode, nil)
			var pid struct{ Pid int }
			if tt.mode == "orphan" {
				b, _ := json.Marshal(r.call(1, "pid", `{}`))
				_ = json.Unmarshal(b, &pid)
				if !alive(pid.Pid) {
					t.Fatalf("the grandchild %d is not running", pid.Pid)
				}
			}
			tt.end(r)
			r.in.Close()
			select {
			case <-r.done:
				if r.err != nil {
					t.Errorf("Run: %v", r.err)
				}
			case <-time.After(patience):
				t.Fatalf("the proxy did not end within %v of its input closing", patience)
			}
			if _, open := <-r.out; open {
				t.Error("the proxy's output is still open after Run returned")
			}
			if pid.Pid != 0 && !exitsWithin(pid.Pid, patience) {
				t.Errorf("the adapter's grandchild %d outlived the proxy by %v", pid.Pid, patience)
			}
		})
	}
}
