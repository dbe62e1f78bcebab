package mcpfake

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpconform/mcpconform/fakes/record"
	"github.com/mcpconform/mcpconform/internal/fakebin"
	"github.com/mcpconform/mcpconform/internal/procs"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeBin is the mcpconform-fake binary BenchmarkStdioFake measures; by
// default it is cmd/mcpconform-fake built from this checkout. Set it to
// compare builds (old and new binaries, each with the test binary of its
// own commit).
var fakeBin = flag.String("fakebin", "", "the mcpconform-fake binary BenchmarkStdioFake measures (default: built from this checkout)")

// BenchmarkStdioFake measures one stdio fake's life as a scenario has it:
// the fake process started with a script and a record server, initialized
// by a go-sdk client, its tools listed, one tool called, the client closed
// and the fake's exit recorded; in wall time and CPU (this process's: the
// client and the record server, and the fake's, waited for). The
// mcpconform-fake binary is what `mcpconform run` starts; the test binary
// is what the suite under `go test` starts.
func BenchmarkStdioFake(b *testing.B) {
	b.Run("mcpconform-fake", func(b *testing.B) { benchStdioFake(b, fakeBinary(b)) })
	b.Run("test-binary", func(b *testing.B) { benchStdioFake(b, os.Args[0]) })
}

// benchStdioFake runs one stdio fake's life of exe per iteration.
func benchStdioFake(b *testing.B, exe string) {
	script := &Script{
		Name: "bench",
		Tools: []Tool{
			{Name: "echo", Description: "echoes", InputSchema: []byte(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
			{Name: "other", Description: "another tool"},
		},
		Calls: map[string]Call{"echo": {Text: "echoed"}},
	}
	path := filepath.Join(b.TempDir(), "bench.json")
	if err := script.WriteFile(path); err != nil {
		b.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bench-client", Version: "1"}, nil)
	defer reportCPU(b)()
	for b.Loop() {
		// A record server per fake, as a scenario has one of its own.
		log := record.NewLog()
		srv, err := record.NewServer(log)
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(exe, StdioArgs(path, srv.Addr())...)}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cs.ListTools(ctx, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}); err != nil {
			b.Fatal(err)
		}
		if err := cs.Close(); err != nil {
			b.Fatal(err)
		}
		// The scenario's log holds the fake's exit once its record
		// connection closed.
		if _, err := log.Wait(ctx, func(rs []record.Record) bool { return len(of(rs, record.KindExit)) > 0 }); err != nil {
			b.Fatalf("waiting for the fake's exit record: %v", err)
		}
		cancel()
		if err := srv.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// fakeBinary is -fakebin, or cmd/mcpconform-fake as make build builds it
// (static, built once per test process: [fakebin.Command]).
func fakeBinary(b *testing.B) string {
	if *fakeBin != "" {
		return *fakeBin
	}
	cmd, ok := fakebin.Command()
	if !ok {
		b.Skip("cmd/mcpconform-fake could not be built (fakebin said why on stderr)")
	}
	return cmd[0]
}

// reportCPU starts counting CPU time; the function it returns reports it,
// per iteration, in cpu-ms/op (this process's and the fakes' it waited
// for) and fake-cpu-ms/op (the fakes' alone).
func reportCPU(b *testing.B) func() {
	spent := procs.Spent()
	_, children0 := procs.CPU()
	return func() {
		_, children1 := procs.CPU()
		perOp := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
		b.ReportMetric(perOp(spent()), "cpu-ms/op")
		b.ReportMetric(perOp(children1-children0), "fake-cpu-ms/op")
	}
}
