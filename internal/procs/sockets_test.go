package procs

import (
	"net"
	"os"
	"slices"
	"testing"
)

// TestListening: a listener of this process is found, with its address,
// IPv4 and IPv6 alike; a connected socket is not a listener; a closed one
// is gone.
func TestListening(t *testing.T) {
	l4, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l4.Close()
	want := []string{l4.Addr().String()}
	if l6, err := net.Listen("tcp", "[::1]:0"); err == nil {
		defer l6.Close()
		want = append(want, l6.Addr().String())
	}
	c, err := net.Dial("tcp", l4.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got := ListeningAmong(os.Getpid(), Sockets(os.Getpid()))
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("Listening = %v; want it to hold %s", got, w)
		}
	}
	if slices.Contains(got, c.LocalAddr().String()) {
		t.Errorf("Listening = %v holds the connected socket %s", got, c.LocalAddr())
	}
	if got := ListeningAmong(os.Getpid(), nil); got != nil {
		t.Errorf("ListeningAmong(no sockets) = %v; want nil", got)
	}
	l4.Close()
	if got := ListeningAmong(os.Getpid(), Sockets(os.Getpid())); slices.Contains(got, want[0]) {
		t.Errorf("after Close, Listening = %v still holds %s", got, want[0])
	}
}

// TestParseDiagMsg reads one inet_diag_msg of each family.
func TestParseDiagMsg(t *testing.T) {
	msg := func(family byte, addr []byte, port uint16, inode uint32) []byte {
		b := make([]byte, inetDiagMsgLen)
		b[0] = family
		b[4], b[5] = byte(port>>8), byte(port)
		copy(b[8:], addr)
		b[68], b[69], b[70], b[71] = byte(inode), byte(inode>>8), byte(inode>>16), byte(inode>>24) // little-endian machines
		return b
	}
	tests := []struct {
		name string
		b    []byte
		want string
		ok   bool
	}{
		{"ipv4", msg(2, []byte{127, 0, 0, 1}, 7777, 42), "127.0.0.1:7777", true},
		{"ipv6", msg(10, net.IPv6loopback, 8080, 42), "[::1]:8080", true},
		{"ipv4-mapped", msg(10, net.ParseIP("127.0.0.1").To16(), 80, 42), "127.0.0.1:80", true},
		{"short", make([]byte, 10), "", false},
		{"unknown family", msg(1, nil, 1, 42), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, ok := parseDiagMsg(tt.b)
			if ok != tt.ok || (ok && (l.addr.String() != tt.want || l.inode != 42)) {
				t.Errorf("parseDiagMsg = %v %d %v; want %s 42 %v", l.addr, l.inode, ok, tt.want, tt.ok)
			}
		})
	}
}
