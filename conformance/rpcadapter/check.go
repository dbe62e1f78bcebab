package rpcadapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/internal/bounded"
	"github.com/mcpconform/mcpconform/internal/scratch"
)

// Verdict is the outcome of one adapter check.
type Verdict string

// The verdicts of [Check].
const (
	CheckOK      Verdict = "ok"
	CheckFailed  Verdict = "FAILED"
	CheckSkipped Verdict = "skipped"
)

// CheckResult is one check of [Check].
type CheckResult struct {
	Check   string
	Verdict Verdict
	Detail  string
}

// bogusMethod is a method no adapter implements.
const bogusMethod = "mcpconform/no-such-method"

// checkHost answers host/* requests during a check and remembers them.
type checkHost struct {
	mu     sync.Mutex
	models []adapter.ModelRequest
	hang   bool // host/model never answers until cancelled
}

func (h *checkHost) Model(ctx context.Context, req adapter.ModelRequest) (adapter.ModelResponse, error) {
	h.mu.Lock()
	h.models = append(h.models, req)
	hang := h.hang
	h.mu.Unlock()
	if hang {
		<-ctx.Done()
		return adapter.ModelResponse{}, ctx.Err()
	}
	return adapter.ModelResponse{Text: "done"}, nil
}

func (h *checkHost) Approve(context.Context, adapter.ApprovalRequest) (adapter.Decision, error) {
	return adapter.Allow, nil
}

func (h *checkHost) Event(context.Context, adapter.Event) {}

func (h *checkHost) Hook(context.Context, adapter.HookEvent) error { return nil }

func (h *checkHost) Validate(context.Context, adapter.ValidateRequest) ([]string, error) {
	return nil, nil
}

func (h *checkHost) Execute(context.Context, adapter.ExecuteRequest) (json.RawMessage, error) {
	return json.RawMessage(`"ok"`), nil
}

func (h *checkHost) Authorize(context.Context, adapter.AuthorizeRequest) (string, error) {
	return "", errors.New("the check logs nobody in")
}

func (h *checkHost) Permission(context.Context, adapter.PermissionRequest) (string, error) {
	return "allow", nil
}

func (h *checkHost) Provider(context.Context, adapter.ProviderCall) (json.RawMessage, error) {
	return json.RawMessage("null"), nil
}

// Check sends every message type of the protocol to the adapter once and
// reports what it gets wrong: the handshake's fields, refusing an unknown
// protocol version, unknown methods, each declared operation with valid
// and invalid input and the error kinds it answers, host callbacks,
// cancellation and shutdown. Every message is also checked against the
// protocol's JSON Schemas.
func Check(ctx context.Context, t *Target) []CheckResult {
	var results []CheckResult
	add := func(name string, v Verdict, format string, args ...any) {
		results = append(results, CheckResult{Check: name, Verdict: v, Detail: fmt.Sprintf(format, args...)})
	}
	schemas, err := LoadSchemas()
	if err != nil {
		add("schemas", CheckFailed, "the protocol schemas do not load: %v", err)
		return results
	}
	var smu sync.Mutex
	var invalid []string
	observed := &Target{Command: t.Command, Env: t.Env, HandshakeTimeout: t.HandshakeTimeout, Limits: t.Limits}
	observed.Observe = func(tr Traffic) {
		if tr.Method == bogusMethod {
			return // the deliberately unknown method has no schema
		}
		if err := schemas.Validate(tr); err != nil {
			dir := "received"
			if tr.Sent {
				dir = "sent"
			}
			smu.Lock()
			invalid = append(invalid, dir+": "+err.Error())
			smu.Unlock()
		}
	}
	dir, err := scratch.Dir("check")
	if err != nil {
		add("setup", CheckFailed, "%v", err)
		return results
	}
	defer os.RemoveAll(dir)
	env := adapter.Env{Dir: dir, Environ: append(os.Environ(), "HOME="+dir)}

	// The handshake.
	p, err := observed.open(ctx, env)
	if err != nil {
		add("handshake", CheckFailed, "%v", err)
		return results
	}
	info := p.info
	var problems []string
	if len(info.Systems) == 0 {
		problems = append(problems, fmt.Sprintf("no systems: an adapter claims %s, %s or both", adapter.LiteAgent, adapter.Blade))
	}
	problems = append(problems, p.unknown...)
	if !info.Implements(adapter.OpCreate) {
		problems = append(problems, "agent/create is not among the operations")
	}
	if len(problems) > 0 {
		add("handshake", CheckFailed, "%s", strings.Join(problems, "; "))
	} else {
		add("handshake", CheckOK, "%s %s driving %s %s; systems %v; capabilities %v; operations %v",
			info.Name, info.Version, info.Implementation.Name, info.Implementation.Version, info.Systems, info.Capabilities, info.Operations)
	}

	call := func(method string, params, result any) error {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return p.call(cctx, method, params, result)
	}
	// An unknown method.
	err = call(bogusMethod, empty{}, nil)
	if adapter.KindOf(err) == adapter.KindUnsupported {
		add("unknown method", CheckOK, "answered -32601")
	} else {
		add("unknown method", CheckFailed, "want error -32601 (method not found), got %v", describeErr(err))
	}

	if len(info.Systems) == 0 {
		add("agents", CheckSkipped, "the handshake claims no system, so no agent can be created; the checks of agents and operations did not run")
	} else if !checkAgents(ctx, p, info, dir, add) {
		p.Close()
		return finish(results, invalid)
	}
	// An operation on an agent that does not exist.
	if err := call(string(adapter.OpSend), SendParams{AgentID: "no-such-agent", Prompt: "x"}, nil); adapter.KindOf(err) == "" || adapter.IsFailure(err) {
		add("unknown agent", CheckFailed, "agent/send to an unknown agent: want an error, got %v", describeErr(err))
	} else {
		add("unknown agent", CheckOK, "refused with kind %s", adapter.KindOf(err))
	}
	// shutdown, then the process must end once stdin closes.
	if err := call(MethodShutdown, empty{}, nil); err != nil {
		add("shutdown", CheckFailed, "%v", describeErr(err))
	} else {
		p.stdin.Close()
		if bounded.Closed(p.exited, 5*time.Second) {
			add("shutdown", CheckOK, "answered, and exited when stdin closed")
		} else {
			add("shutdown", CheckFailed, "still running 5 s after shutdown and the end of stdin")
		}
	}
	p.Close()

	// An unknown protocol version, on a fresh process.
	results = append(results, checkVersion(ctx, observed, env))
	return finish(results, invalid)
}

// checkAdd adds one check's result.
type checkAdd func(name string, v Verdict, format string, args ...any)

// checkAgents checks agent/create and every declared operation on an
// agent of the adapter's first system. It reports false when no agent
// could be created, which ends the check.
func checkAgents(ctx context.Context, p *process, info adapter.Info, dir string, add checkAdd) bool {
	host := &checkHost{}
	opts := adapter.AgentOptions{System: info.Systems[0], Workdir: filepath.Join(dir, "work"), Approval: true}
	_ = os.MkdirAll(opts.Workdir, 0o755)
	// agent/create, valid and invalid.
	g, err := p.NewAgent(ctx, opts, host)
	if err != nil {
		add("agent/create", CheckFailed, "a minimal valid agent was refused: %v", describeErr(err))
		return false
	}
	add("agent/create", CheckOK, "a minimal agent was created")
	bad := opts
	bad.MCPServers = json.RawMessage(`{"bad alias!": {"command": "x"}}`)
	// An implementation without the product's configuration rules (a
	// third-party SDK, which says so) has no invalid configuration to refuse.
	noConfigRules, declared := info.Leaves("LA-CFG-10")
	if declared {
		add("agent/create invalid", CheckSkipped, "the adapter declares %s not implemented", noConfigRules)
	} else if _, err := p.NewAgent(ctx, bad, host); expectKind(err, adapter.KindName, adapter.KindConfig) {
		add("agent/create invalid", CheckOK, "an invalid alias was refused with kind %s", adapter.KindOf(err))
	} else if err == nil {
		// An implementation that accepts the alias (a third-party SDK
		// without the product's naming rules) breaks a rule, which is the
		// verdict of `mcpconform run` (LA-NAME-03), not a fault of the
		// adapter's protocol.
		add("agent/create invalid", CheckSkipped, "the implementation accepted the invalid alias \"bad alias!\": `mcpconform run` judges that (LA-NAME-03)")
	} else {
		add("agent/create invalid", CheckFailed, "an invalid alias in mcpServers: want kind name or config, got %v", describeErr(err))
	}

	op := func(o adapter.Operation, name string, run func() (Verdict, string)) {
		if !info.Implements(o) {
			add(name, CheckSkipped, "not among the declared operations")
			return
		}
		v, d := run()
		add(name, v, "%s", d)
	}
	op(adapter.OpList, "agent/list", func() (Verdict, string) {
		l, err := g.List(ctx)
		if err != nil {
			return CheckFailed, describeErr(err)
		}
		if len(l) != 0 {
			return CheckFailed, fmt.Sprintf("an agent without configuration lists %d servers", len(l))
		}
		return CheckOK, "an empty registry lists no server"
	})
	op(adapter.OpRegister, "agent/register invalid", func() (Verdict, string) {
		if declared {
			return CheckSkipped, "the adapter declares " + noConfigRules + " not implemented"
		}
		err := g.Register(ctx, "web", json.RawMessage(`{"url": "https://mcp.test/mcp"}`))
		if !expectKind(err, adapter.KindConfig) {
			return CheckFailed, "an entry with a url but no type: want kind config, got " + describeErr(err)
		}
		err = g.Register(ctx, "a.b", json.RawMessage(`{"type": "http", "url": "https://mcp.test/mcp"}`))
		if !expectKind(err, adapter.KindName) {
			return CheckFailed, "alias \"a.b\": want kind name, got " + describeErr(err)
		}
		return CheckOK, "invalid entries were refused with kinds config and name"
	})
	op(adapter.OpUnregister, "agent/unregister unknown", func() (Verdict, string) {
		err := g.Unregister(ctx, "nobody")
		if !expectKind(err, adapter.KindNotFound) {
			return CheckFailed, "an unknown name: want kind not_found, got " + describeErr(err)
		}
		return CheckOK, "an unknown name was refused with kind not_found"
	})
	op(adapter.OpSend, "agent/send", func() (Verdict, string) {
		res, err := g.Send(ctx, "hello")
		if err != nil {
			return CheckFailed, describeErr(err)
		}
		host.mu.Lock()
		n := len(host.models)
		var first adapter.ModelRequest
		if n > 0 {
			first = host.models[0]
		}
		host.mu.Unlock()
		switch {
		case n == 0:
			return CheckFailed, "the send never called host/model"
		case len(first.Messages) == 0 || !strings.Contains(first.Messages[len(first.Messages)-1].Text, "hello"):
			return CheckFailed, "host/model did not carry the prompt as the last message"
		case res.Text != "done":
			return CheckFailed, fmt.Sprintf("the send returned %q, not the model's text \"done\"", res.Text)
		}
		return CheckOK, "host/model was called and its text returned"
	})
	op(adapter.OpSend, "cancellation", func() (Verdict, string) {
		host.mu.Lock()
		host.hang = true
		host.mu.Unlock()
		defer func() { host.mu.Lock(); host.hang = false; host.mu.Unlock() }()
		cctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { _, err := g.Send(cctx, "wait"); done <- err }()
		time.AfterFunc(200*time.Millisecond, cancel)
		select {
		case err := <-done:
			if adapter.IsFailure(err) {
				return CheckFailed, describeErr(err)
			}
			return CheckOK, "a cancelled send ended"
		case <-time.After(10 * time.Second):
			return CheckFailed, "a send whose model never answers did not end within 10 s of $/cancelRequest"
		}
	})
	op(adapter.OpRun, "agent/run", func() (Verdict, string) {
		// The cancelled send above may still be winding down in the
		// adapter: the runner stops waiting at $/cancelRequest.
		if info.Implements(adapter.OpAwaitIdle) {
			if err := g.AwaitIdle(ctx); err != nil {
				return CheckFailed, "agent/awaitIdle before the run: " + describeErr(err)
			}
		}
		res, err := g.Run(ctx, "hello again")
		if err != nil {
			return CheckFailed, describeErr(err)
		}
		if res.Text != "done" {
			return CheckFailed, fmt.Sprintf("the run returned %q, not the model's text \"done\"", res.Text)
		}
		return CheckOK, "a run called host/model and returned its text"
	})
	op(adapter.OpProject, "agent/project", func() (Verdict, string) {
		pr, err := g.Project(ctx, json.RawMessage(`{"content":[{"type":"text","text":"hello"}]}`))
		if err != nil {
			return CheckFailed, describeErr(err)
		}
		if pr.Bytes <= 0 || pr.Archived || pr.IsError || !strings.Contains(pr.Text, "hello") {
			return CheckFailed, fmt.Sprintf("a 5-byte text result projected as %d bytes, archived=%v, isError=%v, text %q", pr.Bytes, pr.Archived, pr.IsError, pr.Text)
		}
		return CheckOK, fmt.Sprintf("a small text result is projected inline (%d bytes)", pr.Bytes)
	})
	op(adapter.OpSubagent, "agent/subagent", func() (Verdict, string) {
		sub, err := g.SubAgent(ctx, adapter.SubAgentOptions{})
		if err != nil {
			return CheckFailed, describeErr(err)
		}
		if info.Implements(adapter.OpList) {
			if _, err := sub.List(ctx); err != nil {
				return CheckFailed, "list() of the sub-agent: " + describeErr(err)
			}
		}
		if info.Implements(adapter.OpClose) {
			if err := sub.Close(ctx); err != nil {
				return CheckFailed, "closing the sub-agent: " + describeErr(err)
			}
		}
		return CheckOK, "a sub-agent was created, listed and closed"
	})
	op(adapter.OpAwaitIdle, "agent/awaitIdle", func() (Verdict, string) {
		if err := g.AwaitIdle(ctx); err != nil {
			return CheckFailed, describeErr(err)
		}
		return CheckOK, "an idle agent is idle"
	})
	op(adapter.OpClose, "agent/close", func() (Verdict, string) {
		if err := g.Close(ctx); err != nil {
			return CheckFailed, describeErr(err)
		}
		if info.Implements(adapter.OpSend) {
			_, err := g.Send(ctx, "after close")
			if !expectKind(err, adapter.KindClosed) {
				return CheckFailed, "a send after close: want kind closed, got " + describeErr(err)
			}
		}
		return CheckOK, "closed, and refuses work afterwards with kind closed"
	})
	// A Blade session's runtime API, when the adapter claims Blade.
	if info.Claims(adapter.Blade) {
		op(adapter.OpMCPStatus, "blade session", func() (Verdict, string) {
			bo := adapter.AgentOptions{System: adapter.Blade, Workdir: opts.Workdir, Approval: true}
			s, err := p.NewAgent(ctx, bo, host)
			if err != nil {
				return CheckFailed, "a Blade session without servers was refused: " + describeErr(err)
			}
			defer s.Close(ctx)
			if st, err := s.MCPStatus(ctx); err != nil || len(st) != 0 {
				return CheckFailed, fmt.Sprintf("agent/mcpStatus of a session without servers: want [], got %v %s", st, describeErr(err))
			}
			if info.Implements(adapter.OpMCPListTools) {
				if t, err := s.MCPListTools(ctx); err != nil || len(t) != 0 {
					return CheckFailed, fmt.Sprintf("agent/mcpListTools of a session without servers: want [], got %v %s", t, describeErr(err))
				}
			}
			if info.Implements(adapter.OpMCPConnect) {
				if err := s.MCPConnect(ctx, "nobody"); !expectKind(err, adapter.KindNotFound) {
					return CheckFailed, "agent/mcpConnect of an unknown server: want kind not_found, got " + describeErr(err)
				}
			}
			return CheckOK, "a session without servers reports none, lists no tool and refuses an unknown name"
		})
	}
	return true
}

// checkVersion starts the adapter and offers protocol version "999".
func checkVersion(ctx context.Context, t *Target, env adapter.Env) CheckResult {
	r := CheckResult{Check: "unknown version"}
	p, err := t.start(env)
	if err != nil {
		r.Verdict, r.Detail = CheckFailed, err.Error()
		return r
	}
	defer p.Close()
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	err = p.conn.Call(cctx, MethodInitialize, InitializeParams{ProtocolVersion: "999", Runner: runnerPeer}, &InitializeResult{})
	var ae *adapter.Error
	switch {
	case err == nil:
		r.Verdict, r.Detail = CheckFailed, "protocol version \"999\" was accepted"
	case errors.As(err, &ae):
		r.Verdict, r.Detail = CheckOK, "refused: "+ae.Message
	default:
		r.Verdict, r.Detail = CheckFailed, "want an error answer to protocol version \"999\", got "+err.Error()
	}
	return r
}

// finish adds the schema check.
func finish(results []CheckResult, invalid []string) []CheckResult {
	r := CheckResult{Check: "message schemas", Verdict: CheckOK, Detail: "every message matched spec/protocol"}
	if len(invalid) > 0 {
		r.Verdict = CheckFailed
		r.Detail = strings.Join(invalid, "\n        ")
	}
	return append(results, r)
}

// expectKind reports whether err has one of kinds.
func expectKind(err error, kinds ...adapter.Kind) bool {
	return err != nil && slices.Contains(kinds, adapter.KindOf(err))
}

// describeErr names an error and its kind.
func describeErr(err error) string {
	switch {
	case err == nil:
		return "success"
	case adapter.IsFailure(err):
		return err.Error()
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return fmt.Sprintf("error %d %q", we.Code, we.Message)
	}
	return fmt.Sprintf("kind %q (%v)", adapter.KindOf(err), err)
}
