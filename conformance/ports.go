package conformance

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

// A port for a redirect URL that nothing listens on must stay that way
// for the scenario: a port that a listener on port 0 got and gave back
// may be handed at once to the next fake that listens on port 0, even the
// scenario's own authorization server, whose login would then follow the
// redirect to itself. Ports below the kernel's ephemeral range are never
// handed out that way; within the process none is handed out twice.

var (
	quietMu    sync.Mutex
	quietTaken = map[int]bool{}
)

// quietPort returns a loopback port nothing listens on, below the
// ephemeral range.
func quietPort() (int, error) {
	low := ephemeralLow()
	span := min(low-1024, 16384)
	quietMu.Lock()
	defer quietMu.Unlock()
	for range 200 {
		port := low - 1 - rand.IntN(span)
		if quietTaken[port] || port == bladePort || port == bladeOtherPort {
			continue // Blade's callback ports are never quiet (portlock.go)
		}
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue
		}
		ln.Close()
		quietTaken[port] = true
		return port, nil
	}
	return 0, errors.New("no free loopback port below the ephemeral range")
}

// ephemeralLow is the first port of the kernel's ephemeral range.
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > 2048 {
				return n
			}
		}
	}
	return 32768
}

// quietURL is a loopback URL on a quiet port with path.
func quietURL(path string) (string, error) {
	port, err := quietPort()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("http://127.0.0.1:%d%s", port, path), nil
}
