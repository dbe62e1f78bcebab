package conformance

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mcpconform/mcpconform/internal/safetext"
)

// Blade's OAuth callback port is one per machine, and several runs may go
// at once (make test runs the suite in several processes). A scenario
// that may listen on it holds it for its whole life: a process-wide
// semaphore, then an exclusive flock on a file in the temporary
// directory, which names the holder's pid. Every other scenario runs
// concurrently as before. A foreign program on the port fails the
// scenario, naming the port and the program when this machine tells
// (spec/blade-oauth.md).

// bladePort is the port of Blade's redirect URIs; bladeOtherPort is the
// one a broken implementation may use instead (the fault
// BL-OAU-03/callback-on-port-7778). Neither is ever a quiet port.
const (
	bladePort      = 7777
	bladeOtherPort = 7778
)

// portWait bounds how long a scenario waits for the port: every holder
// is one short scenario, but a machine running four suites at once may
// queue dozens.
const portWait = 5 * time.Minute

// portTurn is this process's turn at the port.
var portTurn = make(chan struct{}, 1)

// holdPort takes the machine's port for the scenario, waiting at most
// wait, and checks that no other program listens on it. The returned
// release gives it back.
func holdPort(ctx context.Context, port int, wait time.Duration) (release func(), err error) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	select {
	case portTurn <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("port %d: other scenarios of this run held it for more than %v", port, wait)
	}
	unturn := func() { <-portTurn }
	path := filepath.Join(os.TempDir(), fmt.Sprintf("mcpconform-port-%d.lock", port))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		unturn()
		return nil, fmt.Errorf("port %d: opening the machine-wide lock %s: %w", port, path, err)
	}
	err = poll(ctx, nil, func() (bool, error) {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return false, nil
		}
		return err == nil, err
	})
	if err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		unturn()
		return nil, fmt.Errorf("port %d: the machine-wide lock %s was held by %s for more than %v: %w", port, path,
			orUnknown(safetext.Cap(strings.TrimSpace(string(holder)), 200)), wait, err)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(fmt.Sprintf("the mcpconform run of pid %d (%s)\n", os.Getpid(), safetext.Cap(strings.Join(os.Args, " "), 200))), 0)
	release = func() {
		_ = f.Truncate(0)
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
		unturn()
	}
	if busy := portInUse(port); busy != "" {
		release()
		return nil, fmt.Errorf("port %d is in use by a program that is not an mcpconform scenario (%s): Blade's OAuth callback needs it; free it and run again", port, busy)
	}
	return release, nil
}

// orUnknown is s, or "a process that did not say who it is".
func orUnknown(s string) string {
	if s == "" {
		return "a process that did not say who it is"
	}
	return s
}

// portInUse says what listens on port on a loopback address, "" if
// nothing does.
func portInUse(port int) string {
	for _, host := range []string{"127.0.0.1", "::1"} {
		ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
		if err == nil {
			ln.Close()
			continue
		}
		if errors.Is(err, syscall.EADDRNOTAVAIL) {
			continue // no IPv6 loopback on this machine
		}
		return fmt.Sprintf("%s:%d is taken, by %s", host, port, portHolder(port))
	}
	return ""
}

// portHolder names the process listening on a TCP port, as Linux's /proc
// tells: "pid N (command)", or "a process this machine does not name".
func portHolder(port int) string {
	inodes := map[string]bool{}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for n := 0; sc.Scan() && n < 100000; n++ {
			fields := strings.Fields(sc.Text())
			// local_address is HEXIP:HEXPORT; st 0A is LISTEN.
			if len(fields) < 10 || fields[3] != "0A" {
				continue
			}
			if _, p, ok := strings.Cut(fields[1], ":"); ok {
				if v, err := strconv.ParseUint(p, 16, 16); err == nil && int(v) == port {
					inodes["socket:["+fields[9]+"]"] = true
				}
			}
		}
		f.Close()
	}
	if len(inodes) == 0 {
		return "a process this machine does not name"
	}
	procs, _ := os.ReadDir("/proc")
	for i, p := range procs {
		if i > 65536 {
			break
		}
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		fds, _ := os.ReadDir(filepath.Join("/proc", p.Name(), "fd"))
		for j, fd := range fds {
			if j > 4096 {
				break
			}
			if link, err := os.Readlink(filepath.Join("/proc", p.Name(), "fd", fd.Name())); err == nil && inodes[link] {
				comm, _ := os.ReadFile(filepath.Join("/proc", p.Name(), "comm"))
				return fmt.Sprintf("pid %d (%s)", pid, safetext.Cap(strings.TrimSpace(string(comm)), 64))
			}
		}
	}
	return "a process this machine does not name (not one of this user's)"
}
