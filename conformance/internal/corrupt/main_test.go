package corrupt

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// childMode makes the test binary the tiny adapter the proxy's tests sit
// in front of (runChild).
const childMode = "__corrupt-test-child"

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == childMode {
		syscall.Exit(runChild(os.Args[2]))
	}
	os.Exit(m.Run())
}

// runChild is a tiny adapter, one message per line on stdin and stdout:
//
//   - "echo" is answered with its params;
//   - "ask" is answered with what the runner answers the request
//     "host/ping" the child sends it with the same params;
//   - "count" is answered with {"answers", "stray"}: the answers to its
//     own requests it got, and those to requests it never sent;
//   - "pid" is answered with {"pid"}: the pid of the grandchild it started
//     (mode "orphan");
//   - "shutdown" is answered with {};
//   - a notification "note" is sent back as "host/note".
//
// It ends at the end of its input, except in mode "deaf", where it
// ignores that and SIGTERM, and waits for SIGKILL.
func runChild(mode string) int {
	grandchild := 0
	if mode == "orphan" {
		cmd := exec.Command("sleep", "60")
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		grandchild = cmd.Process.Pid
	}
	out := json.NewEncoder(os.Stdout)
	asks := map[string]json.RawMessage{} // our request id → the ask it serves
	next, answers, stray := 0, 0, 0
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var m envelope
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		reply := func(result any) {
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		}
		switch {
		case m.Method == "echo":
			reply(m.Params)
		case m.Method == "ask":
			next++
			id := fmt.Sprint(next)
			asks[id] = m.ID
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": next, "method": "host/ping", "params": m.Params})
		case m.Method == "shutdown":
			reply(map[string]any{})
		case m.Method == "count":
			reply(map[string]int{"answers": answers, "stray": stray})
		case m.Method == "pid":
			reply(map[string]int{"pid": grandchild})
		case m.Method == "note":
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "method": "host/note", "params": m.Params})
		case m.Method == "" && m.Result != nil:
			ask, ok := asks[string(m.ID)]
			if !ok {
				stray++
				continue
			}
			delete(asks, string(m.ID))
			answers++
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": ask, "result": m.Result})
		}
	}
	if mode == "deaf" {
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Hour)
	}
	return 0
}
