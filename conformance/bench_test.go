package conformance_test

import (
	"context"
	"testing"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/internal/procs"
)

// BenchmarkSuite measures one full run of the suite against the reference,
// in-process, reported as scenarios per second and as CPU-seconds per run
// (the runner's and its descendants': the fakes), so that later
// work can be compared with it. Issue 14's targets: at most 8 s and
// 10 CPU-s per run on 2 cores.
func BenchmarkSuite(b *testing.B) {
	scenarios := 0
	spent := procs.Spent()
	for b.Loop() {
		rep, err := conformance.Run(context.Background(), conformance.Options{Target: refadapter.Target{}})
		if err != nil {
			b.Fatal(err)
		}
		if !rep.OK() {
			b.Fatalf("the reference failed: %+v", rep.Summary)
		}
		scenarios += len(rep.Scenarios)
	}
	b.ReportMetric(float64(scenarios)/b.Elapsed().Seconds(), "scenarios/s")
	b.ReportMetric(spent().Seconds()/float64(b.N), "cpu-s/op")
}
