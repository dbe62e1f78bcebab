package rpcadapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
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
