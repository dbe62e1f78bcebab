package conformance_test

import (
	"context"
	"testing"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
)

// BenchmarkSuite measures one full run of the suite against the reference,
// in-process, reported as scenarios per second, so that later work can be
// compared with it.
func BenchmarkSuite(b *testing.B) {
	scenarios := 0
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
}
