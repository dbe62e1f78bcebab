package rpcadapter

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpconform/mcpconform/internal/tailbuf"
)

// TestDrainStderrTakesWhatThePipeHeld: once drainStderr returns,
// everything written into the stderr pipe before it was called is in the
// current scenario's tail, although the copier was still reading it.
func TestDrainStderrTakesWhatThePipeHeld(t *testing.T) {
	for i := range 20 {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		a := &adapterProc{stderrPipe: r, stderrDone: make(chan struct{})}
		a.cur = &process{stderr: tailbuf.New(64 << 10)}
		go func() {
			a.copyStderr(r)
			close(a.stderrDone)
		}()
		// Less than the pipe holds, so the write returns at once, most of
		// it unread.
		if _, err := w.WriteString(strings.Repeat("x", 48<<10) + "\nLAST-WORDS\n"); err != nil {
			t.Fatal(err)
		}
		a.drainStderr()
		if got := a.cur.stderr.String(); !strings.HasSuffix(got, "LAST-WORDS\n") {
			t.Errorf("round %d: the tail ends %q; want the last words", i, got[max(0, len(got)-20):])
		}
		w.Close()
		<-a.stderrDone
		r.Close()
	}
}
