package procs

import (
	"strconv"
	"strings"
)

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

// ListeningAmong returns the TCP addresses ("127.0.0.1:7777", "[::1]:8080")
// that process pid listens on through the sockets of these inodes (of
// [Sockets]): the listening sockets of this network namespace, as
// sock_diag lists them, that are among them. A caller that knows which
// sockets are new asks of those alone, and of none when there are none.
// Nil when there are none or they cannot be read; pid must share this
// process's network namespace.
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
