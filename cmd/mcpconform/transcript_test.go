package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpconform/mcpconform/internal/transcript"
)

var update = flag.Bool("update", false, "rewrite spec/transcripts from `mcpconform adapter serve-reference`")

// TestTranscripts replays every golden transcript of the adapter protocol
// (spec/transcripts) against `mcpconform adapter serve-reference`, the
// reference behind the protocol: the document's examples are what the
// reference says. With -update it rewrites them from what it says,
// keeping each "…" wildcard. The Node stub replays the same files
// (conformance/adapters/node).
func TestTranscripts(t *testing.T) {
	transcripts, err := transcript.LoadDir(filepath.Join("..", "..", "spec", "transcripts"))
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{self(t), "adapter", "serve-reference"}
	for _, tr := range transcripts {
		t.Run(filepath.Base(tr.Path), func(t *testing.T) {
			t.Parallel()
			if !*update {
				if _, err := transcript.Replay(context.Background(), tr, argv, t.TempDir()); err != nil {
					t.Fatalf("%s: %v", tr.Path, err)
				}
				return
			}
			got, err := transcript.Record(context.Background(), tr, argv, t.TempDir())
			if err != nil {
				t.Fatalf("%s: %v", tr.Path, err)
			}
			out, err := tr.Format(got)
			if err != nil {
				t.Fatalf("%s: %v", tr.Path, err)
			}
			if err := os.WriteFile(tr.Path, out, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}
