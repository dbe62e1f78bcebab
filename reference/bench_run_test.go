package reference_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpconform/mcpconform/reference"
)

// Issue 5's figures:
//
//	go test -run '^$' -bench 'Projection|ManyCalls' -benchmem ./reference/
//
// BenchmarkProjection projects one tool result the way a run does for its
// model (Agent.Project): a 1 MiB text, which goes to the session archive,
// and for scale a 15 KiB one, which stays inline. BenchmarkManyCalls runs
// 1,000 tool calls across 8 stdio servers in one Send, each call reporting
// two progress notifications that become tool_progress events.

// BenchmarkProjection measures the JSON projection and the archiving of a
// tool result.
func BenchmarkProjection(b *testing.B) {
	for _, size := range []int{15 << 10, 1 << 20} {
		b.Run(fmt.Sprintf("text-%dKiB", size>>10), func(b *testing.B) {
			agent, err := reference.New(reference.Options{Workdir: b.TempDir(), Environ: []string{},
				Model: reference.ModelFunc(func(context.Context, reference.ModelRequest) (reference.ModelResponse, error) {
					return reference.ModelResponse{Text: "done"}, nil
				})})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { agent.Close() })
			result, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": strings.Repeat("x", size)}}})
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				p, err := agent.Project(result)
				if err != nil {
					b.Fatal(err)
				}
				if p.Archived != (size > reference.ArchiveThreshold) {
					b.Fatalf("a %d-byte result: archived=%v", size, p.Archived)
				}
			}
		})
		// The share of Project that is go-sdk decoding the result, which a
		// run does anyway when the result arrives.
		b.Run(fmt.Sprintf("decode-only-%dKiB", size>>10), func(b *testing.B) {
			result, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": strings.Repeat("x", size)}}})
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				var res mcp.CallToolResult
				if err := json.Unmarshal(result, &res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// manyCallsModel asks, turn after turn, for calls of progress_echo spread
// over the servers, until it has asked for total calls; then it answers
// "done". It checks every tool result.
type manyCallsModel struct {
	servers, perTurn, total int
	asked                   int
	bad                     atomic.Int64
}

func (m *manyCallsModel) complete(_ context.Context, req reference.ModelRequest) (reference.ModelResponse, error) {
	last := req.Messages[len(req.Messages)-1]
	if last.Role == "user" {
		m.asked = 0
	}
	for i := len(req.Messages) - 1; i >= 0 && req.Messages[i].Role == "tool"; i-- {
		if t := req.Messages[i]; t.IsError || !strings.Contains(t.Text, benchText) {
			m.bad.Add(1)
		}
	}
	if m.asked >= m.total {
		return reference.ModelResponse{Text: "done"}, nil
	}
	n := min(m.perTurn, m.total-m.asked)
	calls := make([]reference.ToolCall, n)
	for i := range calls {
		calls[i] = reference.ToolCall{ID: fmt.Sprintf("c%d", m.asked+i), Arguments: benchArgs,
			Name: reference.ToolName(fmt.Sprintf("s%d", (m.asked+i)%m.servers), "progress_echo")}
	}
	m.asked += n
	return reference.ModelResponse{ToolCalls: calls}, nil
}

// BenchmarkManyCalls runs 1,000 tool calls across 8 stdio servers, with
// two progress events each, in one Send (63 model turns of up to 16
// calls). ns/op is per Send; ns/call and events/op are reported too.
func BenchmarkManyCalls(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	const servers, total = 8, 1000
	var named []reference.NamedServer
	for i := range servers {
		named = append(named, reference.NamedServer{Name: fmt.Sprintf("s%d", i),
			Config: reference.ServerConfig{Command: exe, Args: []string{benchServerCommand}}})
	}
	model := &manyCallsModel{servers: servers, perTurn: 16, total: total}
	agent, err := reference.New(reference.Options{
		Workdir: b.TempDir(), Environ: []string{}, MCPServers: named,
		Permission: &reference.Policy{Allow: []string{"*"}},
		Model:      reference.ModelFunc(model.complete),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { agent.Close() })
	var events atomic.Int64
	agent.Subscribe(func(ev reference.Event) {
		if ev.Type == "tool_progress" {
			events.Add(1)
		}
	})
	if _, err := agent.Send(context.Background(), "warm up"); err != nil {
		b.Fatal(err)
	}
	events.Store(0)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := agent.Send(context.Background(), "go"); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if n := model.bad.Load(); n != 0 {
		b.Fatalf("%d tool results were not the echo", n)
	}
	runs := int64(b.N)
	if got, want := events.Load(), 2*total*runs; got != want {
		b.Fatalf("%d tool_progress events, want %d", got, want)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(total*runs), "ns/call")
	b.ReportMetric(float64(events.Load())/float64(runs), "events/op")
}
