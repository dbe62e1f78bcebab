package procs

import (
	"strconv"
	"strings"
)

// Listening returns the TCP addresses ("127.0.0.1:7777", "[::1]:8080")
// process pid listens on: the listening sockets of this network namespace
// (as sock_diag lists them) that one of its file descriptors holds. Nil
// when there are none or they cannot be read. pid must share this
// process's network namespace.
func Listening(pid int) []string { return ListeningAmong(pid, Sockets(pid)) }

// Sockets returns the inodes of the sockets process pid holds open.
func Sockets(pid int) []string {
	var out []string
	for _, link := range Files(pid) {
		if ino, ok := strings.CutPrefix(link, "socket:["); ok {
			out = append(out, strings.TrimSuffix(ino, "]"))
		}
	}
	return out
}

// ListeningAmong is [Listening] for the sockets of process pid with these
// inodes: a caller that knows which sockets are new asks of those alone,
// and of none when there are none.
func ListeningAmong(pid int, inodes []string) []string {
	if len(inodes) == 0 {
		return nil
	}
	held := map[uint32]bool{}
	for _, ino := range inodes {
		if n, err := strconv.ParseUint(ino, 10, 32); err == nil {
			held[uint32(n)] = true
		}
	}
	var out []string
	for _, l := range tcpListeners() {
		if held[l.inode] {
			out = append(out, l.addr.String())
		}
	}
	return out
}
