package record

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"
)

// TestServerRecordsStartAndExit checks the life of a fake process as the
// log sees it: the start, each acknowledged record, and the exit when the
// connection closes.
func TestServerRecordsStartAndExit(t *testing.T) {
	log := NewLog()
	srv, err := NewServer(log)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := Dial(srv.Addr(), Record{Server: "p", Instance: "p/1", PID: 42})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Record(Record{Server: "p", Instance: "p/1", Kind: KindMessage, Dir: "in", Method: "tools/list"}); err != nil {
		t.Fatal(err)
	}
	// Acknowledged records are in the log before Record returns.
	if n := log.Len(); n != 2 {
		t.Fatalf("log has %d records after two acknowledged ones", n)
	}
	c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rs, err := log.Wait(ctx, func(rs []Record) bool { return len(rs) == 3 })
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Kind != KindStart || rs[1].Method != "tools/list" || rs[2].Kind != KindExit || rs[2].PID != 42 {
		t.Errorf("records %+v", rs)
	}
	for i, r := range rs {
		if r.Seq != int64(i+1) {
			t.Errorf("record %d has seq %d", i, r.Seq)
		}
	}
}

// TestServerRefusesAConnectionWithoutStart checks that a connection whose
// first record is not a start is dropped, recording nothing.
func TestServerRefusesAConnectionWithoutStart(t *testing.T) {
	log := NewLog()
	srv, err := NewServer(log)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte(`{"kind":"message","server":"p"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	// The server closes the connection instead of acknowledging.
	if _, err := conn.Read(make([]byte, 1)); err == nil {
		t.Error("the server acknowledged a record that was not a start")
	}
	srv.Close()
	if n := log.Len(); n != 0 {
		t.Errorf("the log holds %d records", n)
	}
}

func TestWaitHonoursTheDeadline(t *testing.T) {
	log := NewLog()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := log.Wait(ctx, func(rs []Record) bool { return len(rs) > 0 }); err == nil {
		t.Fatal("Wait returned without the condition or an error")
	}
}

func TestWaitWakesOnAppend(t *testing.T) {
	log := NewLog()
	done := make(chan error, 1)
	go func() {
		_, err := log.Wait(context.Background(), func(rs []Record) bool { return len(rs) == 1 })
		done <- err
	}()
	log.Append(Record{Kind: KindHTTP})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestReportRecordsOneSandboxRecordAndNoExit checks the one-shot
// connection of the fake sandbox: its record is appended before Report
// returns, and the connection's end leaves no exit.
func TestReportRecordsOneSandboxRecordAndNoExit(t *testing.T) {
	for _, tc := range []struct {
		name string
		kind Kind
		ok   bool
	}{
		{"sandbox", KindSandbox, true},
		{"message", KindMessage, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := NewLog()
			srv, err := NewServer(log)
			if err != nil {
				t.Fatal(err)
			}
			err = Report(srv.Addr(), Record{Kind: tc.kind, Argv: []string{"cmd"}, PID: 7})
			if (err == nil) != tc.ok {
				t.Fatalf("Report: %v", err)
			}
			// Close waits for the connection's goroutine: every record the
			// server would append is in the log afterwards.
			srv.Close()
			rs := log.Records()
			if tc.ok && (len(rs) != 1 || rs[0].Kind != KindSandbox || rs[0].Argv[0] != "cmd") {
				t.Errorf("records %+v", rs)
			}
			if !tc.ok && len(rs) != 0 {
				t.Errorf("records %+v", rs)
			}
		})
	}
}

// latchRecords returns the latch and release records of latch name.
func latchRecords(rs []Record, name string) (waits, aborts, releases int) {
	for _, r := range rs {
		switch {
		case r.Kind == KindLatch && r.Method == name && r.Aborted:
			aborts++
		case r.Kind == KindLatch && r.Method == name:
			waits++
		case r.Kind == KindRelease && r.Method == name:
			releases++
		}
	}
	return
}

// TestLatch runs fakes waiting at latches, over the record server (as fake
// processes do) and on the log (as in-process fakes do): the wait is
// recorded at once and holds until the release, a released latch stays
// open, a fake that gives up is recorded so, and closing the server
// releases everyone.
func TestLatch(t *testing.T) {
	t.Parallel()
	type waiter func(ctx context.Context, srv *Server, log *Log, name string) error
	remote := func(ctx context.Context, srv *Server, _ *Log, name string) error {
		return Latch(ctx, srv.Addr(), Record{Server: "p", Instance: "p/1", Method: name})
	}
	local := func(ctx context.Context, _ *Server, log *Log, name string) error {
		return log.WaitLatch(ctx, Record{Server: "h", Instance: "h@http", Method: name})
	}
	for _, w := range []struct {
		name string
		wait waiter
	}{{"record server", remote}, {"log", local}} {
		for _, tc := range []struct {
			name string
			// act runs once the fake waits; it returns whether the wait
			// must succeed.
			act          func(t *testing.T, srv *Server, cancel context.CancelFunc) bool
			wantReleases int
			wantAborts   int
		}{
			{"released", func(t *testing.T, srv *Server, _ context.CancelFunc) bool {
				srv.Release("other") // another latch opens nothing here
				srv.Release("gate")
				srv.Release("gate") // once is recorded
				return true
			}, 1, 0},
			{"cancelled", func(t *testing.T, _ *Server, cancel context.CancelFunc) bool {
				cancel()
				return false
			}, 0, 1},
			{"server closed", func(t *testing.T, srv *Server, _ context.CancelFunc) bool {
				srv.Close()
				return true
			}, 0, 0},
		} {
			t.Run(w.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				log := NewLog()
				srv, err := NewServer(log)
				if err != nil {
					t.Fatal(err)
				}
				defer srv.Close()
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				done := make(chan error, 1)
				go func() { done <- w.wait(ctx, srv, log, "gate") }()
				wctx, wcancel := context.WithTimeout(context.Background(), time.Minute)
				defer wcancel()
				if _, err := log.Wait(wctx, func(rs []Record) bool {
					waits, _, _ := latchRecords(rs, "gate")
					return waits == 1
				}); err != nil {
					t.Fatal(err)
				}
				select {
				case err := <-done:
					t.Fatalf("the wait ended before anything happened: %v", err)
				default:
				}
				ok := tc.act(t, srv, cancel)
				select {
				case err := <-done:
					if (err == nil) != ok {
						t.Fatalf("the wait ended with %v", err)
					}
				case <-wctx.Done():
					t.Fatal("the wait did not end")
				}
				rs, err := log.Wait(wctx, func(rs []Record) bool {
					_, aborts, _ := latchRecords(rs, "gate")
					return aborts == tc.wantAborts
				})
				if err != nil {
					t.Fatal(err)
				}
				if _, _, releases := latchRecords(rs, "gate"); releases != tc.wantReleases {
					t.Errorf("%d release records", releases)
				}
				for _, r := range rs {
					if r.Kind == KindExit {
						t.Errorf("a latch connection left an exit: %+v", r)
					}
				}
				// A released latch stays open: a later wait passes at once.
				if tc.wantReleases > 0 {
					if err := w.wait(wctx, srv, log, "gate"); err != nil {
						t.Errorf("a second wait at the open latch: %v", err)
					}
				}
			})
		}
	}
}

// TestReportToAServerThatHangsUp: a server that acknowledges a one-record
// connection and hangs up at once has acknowledged it, however fast the
// end follows the acknowledgement.
func TestReportToAServerThatHangsUp(t *testing.T) {
	srv, err := NewServer(NewLog())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for i := range 100 {
		if err := Report(srv.Addr(), Record{Kind: KindSandbox, Server: "s", Instance: fmt.Sprintf("sandbox/%d", i)}); err != nil {
			t.Fatalf("report %d: %v", i, err)
		}
	}
	if n := srv.log.Len(); n != 100 {
		t.Errorf("%d records, want 100", n)
	}
}

// TestLostSaysTheServerWentAway: a fake's client learns that the server
// went away, and not that it closed the connection itself.
func TestLostSaysTheServerWentAway(t *testing.T) {
	srv, err := NewServer(NewLog())
	if err != nil {
		t.Fatal(err)
	}
	c, err := Dial(srv.Addr(), Record{Server: "s", Instance: "s/1"})
	if err != nil {
		t.Fatal(err)
	}
	mine, err := Dial(srv.Addr(), Record{Server: "s", Instance: "s/2"})
	if err != nil {
		t.Fatal(err)
	}
	mine.Close()
	srv.Close()
	select {
	case <-c.Lost():
	case <-time.After(time.Minute):
		t.Fatal("the client never learnt that the server went away")
	}
	select {
	case <-mine.Lost():
		t.Error("a client that closed its own connection counts it as lost")
	default:
	}
}
