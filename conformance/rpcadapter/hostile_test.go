package rpcadapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpconform/mcpconform/conformance"
	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
	"github.com/mcpconform/mcpconform/conformance/rpcadapter"
)

// Adapters that attack the runner rather than fail it: each serves the
// reference over the protocol (`<test binary> serve MODE`) and turns one
// thing the runner reads against it.
//
//	ansi            writes terminal escapes, control bytes and invalid UTF-8
//	                into its stderr, a host/event and the error of every send
//	flood-notes     sends one notification more than the bound at agent/create
//	flood-bytes     sends 4 notifications of 100 KiB at agent/create (run it
//	                with a lower Limits.Bytes)
//	flood-at-close  closes its agent, then sends one notification more than
//	                the bound before answering agent/close
//	huge            sends the largest messages it may: a handshake with a
//	                million unknown capabilities, a host/event just under
//	                16 MiB at every agent/create, sends and registrations
//	                failing with messages just under 16 MiB
//	grandchild      leaves two processes holding its stdout, one in its
//	                process group and one in a session of its own, that
//	                ignore SIGTERM (they note it in $LINGER_FILE)
//	orphan          leaves a process holding its stdout through a shell
//	                that exits: an orphan, in a session of its own
//	grandchild-renamed
//	                the same, declaring the tool names "{server}_{tool}"
//	stubborn        never closes what it created: after the end of stdin it
//	                stays, its servers running, for 10 minutes
//	listener        listens on a TCP port of 127.0.0.1 from its first
//	                agent/create on, and never closes it
//	stale           refuses every agent/create once its process has served
//	                a scenario (capability reuse): state kept between two
//	last-words      writes 48 KiB and "LAST-WORDS" on stderr as it closes an
//	                agent, before it answers
var hostileModes = map[string]adapter.Target{
	"ansi": hostile{wrap: func(g adapter.Agent, _ adapter.Host) adapter.Agent { return junkAgent{g} }},
	"flood-notes": hostile{created: func(ctx context.Context, h adapter.Host) {
		notify(ctx, h, rpcadapter.DefaultLimits.Notifications+1, "flood")
	}},
	"flood-bytes":    hostile{created: func(ctx context.Context, h adapter.Host) { notify(ctx, h, 4, strings.Repeat("b", 100<<10)) }},
	"flood-at-close": hostile{wrap: func(g adapter.Agent, h adapter.Host) adapter.Agent { return floodAtClose{g, h} }},
	"huge": hostile{
		info: func(i adapter.Info) adapter.Info {
			for n := range 1_000_000 {
				i.Capabilities = append(i.Capabilities, adapter.Capability(fmt.Sprintf("x-%06d", n)))
			}
			return i
		},
		created: func(ctx context.Context, h adapter.Host) { notify(ctx, h, 1, hugeText()) },
		wrap:    func(g adapter.Agent, _ adapter.Host) adapter.Agent { return hugeErrors{g} },
	},
	"grandchild": hostile{opened: leaveLingerers},
	"orphan":     hostile{opened: leaveOrphan},
	// The same behind a tool naming scheme of its own, which the runner
	// translates through a wrapper of the adapter.
	"grandchild-renamed": hostile{opened: leaveLingerers, info: func(i adapter.Info) adapter.Info {
		i.ToolNames = "{server}_{tool}"
		return i
	}},
	// Writing to a runner that is gone must not end it either.
	"stubborn": hostile{stubborn: true, opened: func() { signal.Ignore(syscall.SIGPIPE) }},
	"listener": hostile{created: func(context.Context, adapter.Host) {
		if l, err := net.Listen("tcp", "127.0.0.1:0"); err == nil {
			leaked = append(leaked, l) // never closed
		}
	}},
	"stale":      hostile{stale: true},
	"last-words": hostile{wrap: func(g adapter.Agent, _ adapter.Host) adapter.Agent { return lastWords{g} }},
}

// lastWords writes 48 KiB and then "LAST-WORDS" on stderr as it closes.
type lastWords struct{ adapter.Agent }

func (g lastWords) Close(ctx context.Context) error {
	fmt.Fprintf(os.Stderr, "%s\nLAST-WORDS\n", strings.Repeat("x", 48<<10))
	return g.Agent.Close(ctx)
}

// leaked holds the listener adapter's listeners, open for its life.
var leaked []net.Listener

// opens counts the adapter's openings in this process: one per scenario
// it serves.
var opens atomic.Int32

// hugeText nearly fills a protocol line. It is made on first use, not at
// package initialization: every adapter process the tests start is this
// binary, and 16 MiB made at each start were most of its start's cost.
var hugeText = sync.OnceValue(func() string { return strings.Repeat("h", rpcadapter.MaxLine-4<<10) })

// junk is what the ansi adapter writes everywhere it can: a screen clear,
// a cursor move, a terminal title, a fake green verdict, a carriage
// return, NUL, DEL and bytes that are not UTF-8.
const junk = "\x1b[2J\x1b[H\x1b]0;owned\x07\x1b[32mPASS\x1b[0m\rPASS\x00\x7f\xff\xfe junk"

// hostile is the reference behind an adapter that attacks the runner.
type hostile struct {
	refadapter.Target
	info     func(adapter.Info) adapter.Info                 // rewrites the handshake
	opened   func()                                          // runs as the adapter opens, at the handshake
	created  func(ctx context.Context, host adapter.Host)    // runs before agent/create answers
	wrap     func(adapter.Agent, adapter.Host) adapter.Agent // wraps every agent
	stubborn bool                                            // closes nothing
	stale    bool                                            // refuses every agent once it has served a scenario
}

func (h hostile) Open(ctx context.Context, env adapter.Env) (adapter.Adapter, error) {
	opens.Add(1)
	if h.opened != nil {
		h.opened()
	}
	a, err := h.Target.Open(ctx, env)
	return &hostileAdapter{Adapter: a, h: h}, err
}

type hostileAdapter struct {
	adapter.Adapter
	h      hostile
	agents int
}

func (a *hostileAdapter) Info() adapter.Info {
	i := a.Adapter.Info()
	if a.h.info != nil {
		i = a.h.info(i)
	}
	return i
}

func (a *hostileAdapter) NewAgent(ctx context.Context, opts adapter.AgentOptions, host adapter.Host) (adapter.Agent, error) {
	a.agents++ // before the reference starts anything for it
	if a.h.stale && opens.Load() > 1 {
		return nil, &adapter.Error{Kind: adapter.KindInternal, Message: "stale: this process served a scenario before"}
	}
	g, err := a.Adapter.NewAgent(ctx, opts, host)
	if a.h.created != nil {
		a.h.created(ctx, host)
	}
	if err != nil {
		return nil, err
	}
	if a.h.stubborn {
		return stubbornAgent{g}, nil
	}
	if a.h.wrap != nil {
		g = a.h.wrap(g, host)
	}
	return g, nil
}

// Close of a stubborn adapter that created an agent keeps the process,
// and the servers its agents started, for 10 minutes.
func (a *hostileAdapter) Close() error {
	if a.h.stubborn && a.agents > 0 {
		time.Sleep(10 * time.Minute)
	}
	return a.Adapter.Close()
}

type stubbornAgent struct{ adapter.Agent }

func (stubbornAgent) Close(context.Context) error { return nil }

// notify sends n events with message text.
func notify(ctx context.Context, h adapter.Host, n int, text string) {
	for range n {
		h.Event(ctx, adapter.Event{Type: "error", Server: "hostile", Message: &text})
	}
}

// junkAgent fails every send with junk, after writing junk to stderr and
// into a host/event whose line holds raw bytes that are not UTF-8.
type junkAgent struct{ adapter.Agent }

func (g junkAgent) Send(ctx context.Context, prompt string) (adapter.SendResult, error) {
	fmt.Fprintf(os.Stderr, "hostile adapter: %s\n", junk)
	// Written by hand, for the raw bytes (an encoder would replace them);
	// the runner is waiting for the answer to agent/send, so nothing else
	// is being written.
	os.Stdout.WriteString(`{"jsonrpc":"2.0","method":"host/event","params":{"agentId":"agent-1","event":{"type":"error","server":"p","message":"\u001b[2J\u001b]0;owned\u0007` + "\xff\xfe" + `\r\u0000PASS"}}}` + "\n")
	return adapter.SendResult{}, adapter.Errorf(adapter.KindInternal, "the send failed: %s", junk)
}

// floodAtClose floods the runner between closing and answering close.
type floodAtClose struct {
	adapter.Agent
	h adapter.Host
}

func (g floodAtClose) Close(ctx context.Context) error {
	err := g.Agent.Close(ctx)
	notify(ctx, g.h, rpcadapter.DefaultLimits.Notifications+1, "flood")
	return err
}

// hugeErrors fails sends and registrations with messages just under a
// line.
type hugeErrors struct{ adapter.Agent }

func (g hugeErrors) Send(ctx context.Context, prompt string) (adapter.SendResult, error) {
	r, err := g.Agent.Send(ctx, prompt)
	return r, hugeError(err)
}

func (g hugeErrors) Register(ctx context.Context, name string, entry json.RawMessage) error {
	return hugeError(g.Agent.Register(ctx, name, entry))
}

// hugeError is err with hugeText after its message.
func hugeError(err error) error {
	if err == nil {
		return nil
	}
	return adapter.Errorf(adapter.KindOf(err), "%s %s", err.Error(), hugeText())
}

// leaveLingerers starts two processes that hold the adapter's stdout and
// stay when it exits: one in the adapter's process group, one in a
// session of its own.
func leaveLingerers() {
	exe, _ := os.Executable()
	for _, attr := range []*syscall.SysProcAttr{nil, {Setsid: true}} {
		cmd := exec.Command(exe, "linger", os.Getenv("LINGER_FILE"))
		cmd.Stdout, cmd.SysProcAttr = os.Stdout, attr
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "hostile adapter:", err)
		}
	}
}

// leaveOrphan starts a linger process through a shell, in a session of
// its own, that exits at once: the linger process, adopted by init or a
// subreaper, holds the adapter's stdout.
func leaveOrphan() {
	exe, _ := os.Executable()
	cmd := exec.Command("sh", "-c", `"$0" linger "$1" </dev/null & exit 0`, exe, os.Getenv("LINGER_FILE"))
	cmd.Stdout, cmd.SysProcAttr = os.Stdout, &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "hostile adapter:", err)
	}
}

// helpers are the other programs the test binary can be (TestMain).
var helpers = map[string]func(args []string) int{
	"linger":  linger,
	"runner":  runner,
	"measure": measure,
}

// runner is a runner to kill: `runner DIR MODE` runs the feature files of
// DIR against the adapter MODE, with steps that may wait two minutes.
func runner(args []string) int {
	exe, _ := os.Executable()
	_, err := conformance.Run(context.Background(), conformance.Options{
		Target:   &rpcadapter.Target{Command: []string{exe, "serve", args[1]}},
		Features: os.DirFS(args[0]), StepTimeout: 2 * time.Minute,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "runner:", err)
		return 1
	}
	return 0
}

// measure runs the suite (the scenarios of the rules args[1:], or all)
// against the adapter args[0] and prints the summary and this process's
// peak resident memory, as JSON.
func measure(args []string) int {
	exe, _ := os.Executable()
	start := time.Now()
	rep, err := conformance.Run(context.Background(), conformance.Options{Target: &rpcadapter.Target{Command: []string{exe, "serve", args[0]}}, Rules: args[1:]})
	if err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		return 1
	}
	status, _ := os.ReadFile("/proc/self/status")
	var peak int64
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			peak, _ = strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		}
	}
	_ = json.NewEncoder(os.Stdout).Encode(measurement{Summary: rep.Summary, Scenarios: len(rep.Scenarios), PeakKiB: peak, Seconds: time.Since(start).Seconds()})
	return 0
}

// measurement is what measure prints.
type measurement struct {
	Summary   conformance.Summary
	Scenarios int
	PeakKiB   int64
	Seconds   float64
}

// linger is a process left behind: it notes every SIGTERM in the file
// args[0] and ignores it, and ends by itself after a minute.
func linger(args []string) int {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	deadline := time.After(time.Minute)
	for {
		select {
		case <-sigs:
			if f, err := os.OpenFile(args[0], os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintf(f, "SIGTERM to %d\n", os.Getpid())
				f.Close()
			}
		case <-deadline:
			return 0
		}
	}
}
