package reference

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
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
	stdout io.ReadCloser
	exited chan struct{}
	err    error // Wait's result, valid after exited is closed

	closeOnce sync.Once
	closeErr  error
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

// startProcess starts a stdio server.
func startProcess(cfg ServerConfig, environ []string, dir string) (*process, error) {
	path, err := lookPath(cfg.Command, environ)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, cfg.Args...)
	cmd.Args[0] = cfg.Command
	cmd.Env = childEnv(environ, cfg.Env)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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
	p := &process{cmd: cmd, stdin: stdin, stdout: stdout, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Read reads the server's stdout.
func (p *process) Read(b []byte) (int, error) { return p.stdout.Read(b) }

// Write writes the server's stdin.
func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// reader is the stdout side handed to the MCP transport; closing it does
// nothing, because the process is shut down through its stdin side.
func (p *process) reader() io.ReadCloser { return io.NopCloser(p) }

// Close shuts the server down: close stdin and wait, then SIGTERM the
// process group and wait, then SIGKILL it. It returns when the direct child
// has exited and been reaped; the rest of its process group is killed too.
func (p *process) Close() error {
	p.closeOnce.Do(func() {
		p.stdin.Close()
		pgid := p.cmd.Process.Pid
		if !p.wait(stdinGrace) {
			_ = syscall.Kill(-pgid, syscall.SIGTERM)
			if !p.wait(termGrace) {
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
// [MutCloseLeavesChildren].
func (p *process) abandon() {}
