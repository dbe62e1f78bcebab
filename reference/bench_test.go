package reference_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpconform/mcpconform/reference"
)

// The per-call cost of the reference against a raw go-sdk client, both
// talking to the same echo server (benchserver_test.go) in the same run:
//
//	go test -run '^$' -bench . -benchmem ./reference/
//
// There is no exported entry point smaller than Agent.Send that runs one
// tool call, so BenchmarkToolCall/*/reference measures a whole Send: two
// scripted model round trips around one tool call. */go-sdk runs the same
// turn by hand on a plain go-sdk client that listed the tools first
// (rawHost): the same model, the same calls, the same checks, so the ratio
// of the two is what the reference adds. */reference-send-only measures a
// Send whose model answers at once, without a tool call: the run's fixed
// overhead, model callback included. */ratio runs the two in alternation
// and reports the ratios themselves (wall-ratio, cpu-ratio): the figures
// to read on a machine whose load varies.
//
// Transports: stdio (each client runs its own child, this test binary as
// the server), http (one stateless Streamable HTTP server on httptest in
// this process, so B/op and allocs/op include the server's share) and
// http-subprocess (the same server in a child process: B/op and allocs/op
// are the client's alone). cpu-ns/op is this process's CPU time per call.

// benchText is the small payload of every benchmarked call.
const benchText = "the quick brown fox jumps over the lazy dog"

var benchArgs = json.RawMessage(`{"text":"` + benchText + `"}`)

// benchAlias is the server alias the agent knows the echo server by.
const benchAlias = "bench"

// echoModel is a scripted model: it asks for one echo call, checks the
// tool result, and answers "done". With callTool false it answers at once.
type echoModel struct {
	callTool atomic.Bool
	checks   atomic.Int64  // tool results seen
	bad      atomic.Int64  // tool results that were not the echo
	lastBad  atomic.Value  // string, the last bad tool result
	toolText atomic.Value  // string, the first 200 bytes of the last tool result
	wantText atomic.Value  // string the tool result must hold
	seen     atomic.Uint64 // model calls
}

func newEchoModel() *echoModel {
	m := &echoModel{}
	m.callTool.Store(true)
	m.wantText.Store(benchText)
	m.toolText.Store("")
	m.lastBad.Store("")
	return m
}

func (m *echoModel) complete(_ context.Context, req reference.ModelRequest) (reference.ModelResponse, error) {
	m.seen.Add(1)
	last := req.Messages[len(req.Messages)-1]
	switch {
	case last.Role == "user" && m.callTool.Load():
		return reference.ModelResponse{ToolCalls: []reference.ToolCall{
			{ID: "1", Name: reference.ToolName(benchAlias, "echo"), Arguments: benchArgs},
		}}, nil
	case last.Role == "tool":
		m.checks.Add(1)
		m.toolText.Store(last.Text[:min(len(last.Text), 200)])
		if last.IsError || !strings.Contains(last.Text, m.wantText.Load().(string)) {
			m.bad.Add(1)
			m.lastBad.Store(last.Text[:min(len(last.Text), 500)])
		}
	}
	return reference.ModelResponse{Text: "done"}, nil
}

// newBenchAgent builds an agent with one server, bench, that may connect
// and call anything without asking, and connects it with one warm-up Send.
func newBenchAgent(b *testing.B, cfg reference.ServerConfig, model *echoModel) *reference.Agent {
	b.Helper()
	agent, err := reference.New(reference.Options{
		Workdir:    b.TempDir(),
		Environ:    []string{},
		MCPServers: []reference.NamedServer{{Name: benchAlias, Config: cfg}},
		Permission: &reference.Policy{Allow: []string{"*"}},
		Model:      reference.ModelFunc(model.complete),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { agent.Close() })
	if _, err := agent.Send(context.Background(), "warm up"); err != nil {
		b.Fatalf("warm-up Send: %v", err)
	}
	if n := model.bad.Load(); n != 0 {
		b.Fatalf("warm-up Send: the tool result is not the echo: %v", model.lastBad.Load())
	}
	return agent
}

// rawHost is the run of a Send written by hand on a plain go-sdk client,
// default options: the same scripted model is asked, the call it asks for
// is made, the result's text is handed back to it and it is asked again.
// So both sides pay the same fixed work (two model round trips around one
// tool call, every result checked by the model), and the difference is
// what the reference adds to a call.
type rawHost struct {
	session  *mcp.ClientSession
	model    *echoModel
	echoName string // the echo tool as the model knows it
}

// newRawHost connects a plain go-sdk client, lists the server's tools once,
// as a host must before it can offer them to a model (the reference
// discovers them when it connects; go-sdk then knows each tool's input
// schema at every call, which Streamable HTTP reads for its Mcp-Param
// headers), and makes one warm-up Send.
func newRawHost(b *testing.B, transport mcp.Transport) *rawHost {
	b.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "raw-bench", Version: "1.0.0"}, nil)
	session, err := client.Connect(context.Background(), transport, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { session.Close() })
	tools, err := session.ListTools(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	if !slices.ContainsFunc(tools.Tools, func(t *mcp.Tool) bool { return t.Name == "echo" }) {
		b.Fatalf("the bench server lists no echo tool: %+v", tools.Tools)
	}
	h := &rawHost{session: session, model: newEchoModel(), echoName: reference.ToolName(benchAlias, "echo")}
	h.send(b, "warm up")
	if n := h.model.bad.Load(); n != 0 {
		b.Fatalf("warm-up send: the tool result is not the echo: %v", h.model.lastBad.Load())
	}
	return h
}

// send runs one turn: the model's call of echo, made with go-sdk, between
// two model round trips.
func (h *rawHost) send(b *testing.B, prompt string) {
	ctx := context.Background()
	msgs := []reference.Message{{Role: "user", Text: prompt}}
	resp, _ := h.model.complete(ctx, reference.ModelRequest{System: reference.SystemPrompt, Messages: msgs})
	if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name != h.echoName {
		b.Fatalf("the model asked for %+v, want one call of %s", resp.ToolCalls, h.echoName)
	}
	call := resp.ToolCalls[0]
	text, isError := callRaw(b, h.session, call.Arguments)
	msgs = append(msgs, reference.Message{Role: "assistant", ToolCalls: resp.ToolCalls},
		reference.Message{Role: "tool", ToolCallID: call.ID, Text: text, IsError: isError})
	if resp, _ = h.model.complete(ctx, reference.ModelRequest{System: reference.SystemPrompt, Messages: msgs}); resp.Text != "done" {
		b.Fatalf("the model answered %q", resp.Text)
	}
}

// callRaw makes one echo call with args and returns its text, bounded like
// the reference's calls (reference.DefaultTimeout).
func callRaw(b *testing.B, session *mcp.ClientSession, args json.RawMessage) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), reference.DefaultTimeout)
	defer cancel()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: args})
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Content) != 1 {
		b.Fatalf("echo returned %+v", res)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		b.Fatalf("echo returned %+v", res.Content[0])
	}
	return tc.Text, res.IsError
}

func BenchmarkToolCall(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("stdio", func(b *testing.B) {
		// Each client runs its own child: a stdio server has one client.
		// Both children are this test binary as the echo server.
		model := newEchoModel()
		agent := newBenchAgent(b, reference.ServerConfig{Command: exe, Args: []string{benchServerCommand}}, model)
		raw := newRawHost(b, &mcp.CommandTransport{Command: exec.Command(exe, benchServerCommand)})
		benchToolCall(b, agent, model, raw)
	})
	b.Run("http", func(b *testing.B) {
		// One stateless Streamable HTTP server on 127.0.0.1 for both.
		srv := newEchoServer()
		hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
			&mcp.StreamableHTTPOptions{Stateless: true}))
		b.Cleanup(hs.Close)
		model := newEchoModel()
		agent := newBenchAgent(b, reference.ServerConfig{Type: reference.TransportHTTP, URL: hs.URL}, model)
		raw := newRawHost(b, &mcp.StreamableClientTransport{Endpoint: hs.URL})
		benchToolCall(b, agent, model, raw)
	})
	b.Run("http-subprocess", func(b *testing.B) {
		// The same, with the server in a child process: B/op and
		// allocs/op are then the client's alone.
		url := startHTTPBenchServer(b, exe)
		model := newEchoModel()
		agent := newBenchAgent(b, reference.ServerConfig{Type: reference.TransportHTTP, URL: url}, model)
		raw := newRawHost(b, &mcp.StreamableClientTransport{Endpoint: url})
		benchToolCall(b, agent, model, raw)
	})
}

// startHTTPBenchServer runs the echo server over HTTP in a child process
// and returns its URL; the child stops when the benchmark ends.
func startHTTPBenchServer(b *testing.B, exe string) string {
	b.Helper()
	cmd := exec.Command(exe, benchHTTPServerCommand)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	b.Cleanup(func() {
		stdin.Close()
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case url := <-line:
		if !strings.HasPrefix(url, "http://127.0.0.1:") {
			b.Fatalf("the bench HTTP server printed %q", url)
		}
		return url
	case <-time.After(30 * time.Second):
		b.Fatal("the bench HTTP server did not print its URL within 30s")
		return ""
	}
}

func benchToolCall(b *testing.B, agent *reference.Agent, model *echoModel, raw *rawHost) {
	ctx := context.Background()
	// loop runs send, and checks that each op made toolCalls calls, each
	// result the echo, as model saw them.
	loop := func(b *testing.B, model *echoModel, toolCalls int64, send func(*testing.B)) {
		check := expectCalls(b, model, toolCalls)
		n := int64(0)
		withCPU(b, func() {
			for b.Loop() {
				send(b)
				n++
			}
		})
		check(n)
	}
	sendRef := func(b *testing.B) {
		resp, err := agent.Send(ctx, "echo it")
		if err != nil {
			b.Fatal(err)
		}
		if resp.Text != "done" {
			b.Fatalf("Send answered %q", resp.Text)
		}
	}
	sendRaw := func(b *testing.B) { raw.send(b, "echo it") }
	b.Run("reference", func(b *testing.B) { loop(b, model, 1, sendRef) })
	b.Run("go-sdk", func(b *testing.B) { loop(b, raw.model, 1, sendRaw) })
	b.Run("reference-send-only", func(b *testing.B) { loop(b, model, 0, sendRef) })
	// ratio runs the two side by side, in alternating blocks of
	// ratioBlock turns, and reports the reference's time over go-sdk's:
	// wall-ratio and cpu-ratio (this process's CPU time, read around each
	// turn). Two sub-benchmarks run one after the other, seconds apart,
	// see different load on a shared machine; blocks a few milliseconds
	// long see the same. Within a block each side runs warm, as in its
	// own sub-benchmark: turn by turn, the reference's larger code would
	// start each of its turns cold after go-sdk's, a cost the other way
	// round does not have.
	b.Run("ratio", func(b *testing.B) {
		model.callTool.Store(true)
		checkRef, checkRaw := expectCalls(b, model, 1), expectCalls(b, raw.model, 1)
		sides := [2]func(*testing.B){sendRef, sendRaw}
		var wall, cpu [2]time.Duration // the reference's, go-sdk's
		var turns [2]int64
		for i := 0; b.Loop(); i++ {
			side := i / ratioBlock % 2
			t0, c0 := time.Now(), cpuTime(b)
			sides[side](b)
			wall[side] += time.Since(t0)
			cpu[side] += cpuTime(b) - c0
			turns[side]++
		}
		checkRef(turns[0])
		checkRaw(turns[1])
		if turns[1] == 0 {
			return // b.N too small for a block of each
		}
		perTurn := func(d [2]time.Duration) float64 {
			return float64(d[0]) / float64(turns[0]) / (float64(d[1]) / float64(turns[1]))
		}
		b.ReportMetric(perTurn(wall), "wall-ratio")
		b.ReportMetric(perTurn(cpu), "cpu-ratio")
	})
}

// ratioBlock is how many turns BenchmarkToolCall/*/ratio runs on one side
// before it runs as many on the other.
const ratioBlock = 16

// expectCalls sets model to ask for toolCalls calls a turn (none: it
// answers at once) and returns the check that the n turns run since made
// that many calls, each result the echo, as model saw them.
func expectCalls(b *testing.B, model *echoModel, toolCalls int64) func(n int64) {
	model.callTool.Store(toolCalls > 0)
	checks, bad := model.checks.Load(), model.bad.Load()
	return func(n int64) {
		if got := model.checks.Load() - checks; got != n*toolCalls {
			b.Fatalf("%d turns ran %d tool calls, want %d", n, got, n*toolCalls)
		}
		if model.bad.Load() != bad {
			b.Fatalf("a tool result was not the echo: %v", model.lastBad.Load())
		}
	}
}

// withCPU runs a benchmark loop and reports the CPU time this process
// spent per op (cpu-ns/op: user and system, every thread, GC included).
// Unlike ns/op it leaves out the time spent waiting for a server in
// another process, and it is less disturbed by other load on the machine.
func withCPU(b *testing.B, loop func()) {
	start := cpuTime(b)
	loop()
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime returns the CPU time this process has used so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// heapInuse reads the bytes in in-use heap spans (MemStats.HeapInuse)
// without stopping the world.
func heapInuse(s []metrics.Sample) uint64 {
	metrics.Read(s)
	var n uint64
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			n += x.Value.Uint64()
		}
	}
	return n
}

func heapSamples() []metrics.Sample {
	return []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
	}
}

// peakHeap runs call and returns the highest heap figure, sampled every
// 250µs while it runs, above the baseline taken just before it, after a GC
// that is not timed.
func peakHeap(b *testing.B, call func()) uint64 {
	b.StopTimer()
	s := heapSamples()
	runtime.GC()
	base := heapInuse(s)
	stop := make(chan struct{})
	peakc := make(chan uint64, 1)
	go func() {
		s := heapSamples()
		peak := base
		t := time.NewTicker(250 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				peakc <- max(peak, heapInuse(s))
				return
			case <-t.C:
				peak = max(peak, heapInuse(s))
			}
		}
	}()
	b.StartTimer()
	func() {
		defer close(stop) // even when call fails the benchmark
		call()
	}()
	return <-peakc - base
}

// hugeResultServer is a Streamable HTTP endpoint whose every tools/call is
// answered by a plain net/http handler with a JSON-RPC result of exactly
// size bytes, written in 64 KiB chunks and flushed as it goes. Everything
// else (discovery, listing) is the go-sdk echo server's. sent counts the
// response bytes the handler managed to write.
func hugeResultServer(size int, sent *atomic.Int64) *httptest.Server {
	srv := newEchoServer()
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	chunk := bytes.Repeat([]byte("a"), 64<<10)
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			sdk.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var msg struct {
			Method string          `json:"method"`
			ID     json.RawMessage `json:"id"`
		}
		if json.Unmarshal(body, &msg) != nil || msg.Method != "tools/call" {
			r.Body = io.NopCloser(bytes.NewReader(body))
			sdk.ServeHTTP(w, r)
			return
		}
		prefix := `{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{"content":[{"type":"text","text":"`
		suffix := `"}]}}`
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		write := func(p []byte) bool {
			n, err := w.Write(p)
			sent.Add(int64(n))
			if err == nil {
				err = http.NewResponseController(w).Flush()
			}
			return err == nil
		}
		if !write([]byte(prefix)) {
			return
		}
		for left := size - len(prefix) - len(suffix); left > 0; left -= len(chunk) {
			if !write(chunk[:min(left, len(chunk))]) {
				return
			}
		}
		write([]byte(suffix))
	}))
}

// BenchmarkHTTPResponseCap has a tool answer one call with a 64 MiB body
// and reports the peak heap above the baseline during the call
// (peak-heap-MiB; the target with the 4 MiB response cap is < 16) and the
// bytes the server got to send (sent-MiB/op). go-sdk is a raw client
// against the same server, for comparison.
func BenchmarkHTTPResponseCap(b *testing.B) {
	const size = 64 << 20
	var sent atomic.Int64
	hs := hugeResultServer(size, &sent)
	b.Cleanup(hs.Close)
	// Let a call run to completion however long the 64 MiB take.
	timeout := 5 * time.Minute

	report := func(b *testing.B, peak uint64, n int) {
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(sent.Load())/float64(n)/(1<<20), "sent-MiB/op")
	}

	b.Run("reference", func(b *testing.B) {
		model := newEchoModel()
		model.callTool.Store(false) // the warm-up Send only connects
		agent := newBenchAgent(b, reference.ServerConfig{Type: reference.TransportHTTP, URL: hs.URL, Timeout: timeout}, model)
		// Every echo is answered by the 64 MiB handler: the result is
		// 'a's, and whether it is an error is reported.
		model.callTool.Store(true)
		model.wantText.Store("aaaaaaaa")
		bad := model.bad.Load()
		sent.Store(0)
		var peak uint64
		n := 0
		for b.Loop() {
			peak = max(peak, peakHeap(b, func() {
				ctx, cancel := context.WithTimeout(context.Background(), timeout)
				defer cancel()
				if _, err := agent.Send(ctx, "echo it"); err != nil {
					b.Fatal(err)
				}
			}))
			n++
		}
		report(b, peak, n)
		b.ReportMetric(float64(model.bad.Load()-bad)/float64(n), "tool-errors/op")
		b.Logf("the model saw as tool result: %.200q", model.toolText.Load())
	})
	b.Run("go-sdk", func(b *testing.B) {
		client := mcp.NewClient(&mcp.Implementation{Name: "raw-bench", Version: "1.0.0"}, nil)
		session, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer session.Close()
		sent.Store(0)
		var peak uint64
		n := 0
		for b.Loop() {
			peak = max(peak, peakHeap(b, func() {
				ctx, cancel := context.WithTimeout(context.Background(), timeout)
				defer cancel()
				res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: benchArgs})
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Content) != 1 {
					b.Fatalf("got %d contents", len(res.Content))
				}
			}))
			n++
		}
		report(b, peak, n)
	})
}
