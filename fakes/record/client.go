package record

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// A Sink receives records. [*Log] is one (for fakes in the runner's
// process) and [*Client] is another (for fake processes).
type Sink interface {
	Record(r Record) error
}

// Record appends r to the log; it never fails.
func (l *Log) Record(r Record) error {
	l.Append(r)
	return nil
}

// Client reports records from a fake process to a [Server]. Each call of
// [Client.Record] waits for the server's acknowledgement. The connection
// is also the fake's lifeline: when it ends without [Client.Close] (the
// runner is gone, or closed the scenario), [Client.Lost] says so, and a
// fake process exits.
type Client struct {
	mu   sync.Mutex // one record at a time
	conn net.Conn
	acks chan struct{} // one per acknowledgement read
	gone chan struct{} // closed when the connection has ended
	// closing is set by Close: an end after it is not a loss.
	closing atomic.Bool
	lost    chan struct{} // closed when the connection ended without Close
}

// newClient starts reading acknowledgements on conn.
func newClient(conn net.Conn) *Client {
	c := &Client{conn: conn, acks: make(chan struct{}, 1), gone: make(chan struct{}), lost: make(chan struct{})}
	go c.read()
	return c
}

// read turns the server's bytes into acknowledgements until the
// connection ends.
func (c *Client) read() {
	r := bufio.NewReader(c.conn)
	for {
		b, err := r.ReadByte()
		if err != nil {
			close(c.gone)
			if !c.closing.Load() {
				close(c.lost)
			}
			return
		}
		if b == '\n' {
			select {
			case c.acks <- struct{}{}:
			case <-c.gone:
			}
		}
	}
}

// Dial connects to the server at addr and reports start as the process's
// first record.
func Dial(addr string, start Record) (*Client, error) {
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return nil, fmt.Errorf("connecting to the record server: %w", err)
	}
	c := newClient(conn)
	start.Kind = KindStart
	if err := c.Record(start); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Record sends r and waits until the server has appended it.
func (c *Client) Record(r Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.conn.Write(append(b, '\n')); err != nil {
		return err
	}
	select {
	case <-c.acks:
		return nil
	case <-c.gone:
		// A server that acknowledges and hangs up (a one-record
		// connection) can close the connection as soon as the
		// acknowledgement is read: it still counts.
		select {
		case <-c.acks:
			return nil
		default:
			return errors.New("the record server did not acknowledge: the connection ended")
		}
	}
}

// Lost is closed when the connection to the server ended other than by
// [Client.Close]: the runner that started the scenario is gone, or has
// closed it.
func (c *Client) Lost() <-chan struct{} { return c.lost }

// Close closes the connection; the server then records the exit.
func (c *Client) Close() error {
	c.closing.Store(true)
	return c.conn.Close()
}

// Report connects to the server at addr, reports r as the only record of
// the connection, waits for the acknowledgement and disconnects. r must be
// of a kind that needs no start ([KindSandbox]); the server appends no exit
// for it.
func Report(addr string, r Record) error {
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return fmt.Errorf("connecting to the record server: %w", err)
	}
	c := newClient(conn)
	defer c.Close()
	return c.Record(r)
}

// Latch waits at a latch for a fake process: it connects to the server at
// addr, reports r as a [KindLatch] record (Method is the latch's name;
// Server and Instance the fake's) and waits for the acknowledgement, which
// the server sends when the latch is released. It returns nil when the
// latch was released, and also when the server went away (closing the
// server releases every latch). When ctx ends first it hangs up, which the
// server records, and returns ctx's error. It fails only when ctx ends or
// the server cannot be reached.
func Latch(ctx context.Context, addr string, r Record) error {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, err := d.DialContext(dctx, "tcp", addr)
	cancel()
	if err != nil {
		return fmt.Errorf("connecting to the record server: %w", err)
	}
	defer conn.Close()
	r.Kind = KindLatch
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := conn.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("reporting latch %q: %w", r.Method, err)
	}
	// Hang up when ctx ends: the read below returns then.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	_, _ = conn.Read(make([]byte, 1))
	if ctx.Err() != nil {
		return fmt.Errorf("waiting at latch %q: %w", r.Method, context.Cause(ctx))
	}
	// An acknowledgement, or the end of the server (a failed read): either
	// way the latch is open.
	return nil
}
