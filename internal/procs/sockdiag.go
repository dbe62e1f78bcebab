package procs

import (
	"encoding/binary"
	"net/netip"
	"syscall"
	"time"
)

// The TCP listeners of this network namespace, from the kernel's
// sock_diag netlink interface (sock_diag(7)): the kernel filters by
// state, so the answer holds the listening sockets alone, however many
// connections the namespace has (reading /proc/net/tcp costs what they
// number, TIME_WAIT included).

// listener is one listening TCP socket.
type listener struct {
	addr  netip.AddrPort
	inode uint32
}

const (
	sockDiagByFamily = 20 // SOCK_DIAG_BY_FAMILY
	tcpListen        = 10 // TCP_LISTEN
	inetDiagReqLen   = 56 // sizeof(struct inet_diag_req_v2)
	inetDiagMsgLen   = 72 // sizeof(struct inet_diag_msg)
	maxDiagReads     = 64 // bounds the reads of one dump
)

// tcpListeners lists the listening TCP sockets, IPv4 and IPv6; nil when
// sock_diag cannot be used.
func tcpListeners() []listener {
	var out []listener
	for _, family := range []uint8{syscall.AF_INET, syscall.AF_INET6} {
		out = append(out, dumpListeners(family)...)
	}
	return out
}

// dumpListeners asks sock_diag for the listening TCP sockets of family.
func dumpListeners(family uint8) []listener {
	fd, err := syscall.Socket(syscall.AF_NETLINK, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, syscall.NETLINK_INET_DIAG)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	tv := syscall.NsecToTimeval(int64(time.Second))
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
	req := make([]byte, syscall.NLMSG_HDRLEN+inetDiagReqLen)
	ne := binary.NativeEndian
	ne.PutUint32(req[0:], uint32(len(req)))
	ne.PutUint16(req[4:], sockDiagByFamily)
	ne.PutUint16(req[6:], syscall.NLM_F_REQUEST|syscall.NLM_F_DUMP)
	ne.PutUint32(req[8:], 1) // sequence
	body := req[syscall.NLMSG_HDRLEN:]
	body[0], body[1] = family, syscall.IPPROTO_TCP
	ne.PutUint32(body[4:], 1<<tcpListen)
	if err := syscall.Sendto(fd, req, 0, &syscall.SockaddrNetlink{Family: syscall.AF_NETLINK}); err != nil {
		return nil
	}
	var out []listener
	buf := make([]byte, 32<<10)
	for range maxDiagReads {
		n, _, err := syscall.Recvfrom(fd, buf, 0)
		if err != nil || n < syscall.NLMSG_HDRLEN {
			return out
		}
		msgs, err := syscall.ParseNetlinkMessage(buf[:n])
		if err != nil {
			return out
		}
		for _, m := range msgs {
			switch m.Header.Type {
			case syscall.NLMSG_DONE, syscall.NLMSG_ERROR:
				return out
			}
			if l, ok := parseDiagMsg(m.Data); ok {
				out = append(out, l)
			}
		}
	}
	return out
}

// parseDiagMsg reads one struct inet_diag_msg: family, state, timer,
// retrans, then inet_diag_sockid (ports and addresses in network byte
// order), expires, rqueue, wqueue, uid, inode.
func parseDiagMsg(b []byte) (listener, bool) {
	if len(b) < inetDiagMsgLen {
		return listener{}, false
	}
	port := binary.BigEndian.Uint16(b[4:6])
	var addr netip.Addr
	switch b[0] {
	case syscall.AF_INET:
		addr = netip.AddrFrom4([4]byte(b[8:12]))
	case syscall.AF_INET6:
		addr = netip.AddrFrom16([16]byte(b[8:24])).Unmap()
	default:
		return listener{}, false
	}
	inode := binary.NativeEndian.Uint32(b[68:72])
	return listener{addr: netip.AddrPortFrom(addr, port), inode: inode}, true
}
