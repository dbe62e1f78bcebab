package record

import (
	"context"
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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
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
