package record

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"sync"
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
// [Client.Record] waits for the server's acknowledgement.
type Client struct {
	mu   sync.Mutex
	conn net.Conn
	r    *bufio.Reader
}

// Dial connects to the server at addr and reports start as the process's
// first record.
func Dial(addr string, start Record) (*Client, error) {
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return nil, fmt.Errorf("connecting to the record server: %w", err)
	}
	c := &Client{conn: conn, r: bufio.NewReader(conn)}
	start.Kind = KindStart
	if err := c.Record(start); err != nil {
		conn.Close()
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
	if _, err := c.r.ReadByte(); err != nil {
		return fmt.Errorf("the record server did not acknowledge: %w", err)
	}
	return nil
}

// Close closes the connection; the server then records the exit.
func (c *Client) Close() error { return c.conn.Close() }

// Report connects to the server at addr, reports r as the only record of
// the connection, waits for the acknowledgement and disconnects. r must be
// of a kind that needs no start ([KindSandbox]); the server appends no exit
// for it.
func Report(addr string, r Record) error {
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return fmt.Errorf("connecting to the record server: %w", err)
	}
	defer conn.Close()
	c := &Client{conn: conn, r: bufio.NewReader(conn)}
	return c.Record(r)
}
