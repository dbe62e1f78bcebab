package rpcadapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMalformedInputIsLocated checks that input breaking the protocol ends
// the connection with the byte offset of the bad message and the reason.
func TestMalformedInputIsLocated(t *testing.T) {
	good := `{"jsonrpc":"2.0","method":"host/event","params":{}}` + "\n"
	tests := []struct {
		name   string
		input  string
		offset int64
		reason string
	}{
		{"not JSON", good + "hello\n", int64(len(good)), "hello"},
		{"wrong version", good + `{"jsonrpc":"1.0","method":"x"}` + "\n", int64(len(good)), "version"},
		{"a batch", `[{"jsonrpc":"2.0","method":"x"}]` + "\n", 0, "unmarshaling"},
		{"an answer never asked for", good + good + `{"jsonrpc":"2.0","id":5,"result":{}}` + "\n", 2 * int64(len(good)), "never sent"},
		{"a cut message", good + `{"jsonrpc":"2.0",`, int64(len(good)), "ended in the middle"},
		{"a message over 16 MiB", good + `{"x":"` + strings.Repeat("a", MaxLine) + "\"}\n", int64(len(good)), "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewConn(strings.NewReader(tt.input), io.Discard, func(context.Context, string, json.RawMessage) (any, error) { return nil, nil })
			err := c.Run()
			var pe *ProtocolError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a protocol error", err)
			}
			if pe.Offset != tt.offset || !strings.Contains(pe.Reason, tt.reason) {
				t.Errorf("got offset %d %q, want offset %d mentioning %q", pe.Offset, pe.Reason, tt.offset, tt.reason)
			}
		})
	}
}

// TestCleanEnd checks that the end of input is not a protocol error.
func TestCleanEnd(t *testing.T) {
	c := NewConn(strings.NewReader("\n\n"), io.Discard, nil)
	if err := c.Run(); !errors.Is(err, io.EOF) {
		t.Errorf("got %v, want EOF", err)
	}
	if err := c.Call(context.Background(), "x", nil, nil); !errors.Is(err, io.EOF) {
		t.Errorf("a call on an ended connection: %v", err)
	}
}

// TestCallbacksArriveInOrder sends requests and notifications in one
// burst: Arrive sees them in the order they were sent, in the reading
// goroutine, however long each takes to serve, and each handler gets the
// context Arrive returned; the last served first.
func TestCallbacksArriveInOrder(t *testing.T) {
	var in strings.Builder
	var want []string
	for i := range 20 {
		if i%3 == 0 {
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","method":"note","params":{"n":%d}}`+"\n", i)
		} else {
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"ask","params":{"n":%d}}`+"\n", i, i)
		}
		want = append(want, strconv.Itoa(i))
	}
	type key struct{}
	var mu sync.Mutex
	var arrived, served []string
	release := make(chan struct{})
	c := NewConn(strings.NewReader(in.String()), io.Discard, func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		n := ctx.Value(key{}).(string)
		if method == "ask" && n != "19" {
			<-release // every request but the last waits for the last
		}
		mu.Lock()
		served = append(served, n)
		mu.Unlock()
		if n == "19" {
			close(release)
		}
		return empty{}, nil
	})
	c.Arrive = func(ctx context.Context, method string, params json.RawMessage) context.Context {
		var p struct{ N int }
		_ = json.Unmarshal(params, &p)
		mu.Lock()
		arrived = append(arrived, strconv.Itoa(p.N))
		mu.Unlock()
		return context.WithValue(ctx, key{}, strconv.Itoa(p.N))
	}
	if err := c.Run(); !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	if !slices.Equal(arrived, want) {
		t.Errorf("arrival order\n  Expected: %v\n  Actual:   %v", want, arrived)
	}
	if len(served) != 20 || served[len(served)-1] == "19" {
		t.Errorf("served %v: want all 20, the last request before the ones that waited for it", served)
	}
}

// TestLimitsBreakTheConnection: past a bound, the connection breaks with
// a FloodError naming the bound and where it was passed.
func TestLimitsBreakTheConnection(t *testing.T) {
	note := `{"jsonrpc":"2.0","method":"note","params":{}}` + "\n"
	ask := func(i int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ask","params":{}}`+"\n", i) }
	var asks strings.Builder
	for i := range 5 {
		asks.WriteString(ask(i))
	}
	tests := []struct {
		name   string
		input  string
		limits Limits
		what   string
		offset int64
	}{
		{"notifications", strings.Repeat(note, 4), Limits{Notifications: 3}, "notifications", 3 * int64(len(note))},
		{"bytes", strings.Repeat(note, 4), Limits{Bytes: 2*int64(len(note)) + 1}, "bytes of messages", 2 * int64(len(note))},
		{"requests in flight", asks.String(), Limits{InFlight: 3}, "requests awaiting an answer at once", int64(len(ask(0)) * 3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hold := make(chan struct{})
			c := NewConn(strings.NewReader(tt.input), io.Discard, func(ctx context.Context, method string, params json.RawMessage) (any, error) {
				if method == "ask" {
					select { // requests stay in flight until the connection breaks
					case <-hold:
					case <-ctx.Done():
					}
				}
				return empty{}, nil
			})
			c.Limits = tt.limits
			err := c.Run()
			close(hold)
			var fe *FloodError
			if !errors.As(err, &fe) || fe.What != tt.what || fe.Offset != tt.offset {
				t.Errorf("got %v, want a flood of %s at byte offset %d", err, tt.what, tt.offset)
			}
		})
	}
}

// TestAnUndecodableResultIsLocated: a result that does not decode into
// what was asked names where its message was, not byte offset 0.
func TestAnUndecodableResultIsLocated(t *testing.T) {
	pr, pw := io.Pipe()
	asked := make(chan struct{}) // the request was written: its answer may come
	c := NewConn(pr, writeSignal{new(sync.Once), asked}, func(context.Context, string, json.RawMessage) (any, error) { return nil, nil })
	go func() { _ = c.Run() }()
	first := `{"jsonrpc":"2.0","method":"note","params":{}}` + "\n"
	go func() {
		<-asked
		_, _ = pw.Write([]byte(first + `{"jsonrpc":"2.0","id":1,"result":{"servers":5}}` + "\n"))
	}()
	var res ListResult
	err := c.Call(context.Background(), "agent/list", AgentRef{"a"}, &res)
	pw.Close()
	var pe *ProtocolError
	if !errors.As(err, &pe) || pe.Offset != int64(len(first)) || !strings.Contains(pe.Reason, "the result of agent/list does not decode") {
		t.Errorf("got %v, want the result of agent/list located at byte offset %d", err, len(first))
	}
}

// TestTrafficHasNoNewline: a message received is observed without the
// newline that ended it, so that the wire log has no blank lines.
func TestTrafficHasNoNewline(t *testing.T) {
	var raws []string
	c := NewConn(strings.NewReader(`{"jsonrpc":"2.0","method":"note","params":{}}`+"\r\n"), io.Discard, func(context.Context, string, json.RawMessage) (any, error) { return nil, nil })
	c.Observe = func(tr Traffic) { raws = append(raws, string(tr.Raw)) }
	_ = c.Run()
	if len(raws) != 1 || strings.ContainsAny(raws[0], "\r\n") {
		t.Errorf("observed %q", raws)
	}
}

// TestNotificationsInOrder checks that notifications reach the handler in
// the order they arrived, one at a time: events are ordered.
func TestNotificationsInOrder(t *testing.T) {
	const n = 500
	var in strings.Builder
	for i := range n {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","method":"host/event","params":{"n":%d}}`+"\n", i)
	}
	var mu sync.Mutex
	var got []int
	busy := false
	c := NewConn(strings.NewReader(in.String()), io.Discard, func(_ context.Context, _ string, params json.RawMessage) (any, error) {
		mu.Lock()
		if busy {
			t.Error("two notifications were handled at once")
		}
		busy = true
		mu.Unlock()
		var p struct{ N int }
		_ = json.Unmarshal(params, &p)
		mu.Lock()
		got, busy = append(got, p.N), false
		mu.Unlock()
		return nil, nil
	})
	if err := c.Run(); !errors.Is(err, io.EOF) {
		t.Fatalf("Run: %v", err)
	}
	if len(got) != n {
		t.Fatalf("%d notifications handled, want %d", len(got), n)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("notification %d was handled in place %d: %v…", v, i, got[:i+1])
		}
	}
}

// writeSignal discards what is written and closes its channel at the first
// write: a test answers a request only once it was sent, as an adapter does.
type writeSignal struct {
	once    *sync.Once
	written chan struct{}
}

func (w writeSignal) Write(b []byte) (int, error) {
	w.once.Do(func() { close(w.written) })
	return len(b), nil
}

// TestResetLimitsCountsAgain: after ResetLimits the bounds count from the
// next message (an adapter process's bounds are per scenario), and the
// offsets a flood names stay those of the stream.
func TestResetLimitsCountsAgain(t *testing.T) {
	note := `{"jsonrpc":"2.0","method":"note","params":{}}` + "\n"
	tests := []struct {
		name   string
		limits Limits
		what   string
	}{
		{"notifications", Limits{Notifications: 3}, "notifications"},
		{"bytes", Limits{Bytes: 3 * int64(len(note))}, "bytes of messages"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, w := io.Pipe()
			seen := make(chan struct{}, 16)
			c := NewConn(r, io.Discard, func(context.Context, string, json.RawMessage) (any, error) {
				seen <- struct{}{}
				return nil, nil
			})
			c.Limits = tt.limits
			done := make(chan error, 1)
			go func() { done <- c.Run() }()
			send := func(n int) {
				for range n {
					if _, err := io.WriteString(w, note); err != nil {
						t.Fatal(err)
					}
					select {
					case <-seen:
					case <-time.After(time.Minute):
						t.Fatal("a notification was not handled")
					}
				}
			}
			send(3) // at the bound
			c.ResetLimits()
			send(3) // at the bound again: no flood
			go io.WriteString(w, note)
			select {
			case err := <-done:
				var fe *FloodError
				if !errors.As(err, &fe) || fe.What != tt.what || fe.Offset != 6*int64(len(note)) {
					t.Errorf("got %v; want a flood of %s at byte offset %d", err, tt.what, 6*len(note))
				}
			case <-time.After(time.Minute):
				t.Fatal("the seventh notification did not break the connection")
			}
			w.Close()
		})
	}
}
