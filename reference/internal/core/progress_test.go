package core

import (
	"fmt"
	"strings"
	"testing"
)

// TestScanCountsTokensWhereverReadsCut: the progress tokens a server's
// output names are counted once each, however the reads cut the stream:
// in one read, cut between two reads, or spread over many one-byte reads;
// a token of another call and a longer token that starts like one are not
// counted for it.
func TestScanCountsTokensWhereverReadsCut(t *testing.T) {
	var r progressRoutes
	emit := func(Event) {}
	a := r.route("1", "mcp__s__t", "s", emit) // lite-agent-progress-1
	_ = r.route("2", "mcp__s__t", "s", emit)  // lite-agent-progress-2
	long := ""
	for range 9 { // up to lite-agent-progress-11: longer, and starting like token 1
		long = r.route("n", "mcp__s__t", "s", emit)
	}
	note := func(token string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%q,"progress":1}}`+"\n", token)
	}
	stream := note(a) + note(long) + note("lite-agent-progress-2") + note(a) + `{"jsonrpc":"2.0","id":3,"result":{}}` + "\n"
	for _, size := range []int{1, 2, 7, 23, 24, 25, 64, len(stream)} {
		t.Run(fmt.Sprintf("reads of %d bytes", size), func(t *testing.T) {
			r.tail = r.tail[:0]
			for _, rt := range r.routes {
				rt.seen = 0
			}
			for s := stream; s != ""; {
				n := min(size, len(s))
				r.scan([]byte(s[:n]))
				s = s[n:]
			}
			want := map[string]int{a: 2, "lite-agent-progress-2": 1, long: 1}
			for token, rt := range r.routes {
				if rt.seen != want[token] {
					t.Errorf("Expected: %s counted %d times\n  Actual: %d (stream %s)", token, want[token], rt.seen, strings.TrimSpace(stream))
				}
			}
		})
	}
}
