package node_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/internal/safetext"
	"github.com/mcpconform/mcpconform/internal/transcript"
)

// replayTranscripts replays every golden transcript of the adapter
// protocol (spec/transcripts, written from the reference's answers)
// against the adapter command argv.
func replayTranscripts(t *testing.T, argv []string) {
	transcripts, err := transcript.LoadDir(filepath.Join("..", "..", "..", "spec", "transcripts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range transcripts {
		t.Run(filepath.Base(tr.Path), func(t *testing.T) {
			t.Parallel()
			if _, err := transcript.Replay(context.Background(), tr, argv, t.TempDir()); err != nil {
				t.Fatalf("%s: %v", tr.Path, err)
			}
		})
	}
}

// TestStubReplaysTheTranscripts shows that the stub adapter, written from
// the protocol document alone, answers every transcript of the document
// as the reference does.
func TestStubReplaysTheTranscripts(t *testing.T) {
	replayTranscripts(t, nodeTarget(t).Command)
}

// TestMinimalAdapterReplaysTheTranscripts shows that the minimal adapter,
// the first example of spec/adapter-protocol.md, answers every transcript
// as the reference does.
func TestMinimalAdapterReplaysTheTranscripts(t *testing.T) {
	replayTranscripts(t, nodeCommand(t, "minimal-adapter.mjs"))
}

// TestTheDocumentShowsTheMinimalAdapter shows that the first example of
// spec/adapter-protocol.md is minimal-adapter.mjs, whole, and at most 80
// lines: the example that runs is the one people read.
func TestTheDocumentShowsTheMinimalAdapter(t *testing.T) {
	code, err := os.ReadFile("minimal-adapter.mjs")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "spec", "adapter-protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, found := strings.Cut(string(doc), "\n```js\n")
	block, _, closed := strings.Cut(rest, "\n```\n")
	if !found || !closed || block+"\n" != string(code) {
		t.Fatalf("Expected: the document's first JavaScript block to be minimal-adapter.mjs\nActual:   %s", safetext.Line(block, 300))
	}
	if n := strings.Count(string(code), "\n"); n > 80 {
		t.Fatalf("Expected: at most 80 lines\nActual:   %d", n)
	}
}
