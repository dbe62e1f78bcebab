package rpcadapter_test

import (
	"context"
	"testing"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
)

// benchSuite runs the whole suite against target once per iteration.
func benchSuite(b *testing.B, target adapter.Target) {
	scenarios := 0
	for b.Loop() {
		rep, err := conformance.Run(context.Background(), conformance.Options{Target: target})
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

// BenchmarkSuiteInProcess and BenchmarkSuiteThroughProtocol compare a full
// run of the suite against the reference in-process and through the
// adapter protocol (one adapter process per scenario).
func BenchmarkSuiteInProcess(b *testing.B) { benchSuite(b, refadapter.Target{}) }

func BenchmarkSuiteThroughProtocol(b *testing.B) { benchSuite(b, adapterTarget(b, "reference")) }

// BenchmarkAdapterStart measures what one scenario pays for its own adapter
// process: start, handshake, shutdown and reaping.
func BenchmarkAdapterStart(b *testing.B) {
	t := adapterTarget(b, "reference")
	dir := b.TempDir()
	for b.Loop() {
		a, err := t.Open(context.Background(), adapter.Env{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		a.Close()
	}
}
