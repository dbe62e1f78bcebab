package rpcadapter_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
	"github.com/mcpconform/mcpconform/internal/procs"
)

// benchSuite runs the whole suite against target once per iteration, and
// reports scenarios per second and CPU-seconds per run (the runner's and
// its waited-for children's: adapters and fakes).
func benchSuite(b *testing.B, target adapter.Target) {
	scenarios := 0
	defer reportCPU(b)()
	for b.Loop() {
		rep, err := conformance.Run(context.Background(), conformance.Options{Target: target})
		if err != nil {
			b.Fatal(err)
		}
		if !rep.OK() {
			var failed []string
			for _, s := range rep.Scenarios {
				if s.Status == conformance.StatusFailed {
					failed = append(failed, s.ID+": "+s.Error)
				}
			}
			b.Fatalf("the reference failed: %+v\n%s", rep.Summary, strings.Join(failed, "\n"))
		}
		scenarios += len(rep.Scenarios)
	}
	b.ReportMetric(float64(scenarios)/b.Elapsed().Seconds(), "scenarios/s")
}

// BenchmarkSuiteInProcess and BenchmarkSuiteThroughProtocol compare a full
// run of the suite against the reference in-process and through the
// adapter protocol: one adapter process per scenario, or (reuse) adapter
// processes that serve scenarios in turn, as `mcpconform run` has them.
func BenchmarkSuiteInProcess(b *testing.B) { benchSuite(b, refadapter.Target{}) }

func BenchmarkSuiteThroughProtocol(b *testing.B) {
	b.Run("test-binary", func(b *testing.B) { benchSuite(b, adapterTarget(b, "reference")) })
	b.Run("mcpconform-reference", func(b *testing.B) {
		benchSuite(b, &rpcadapter.Target{Command: []string{referenceBinary(b)}})
	})
	b.Run("mcpconform-reference-reuse", func(b *testing.B) {
		benchSuite(b, &rpcadapter.Target{Command: []string{referenceBinary(b)}, Reuse: true})
	})
}

// BenchmarkAdapterStart measures what one scenario pays for its own adapter
// process: start, handshake, shutdown and reaping, in wall time and CPU
// (the runner's and the adapter's). The test binary links the whole
// runner, as the mcpconform CLI does (`adapter serve-reference`);
// cmd/mcpconform-reference links only the reference and the protocol.
func BenchmarkAdapterStart(b *testing.B) {
	b.Run("test-binary", func(b *testing.B) { benchStart(b, adapterTarget(b, "reference")) })
	b.Run("mcpconform-reference", func(b *testing.B) {
		benchStart(b, &rpcadapter.Target{Command: []string{referenceBinary(b)}})
	})
	// What a scenario pays when processes serve scenarios in turn: the end
	// of the last (scenario/end, the look for what it left) and its begin.
	b.Run("mcpconform-reference-reuse", func(b *testing.B) {
		benchStart(b, &rpcadapter.Target{Command: []string{referenceBinary(b)}, Reuse: true})
	})
}

// benchStart opens and closes an adapter of t once per iteration.
func benchStart(b *testing.B, t *rpcadapter.Target) {
	dir := b.TempDir()
	defer t.Close()
	defer reportCPU(b)()
	for b.Loop() {
		a, err := t.Open(context.Background(), adapter.Env{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		a.Close()
	}
}

// referenceBinary builds cmd/mcpconform-reference into the benchmark's
// temporary directory with the go command on PATH (from its build cache
// after the first time) and returns its path.
func referenceBinary(b *testing.B) string {
	path := filepath.Join(b.TempDir(), "mcpconform-reference")
	out, err := exec.Command("go", "build", "-o", path, "github.com/mcpconform/mcpconform/cmd/mcpconform-reference").CombinedOutput()
	if err != nil {
		b.Skipf("cmd/mcpconform-reference could not be built: %v\n%s", err, out)
	}
	return path
}

// reportCPU starts counting CPU time; the function it returns reports it,
// per iteration, in cpu-ms/op: the runner's and its descendants', the
// adapter processes still running included ([procs.Spent]).
func reportCPU(b *testing.B) func() {
	spent := procs.Spent()
	return func() {
		b.ReportMetric(float64(spent())/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkProtocolCall measures what one operation of a scenario pays for
// the adapter protocol: an agent's List (one request and its answer) and a
// Send whose model is asked once (a request, a host/model callback and
// their answers), in-process and through an adapter process of
// cmd/mcpconform-reference that serves scenarios in turn, in wall time and
// CPU (the runner's and the adapter's). The difference between the two is
// the protocol's cost per message.
func BenchmarkProtocolCall(b *testing.B) {
	targets := []struct {
		name   string
		target func(b *testing.B) adapter.Target
	}{
		{"in-process", func(*testing.B) adapter.Target { return refadapter.Target{} }},
		{"mcpconform-reference", func(b *testing.B) adapter.Target {
			t := &rpcadapter.Target{Command: []string{referenceBinary(b)}, Reuse: true}
			b.Cleanup(func() { t.Close() })
			return t
		}},
	}
	ops := []struct {
		name string
		op   func(context.Context, adapter.Agent) error
	}{
		{"list", func(ctx context.Context, g adapter.Agent) error { _, err := g.List(ctx); return err }},
		{"send", func(ctx context.Context, g adapter.Agent) error { _, err := g.Send(ctx, "hello"); return err }},
	}
	for _, op := range ops {
		for _, tt := range targets {
			b.Run(op.name+"/"+tt.name, func(b *testing.B) {
				ctx := context.Background()
				dir := b.TempDir()
				work := filepath.Join(dir, "work")
				if err := os.MkdirAll(work, 0o755); err != nil {
					b.Fatal(err)
				}
				a, err := tt.target(b).Open(ctx, adapter.Env{Dir: dir, Environ: []string{"HOME=" + dir}})
				if err != nil {
					b.Fatal(err)
				}
				defer a.Close()
				g, err := a.NewAgent(ctx, adapter.AgentOptions{System: adapter.LiteAgent, Workdir: work}, answeringHost{})
				if err != nil {
					b.Fatal(err)
				}
				defer reportCPU(b)()
				for b.Loop() {
					if err := op.op(ctx, g); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// answeringHost is the host of an agent whose model answers every request
// with a text and no tool call.
type answeringHost struct{ adapter.Host }

func (answeringHost) Model(context.Context, adapter.ModelRequest) (adapter.ModelResponse, error) {
	return adapter.ModelResponse{Text: "hello back"}, nil
}

func (answeringHost) Event(context.Context, adapter.Event) {}
