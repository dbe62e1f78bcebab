package record

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
)

// maxRecordBytes bounds one record line from a fake process.
const maxRecordBytes = 64 << 20

// Server collects records from fake processes over loopback TCP into a
// [Log]. Each connection is one fake process: its first record must be a
// [KindStart], and when the connection closes the server appends a
// [KindExit] for the same instance. A connection whose first record is a
// [KindSandbox] reports that one record only, and leaves no exit. A
// connection whose first record is a [KindLatch] is a fake waiting at a
// latch: the record is appended at once, and its acknowledgement withheld
// until the latch is released ([Server.Release]); it leaves no exit.
type Server struct {
	log     *Log
	ln      net.Listener
	closing chan struct{} // closed by Close

	mu    sync.Mutex
	conns map[net.Conn]bool
	wg    sync.WaitGroup
}

// NewServer listens on 127.0.0.1 on a free port and appends what fakes
// report to log.
func NewServer(log *Log) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{log: log, ln: ln, conns: map[net.Conn]bool{}, closing: make(chan struct{})}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Addr is the address fakes report to, host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns[c] = true
		s.mu.Unlock()
		s.wg.Add(1)
		go s.serve(c)
	}
}

// serve reads one fake's records, acknowledging each with a newline.
func (s *Server) serve(c net.Conn) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		c.Close()
	}()
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 64<<10), maxRecordBytes)
	var start *Record
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			s.log.Append(Record{Kind: KindExit, Server: "?", Params: json.RawMessage(fmt.Sprintf("%q", "bad record: "+err.Error()))})
			return
		}
		if start == nil {
			if r.Kind == KindLatch {
				s.latch(c, r)
				return
			}
			if r.Kind == KindSandbox {
				s.log.Append(r)
				_, _ = c.Write([]byte{'\n'})
				return
			}
			if r.Kind != KindStart {
				return
			}
			start = &r
		}
		s.log.Append(r)
		if _, err := c.Write([]byte{'\n'}); err != nil {
			break
		}
	}
	if start != nil {
		s.log.Append(Record{Kind: KindExit, Server: start.Server, Instance: start.Instance, PID: start.PID})
	}
}

// latch serves a fake waiting at latch r.Method: it appends r, and
// acknowledges it when the latch is released. When the fake hangs up
// first, it appends r again with Aborted set; when the server closes, it
// drops the connection, which the fake takes as a release.
func (s *Server) latch(c net.Conn, r Record) {
	open := s.log.latch(r.Method)
	s.log.Append(r)
	// The fake sends nothing more: a read ends when it hangs up.
	gone := make(chan struct{})
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_, _ = c.Read(make([]byte, 1))
		close(gone)
	}()
	select {
	case <-open:
		_, _ = c.Write([]byte{'\n'})
	case <-gone:
		r.Aborted = true
		s.log.Append(r)
	case <-s.closing:
	}
}

// Release opens the latch name for every fake waiting at it, now and
// later, in fake processes and in the runner's process alike (it is
// [Log.Release] of the server's log).
func (s *Server) Release(name string) { s.log.Release(name) }

// Close stops accepting, drops every connection, opens every latch of its
// log (now and later) and waits for the server's goroutines.
func (s *Server) Close() error {
	s.mu.Lock()
	select {
	case <-s.closing:
	default:
		close(s.closing)
	}
	s.mu.Unlock()
	s.log.releaseAll()
	err := s.ln.Close()
	s.mu.Lock()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}
