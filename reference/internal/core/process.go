package core

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpconform/mcpconform/internal/fault"
)

// DefaultEnvironment lists the variables a stdio server inherits from the
// host's environment, as the official MCP SDKs do on POSIX systems. Nothing
// else of the host's environment reaches a child: its entry's env is added
// explicitly (LA-SEC-16, LA-SEC-17).
var DefaultEnvironment = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}

// How long a stdio server gets to exit after its stdin is closed, and then
// after SIGTERM, before its process group is killed.
const (
	stdinGrace = 2 * time.Second
	termGrace  = 2 * time.Second
)

// process is a running stdio server. It is started in its own process
// group, so that closing it also reaches the children it spawned, where the
// OS allows. Its stderr goes to the null device: consumed, never blocking,
// never logged (LA-SEC-18, LA-SEC-19).
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *lineLimit
	exited chan struct{}
	err    error // Wait's result, valid after exited is closed

	closeOnce sync.Once
	closeErr  error
	noReap    bool  // fault.NoReap: Close only closes stdin
	clock     Clock // times the graces of Close: the agent's clock
}

// childEnv builds a stdio server's environment: the default set from the
// host's environment, then the entry's explicit env.
func childEnv(environ []string, extra map[string]string) []string {
	var env []string
	for _, k := range DefaultEnvironment {
		if v := getenv(environ, k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

// lookPath finds command in the PATH of the host's environment, as a shell
// would; a command with a slash is used as it is.
func lookPath(command string, environ []string) (string, error) {
	if strings.ContainsRune(command, '/') {
		return command, nil
	}
	for _, dir := range filepath.SplitList(getenv(environ, "PATH")) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, command)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%q not found in PATH", command)
}

// startProcess starts a stdio server, through the sandbox command when one
// is set: the sandbox's argv, then the server's command and arguments
// (LA-SEC-14).
func (a *Host) startProcess(cfg ServerConfig, sandbox []string) (*process, error) {
	environ, m := a.opts.Environ, a.faults
	argv := append(append(append([]string{}, sandbox...), cfg.Command), cfg.Args...)
	path, err := lookPath(argv[0], environ)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Args[0] = argv[0]
	extra := cfg.Env
	// LA-SEC-17: the entry's env is added.
	if m.Has(fault.DropExplicitEnv) {
		extra = nil
	}
	cmd.Env = childEnv(environ, extra)
	// LA-SEC-16: the safe default set only, never the whole environment.
	if m.Has(fault.InheritEnv) {
		cmd.Env = append(slices.Clone(environ), cmd.Env...)
	}
	cmd.Dir = a.opts.Workdir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	switch {
	case m.Has(fault.StderrUnread): // LA-SEC-18: stderr goes to the null device, consumed
		// A pipe nobody reads: a server that writes enough blocks.
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		defer w.Close()
		a.keepOpen(r)
		cmd.Stderr = w
	case m.Has(fault.LogStderr): // LA-SEC-19: and never logged
		cmd.Stderr = &logWriter{log: a.opts.Logger}
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		stdin.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	limit := MaxMessageBytes
	// LA-LIM-06: a stdio line of at most 4 MiB.
	if m.Has(fault.NoStdioCap) {
		limit = 1 << 30
	}
	// LA-TRN-12: closing reaps the whole process group.
	p := &process{cmd: cmd, stdin: stdin, stdout: &lineLimit{r: stdout, max: limit}, exited: make(chan struct{}), noReap: m.Has(fault.NoReap), clock: a.opts.Clock}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Read reads the server's stdout, refusing a line over [MaxMessageBytes].
func (p *process) Read(b []byte) (int, error) { return p.stdout.Read(b) }

// outputEnded reports whether the server's stdout ended or failed: what
// ends its session, as the reader sees it, before go-sdk reports it.
func (p *process) outputEnded() bool { return p.stdout.ended.Load() || p.stdout.tripped.Load() }

// tooLong reports whether the server wrote a line over the limit.
func (p *process) tooLong() bool { return p.stdout.tripped.Load() }

// errLineTooLong ends a stdio connection whose server wrote one message
// over [MaxMessageBytes] (LA-LIM-06).
var errLineTooLong = fmt.Errorf("a stdio message is longer than %d bytes (4 MiB)", MaxMessageBytes)

// lineLimit passes a stdio server's output through, failing as soon as one
// line (one JSON-RPC message, newline excluded) exceeds max bytes: exactly,
// whatever the reader's buffering, and before the line is parsed.
type lineLimit struct {
	r       io.Reader
	max     int
	cur     int // bytes of the current line so far
	tripped atomic.Bool
	ended   atomic.Bool // the output ended or failed: the session is over
}

func (l *lineLimit) Read(b []byte) (int, error) {
	if l.tripped.Load() {
		return 0, errLineTooLong
	}
	n, err := l.r.Read(b)
	if err != nil {
		l.ended.Store(true)
	}
	for i := 0; i < n; {
		// The line goes on up to the next newline (bytes.IndexByte finds
		// it many bytes at a time), or to the end of what was read.
		end := bytes.IndexByte(b[i:n], '\n')
		if end < 0 {
			end = n - i
		}
		if l.cur+end > l.max {
			l.tripped.Store(true)
			return i + l.max - l.cur, errLineTooLong // the bytes up to the first one past max
		}
		if i+end == n {
			l.cur += end
			break
		}
		l.cur, i = 0, i+end+1
	}
	return n, err
}

// Write writes the server's stdin.
func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// reader is the stdout side handed to the MCP transport; closing it does
// nothing, because the process is shut down through its stdin side.
func (p *process) reader() io.ReadCloser { return io.NopCloser(p) }

// Close shuts the server down: close stdin and wait, then SIGTERM the
// process group and wait, then SIGKILL it. It returns when the direct child
// has exited and been reaped; the rest of its process group is killed too.
// Both deadlines run on the agent's clock from the moment Close begins,
// armed before stdin closes, so that a manual clock moved past both once
// the server saw its stdin close ends the server, whatever order the
// timers fire in.
func (p *process) Close() error {
	p.closeOnce.Do(func() {
		term, stopTerm := p.clock.WithTimeout(context.Background(), stdinGrace)
		defer stopTerm()
		kill, stopKill := p.clock.WithTimeout(context.Background(), stdinGrace+termGrace)
		defer stopKill()
		p.stdin.Close()
		if p.noReap {
			return
		}
		pgid := p.cmd.Process.Pid
		if !p.exitsBefore(term) {
			_ = syscall.Kill(-pgid, syscall.SIGTERM)
			if !p.exitsBefore(kill) {
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
				<-p.exited
			}
		}
		// Whatever the server left behind in its group goes too.
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		var exitErr *exec.ExitError
		if p.err != nil && !errors.As(p.err, &exitErr) {
			p.closeErr = p.err
		}
	})
	return p.closeErr
}

// ended describes how the process ended, waiting for it at most d: "the
// server process exited with status 1", "... was killed by signal
// killed", or "" while it still runs.
func (p *process) ended(d time.Duration) string {
	if !p.wait(d) {
		return ""
	}
	var exitErr *exec.ExitError
	switch {
	case p.err == nil:
		return "the server process exited with status 0"
	case errors.As(p.err, &exitErr):
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fmt.Sprintf("the server process was killed by signal %d (%v)", int(ws.Signal()), ws.Signal())
		}
		return fmt.Sprintf("the server process exited with status %d", exitErr.ExitCode())
	}
	return "the server process ended: " + p.err.Error()
}

// exitsBefore reports whether the process exited before deadline ended.
func (p *process) exitsBefore(deadline context.Context) bool {
	select {
	case <-p.exited:
		return true
	case <-deadline.Done():
		select {
		case <-p.exited:
			return true
		default:
			return false
		}
	}
}

// wait reports whether the process exited within d.
func (p *process) wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// abandon gives up on the process without stopping it. It exists only for
// [fault.CloseLeavesChildren].
func (p *process) abandon() {}

// logWriter logs what it is written, a line at a time. It exists only for
// [fault.LogStderr]: the reference never logs a server's stderr (LA-SEC-19).
type logWriter struct {
	log *slog.Logger
}

func (l *logWriter) Write(p []byte) (int, error) {
	l.log.Info("server stderr", "text", string(p))
	return len(p), nil
}
