package mcpfake

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCallBytesAnswersWithALineOfExactlyThatSize reads the answers of a
// real stdio fake byte by byte: each is one valid response of the scripted
// size to the right id, and no request is answered twice (the ping after
// it is answered next).
func TestCallBytesAnswersWithALineOfExactlyThatSize(t *testing.T) {
	t.Parallel()
	for _, size := range []int64{200, 64 << 10, 1<<20 + 1, 4 << 20} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			t.Parallel()
			rc := newRecorder(t)
			s := &Script{Name: "big", Tools: []Tool{{Name: "big"}}, Calls: map[string]Call{"big": {Text: "payload", Bytes: size}}}
			p := startRaw(t, rc, s, false)
			p.initialize()
			id := p.call("tools/call", `{"name":"big","arguments":{}}`)
			m, line := p.message()
			if int64(len(line)) != size {
				t.Errorf("the answer line has %d bytes, want %d", len(line), size)
			}
			if string(m.ID) != fmt.Sprint(id) || m.Result == nil {
				t.Fatalf("the answer is not a result for id %d: id %s", id, m.ID)
			}
			var res mcp.CallToolResult
			if err := json.Unmarshal(m.Result, &res); err != nil {
				t.Fatalf("the result is no CallToolResult: %v", err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if !strings.HasPrefix(text, "payload") || strings.Trim(text[len("payload"):], "x") != "" {
				t.Errorf("the text content is not the scripted text padded: %.40q…", text)
			}
			ping := p.call("ping", `{}`)
			if m, b := p.message(); string(m.ID) != fmt.Sprint(ping) {
				t.Errorf("after the answer came %.200s, not the answer to the ping", b)
			}
			rs := rc.wait(t, "the record of the answer", func(rs []record.Record) bool {
				return len(outAnswers(rs, fmt.Sprint(id))) > 0
			})
			if got := outAnswers(rs, fmt.Sprint(id)); len(got) != 1 || int64(got[0].Bytes) != size {
				t.Errorf("records of the answer: %s", dump(got))
			}
		})
	}
}

// outAnswers returns the responses the fake sent to id.
func outAnswers(rs []record.Record, id string) []record.Record {
	var out []record.Record
	for _, r := range rs {
		if r.Kind == record.KindMessage && r.Dir == "out" && r.Method == "" && string(r.ID) == id {
			out = append(out, r)
		}
	}
	return out
}

// TestCallBytesWithCallsInFlight checks that concurrent calls of tools with
// different sizes each get their own size, and that a size below the
// smallest answer leaves the answer as it is.
func TestCallBytesWithCallsInFlight(t *testing.T) {
	t.Parallel()
	rc := newRecorder(t)
	s := &Script{Name: "sizes", Calls: map[string]Call{
		"a":    {Text: "a", Bytes: 3000, DelayMs: 50},
		"b":    {Text: "b", Bytes: 5000},
		"tiny": {Text: "tiny", Bytes: 10},
	}}
	p := startRaw(t, rc, s, false)
	p.initialize()
	ida := p.call("tools/call", `{"name":"a"}`)
	idb := p.call("tools/call", `{"name":"b"}`)
	idt := p.call("tools/call", `{"name":"tiny"}`)
	want := map[string]func(int) bool{
		fmt.Sprint(ida): func(n int) bool { return n == 3000 },
		fmt.Sprint(idb): func(n int) bool { return n == 5000 },
		fmt.Sprint(idt): func(n int) bool { return n > 10 && n < 300 },
	}
	for range 3 {
		m, line := p.message()
		ok, known := want[string(m.ID)]
		if !known {
			t.Fatalf("unexpected or second answer: %.200s", line)
		}
		delete(want, string(m.ID))
		if !ok(len(line)) || m.Result == nil {
			t.Errorf("answer to %s: %d bytes: %.200s", m.ID, len(line), line)
		}
	}
}

// TestCallBytesOfACancelledCall checks that a cancelled call is not padded
// later: neither go-sdk's late answer to it, if any, nor the answer to
// another request that reuses its id.
func TestCallBytesOfACancelledCall(t *testing.T) {
	t.Parallel()
	rc := newRecorder(t)
	s := &Script{Name: "cancel", Calls: map[string]Call{"slow": {Bytes: 50_000, DelayMs: 60_000}}}
	p := startRaw(t, rc, s, false)
	p.initialize()
	id := p.call("tools/call", `{"name":"slow"}`)
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`, id))
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id))
	p.send(`{"jsonrpc":"2.0","id":"last","method":"ping"}`)
	// go-sdk answers id 2 once (the ping, or an error for the cancelled
	// call), and then the last ping; nothing is padded.
	for {
		m, line := p.message()
		if len(line) >= 50_000 {
			t.Fatalf("a %d-byte answer to id %s after the call was cancelled", len(line), m.ID)
		}
		if string(m.ID) == `"last"` {
			return
		}
	}
}

// TestCallBytesThroughAGoSDKClient checks that a go-sdk client at the
// latest protocol (2026-07-28) takes a padded answer as a valid result.
func TestCallBytesThroughAGoSDKClient(t *testing.T) {
	t.Parallel()
	rc := newRecorder(t)
	const size = 100_000
	s := &Script{Name: "sdk", Tools: []Tool{{Name: "big"}}, Calls: map[string]Call{"big": {Text: "hello", Bytes: size}}}
	cs := connect(t, rc, s, "", nil)
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Errorf("negotiated %s", v)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "big"})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !strings.HasPrefix(text, "hello") || len(text) < size-400 {
		t.Errorf("text of %d bytes: %.40q…", len(text), text)
	}
	rs := rc.log.Records()
	var sizes []int
	for _, r := range rs {
		if r.Kind == record.KindMessage && r.Dir == "out" && r.Bytes > 1000 {
			sizes = append(sizes, r.Bytes)
		}
	}
	if len(sizes) != 1 || sizes[0] != size {
		t.Errorf("big answers recorded: %v", sizes)
	}
}

// TestStderr runs fakes that write to stderr while stdout and stderr share
// one pipe, so that the order of the bytes shows when each was written:
// all scripted stderr bytes, every line with the canary, before the answer
// they precede.
func TestStderr(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		script    Script
		canary    string
		beforeIni int64 // stderr bytes before the initialize answer
		beforeRes int64 // stderr bytes between it and the call's answer
	}{
		{name: "on start", script: Script{StderrOnStart: 256 << 10}, canary: "fake stderr", beforeIni: 256 << 10},
		{name: "fault on initialize", script: Script{Faults: []Fault{{Method: "initialize", StderrBytes: 300_001}}, StderrText: "CANARY-7"}, canary: "CANARY-7", beforeIni: 300_001},
		{name: "during a call", script: Script{Calls: map[string]Call{"t": {StderrBytes: 1 << 20}}}, canary: "fake stderr", beforeRes: 1 << 20},
		{name: "all of them", script: Script{StderrOnStart: 70_000, Faults: []Fault{{Method: "initialize", StderrBytes: 5}}, Calls: map[string]Call{"t": {StderrBytes: 65 << 10}}}, canary: "fake stderr", beforeIni: 70_005, beforeRes: 65 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rc := newRecorder(t)
			s := tc.script
			s.Name = "noisy"
			p := startRaw(t, rc, &s, true)
			id := p.call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
			if n := p.stderrUntil(t, id, tc.canary); n != tc.beforeIni {
				t.Errorf("%d stderr bytes before the initialize answer, want %d", n, tc.beforeIni)
			}
			p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			id = p.call("tools/call", `{"name":"t"}`)
			if n := p.stderrUntil(t, id, tc.canary); n != tc.beforeRes {
				t.Errorf("%d stderr bytes before the call's answer, want %d", n, tc.beforeRes)
			}
		})
	}
}

// stderrUntil reads the merged stream up to the answer to id and returns
// the number of stderr bytes before it, checking that every full line
// holds canary.
func (p *rawProc) stderrUntil(t *testing.T, id int, canary string) int64 {
	t.Helper()
	var n int64
	for {
		line := p.line()
		if bytes.HasPrefix(line, []byte(`{"jsonrpc"`)) {
			var m rpc
			if err := json.Unmarshal(line, &m); err != nil || string(m.ID) != fmt.Sprint(id) {
				t.Fatalf("unexpected message %.200s", line)
			}
			return n
		}
		n += int64(len(line)) + 1
		if len(line) > len(canary)+1 && !bytes.Contains(line, []byte(canary)) {
			t.Fatalf("a stderr line without the canary: %.100q", line)
		}
	}
}

// TestGrandchild checks that a fake with Script.Grandchild spawns the
// test binary as a grandchild that records its start, shares the fake's
// process group, outlives the fake and dies with its group.
func TestGrandchild(t *testing.T) {
	t.Parallel()
	rc := newRecorder(t)
	cmd := fakeCommand(t, rc, &Script{Name: "parent", Grandchild: true})
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	defer syscall.Kill(-pgid, syscall.SIGKILL)
	starts := func(rs []record.Record, server string) []record.Record {
		var out []record.Record
		for _, r := range of(rs, record.KindStart) {
			if r.Server == server {
				out = append(out, r)
			}
		}
		return out
	}
	rs := rc.wait(t, "both starts", func(rs []record.Record) bool {
		return len(starts(rs, "parent")) == 1 && len(starts(rs, "parent/grandchild")) == 1
	})
	fake, gc := starts(rs, "parent")[0], starts(rs, "parent/grandchild")[0]
	if gc.PPID != fake.PID || fake.PID != cmd.Process.Pid {
		t.Errorf("grandchild ppid %d, fake pid %d, spawned pid %d", gc.PPID, fake.PID, cmd.Process.Pid)
	}
	if len(gc.Argv) < 2 || gc.Argv[1] != GrandchildSubcommand {
		t.Errorf("grandchild argv %q", gc.Argv)
	}
	if g, err := syscall.Getpgid(gc.PID); err != nil || g != pgid {
		t.Errorf("grandchild process group %d (%v), want the fake's %d", g, err, pgid)
	}
	if fake.Seq > gc.Seq {
		t.Errorf("the grandchild started before the fake: %s", dump(rs))
	}

	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("the fake ended with %v", err)
	}
	rs = rc.wait(t, "the fake's exit", func(rs []record.Record) bool {
		for _, r := range of(rs, record.KindExit) {
			if r.PID == fake.PID {
				return true
			}
		}
		return false
	})
	for _, r := range of(rs, record.KindExit) {
		if r.PID == gc.PID {
			t.Fatal("the grandchild ended with the fake")
		}
	}
	if err := syscall.Kill(gc.PID, 0); err != nil {
		t.Fatalf("the grandchild is gone: %v", err)
	}
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	rc.wait(t, "the grandchild's exit", func(rs []record.Record) bool {
		for _, r := range of(rs, record.KindExit) {
			if r.PID == gc.PID && r.Server == "parent/grandchild" {
				return true
			}
		}
		return false
	})
}

// TestAskClient checks that a fake sends the client the scripted requests
// during a call, records each answer, and then answers the call; with a
// go-sdk client at 2025-11-25 and at 2026-07-28, with and without
// handlers. It pins go-sdk's client answers, which scenarios about
// server-initiated requests must reckon with.
func TestAskClient(t *testing.T) {
	t.Parallel()
	asks := []string{"sampling/createMessage", "roots/list", "elicitation/create", "made/up"}
	withHandlers := &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "sampled"}}, nil
		},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	}
	noHandlers := map[string]string{
		"sampling/createMessage": "error -31001",
		"roots/list":             `result {"roots":[]}`, // go-sdk clients always answer roots/list
		"elicitation/create":     "error -32602",
		"made/up":                "error -32601",
	}
	handlers := map[string]string{
		"sampling/createMessage": `result {"content":{"type":"text","text":"sampled"},"model":"m","role":"assistant"}`,
		"roots/list":             `result {"roots":[]}`,
		"elicitation/create":     `result {"action":"decline"}`,
		"made/up":                "error -32601",
	}
	for _, tc := range []struct {
		name string
		pv   string
		opts *mcp.ClientOptions
		want map[string]string
	}{
		{"2025-11-25 without handlers", "2025-11-25", nil, noHandlers},
		{"2026-07-28 without handlers", "2026-07-28", nil, noHandlers},
		{"2025-11-25 with handlers", "2025-11-25", withHandlers, handlers},
		{"2026-07-28 with handlers", "2026-07-28", withHandlers, handlers},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rc := newRecorder(t)
			s := &Script{Name: "asker", Calls: map[string]Call{"t": {Text: "done", AskClient: asks}}}
			cs := connect(t, rc, s, tc.pv, tc.opts)
			if v := cs.InitializeResult().ProtocolVersion; v != tc.pv {
				t.Fatalf("negotiated %s", v)
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "t"})
			if err != nil || res.Content[0].(*mcp.TextContent).Text != "done" {
				t.Fatalf("the call: %v %v", res, err)
			}
			answers := of(rc.log.Records(), record.KindAnswer)
			if len(answers) != len(asks) {
				t.Fatalf("answers: %s", dump(answers))
			}
			for i, a := range answers {
				got := "none"
				switch {
				case a.Error != nil:
					got = fmt.Sprintf("error %d", a.Error.Code)
				case a.Result != nil:
					got = "result " + string(a.Result)
				}
				if a.Method != asks[i] || got != tc.want[a.Method] || a.ID == nil {
					t.Errorf("answer %d to %s (id %s): %s, want %s", i, a.Method, a.ID, got, tc.want[a.Method])
				}
			}
		})
	}
}

// TestAskClientWithoutAnswer checks the bounded wait: a client that never
// answers gets an aborted answer record, and the call is still answered.
func TestAskClientWithoutAnswer(t *testing.T) {
	t.Parallel()
	rc := newRecorder(t)
	s := &Script{Name: "asker", Calls: map[string]Call{"t": {Text: "done", AskClient: []string{"roots/list"}, AskTimeoutMs: 100}}}
	p := startRaw(t, rc, s, false)
	p.initialize()
	id := p.call("tools/call", `{"name":"t"}`)
	ask, b := p.message()
	if ask.Method != "roots/list" || !strings.HasPrefix(string(ask.ID), `"mcpconform-ask-`) {
		t.Fatalf("the fake sent %s", b)
	}
	if m, b := p.message(); string(m.ID) != fmt.Sprint(id) || m.Result == nil {
		t.Fatalf("the fake sent %s", b)
	}
	answers := of(rc.log.Records(), record.KindAnswer)
	if len(answers) != 1 || !answers[0].Aborted || answers[0].Result != nil || answers[0].Error != nil || string(answers[0].ID) != string(ask.ID) {
		t.Errorf("answers: %s", dump(answers))
	}
}

// TestGoSDKRefusesServerRequestsAt20260728 pins why Call.AskClient writes
// its requests itself: at 2026-07-28 go-sdk's ServerSession refuses to
// send sampling, roots and elicitation requests (SEP-2322 wants them
// embedded in an input-required result instead).
func TestGoSDKRefusesServerRequestsAt20260728(t *testing.T) {
	for _, pv := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(pv, func(t *testing.T) {
			srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
			var sendErr error
			mcp.AddTool(srv, &mcp.Tool{Name: "t"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
				_, sendErr = req.Session.ListRoots(ctx, nil)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
			})
			st, ct := mcp.NewInMemoryTransports()
			ctx := context.Background()
			ss, err := srv.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: pv})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"}); err != nil {
				t.Fatal(err)
			}
			if refused := sendErr != nil && strings.Contains(sendErr.Error(), "cannot be sent"); refused != (pv == "2026-07-28") {
				t.Errorf("ListRoots at %s: %v", pv, sendErr)
			}
		})
	}
}

// TestResourcesAndPrompts checks that scripted resources and prompts are
// advertised and served, and that a script without them advertises
// neither capability.
func TestResourcesAndPrompts(t *testing.T) {
	t.Parallel()
	rc := newRecorder(t)
	ctx := context.Background()
	cs := connect(t, rc, &Script{Name: "rich", Resources: []string{"notes", "secrets"}, Prompts: []string{"greet"}}, "", nil)
	caps := cs.InitializeResult().Capabilities
	if caps.Resources == nil || caps.Prompts == nil || caps.Tools == nil {
		t.Fatalf("capabilities %+v", caps)
	}
	res, err := cs.ListResources(ctx, nil)
	if err != nil || len(res.Resources) != 2 || res.Resources[1].URI != "fake://rich/secrets" {
		t.Fatalf("resources %+v %v", res, err)
	}
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "fake://rich/notes"})
	if err != nil || read.Contents[0].Text != "resource notes" {
		t.Fatalf("read %+v %v", read, err)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "greet" {
		t.Fatalf("prompts %+v %v", prompts, err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet"}); err != nil {
		t.Fatal(err)
	}
	if reqs := requestMethods(rc.log.Records()); !strings.Contains(reqs, "resources/list resources/read prompts/list prompts/get") {
		t.Errorf("recorded requests: %s", reqs)
	}

	plain := connect(t, rc, &Script{Name: "plain"}, "", nil)
	if caps := plain.InitializeResult().Capabilities; caps.Resources != nil || caps.Prompts != nil {
		t.Errorf("a script without resources or prompts advertises %+v", caps)
	}
}

// requestMethods lists the methods of the requests recorded, in order.
func requestMethods(rs []record.Record) string {
	var ms []string
	for _, r := range rs {
		if r.IsRequest() {
			ms = append(ms, r.Method)
		}
	}
	return strings.Join(ms, " ")
}

// TestIgnoreStdinClose checks that a fake scripted so outlives the end of
// its stdin until a signal, while a plain fake ends with it.
func TestIgnoreStdinClose(t *testing.T) {
	t.Parallel()
	for _, ignore := range []bool{false, true} {
		t.Run(fmt.Sprint(ignore), func(t *testing.T) {
			t.Parallel()
			rc := newRecorder(t)
			cmd := fakeCommand(t, rc, &Script{Name: "stubborn", IgnoreStdinClose: ignore})
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			rc.wait(t, "the start", func(rs []record.Record) bool { return len(of(rs, record.KindStart)) == 1 })
			stdin.Close()
			out, err := bufio.NewReader(stderr).ReadString('\n')
			if !ignore {
				// The fake ends with its stdin, saying nothing.
				if err != io.EOF || out != "" {
					t.Errorf("stderr %q %v", out, err)
				}
			} else {
				if out != stdinClosedLine+"\n" {
					t.Fatalf("stderr %q %v", out, err)
				}
				if err := syscall.Kill(cmd.Process.Pid, 0); err != nil {
					t.Fatalf("the fake is gone: %v", err)
				}
				if n := len(of(rc.log.Records(), record.KindExit)); n != 0 {
					t.Fatalf("%d exits", n)
				}
				if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("the fake ended with %v", err)
			}
			rc.wait(t, "the exit", func(rs []record.Record) bool { return len(of(rs, record.KindExit)) == 1 })
		})
	}
}
