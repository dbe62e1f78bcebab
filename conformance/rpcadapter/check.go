package rpcadapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpconform/mcpconform/conformance/adapter"
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
// protocol's JSON Schemas. Each check is one of [probes], in their order.
func Check(ctx context.Context, t *Target) []CheckResult {
	c := &checkRun{host: &checkHost{}}
	schemas, err := LoadSchemas()
	if err != nil {
		c.add("schemas", CheckFailed, "the protocol schemas do not load: %v", err)
		return c.results
	}
	c.target = &Target{Command: t.Command, Env: t.Env, HandshakeTimeout: t.HandshakeTimeout, Limits: t.Limits}
	c.target.Observe = func(tr Traffic) {
		if tr.Method == bogusMethod {
			return // the deliberately unknown method has no schema
		}
		if err := schemas.Validate(tr); err != nil {
			dir := "received"
			if tr.Sent {
				dir = "sent"
			}
			c.mu.Lock()
			c.invalid = append(c.invalid, dir+": "+err.Error())
			c.mu.Unlock()
		}
	}
	c.dir, err = scratch.Dir("check")
	if err != nil {
		c.add("setup", CheckFailed, "%v", err)
		return c.results
	}
	defer os.RemoveAll(c.dir)
	c.env = adapter.Env{Dir: c.dir, Environ: append(os.Environ(), "HOME="+c.dir)}
	for _, pr := range probes {
		if skip, run := c.applies(pr); !run {
			if skip != nil {
				c.results = append(c.results, *skip)
			}
			continue
		}
		v, detail := pr.run(ctx, c)
		c.add(pr.name, v, "%s", detail)
		if c.end {
			return c.results
		}
		if v == CheckFailed && pr.needed {
			break
		}
	}
	if c.p != nil {
		c.p.Close() // done already after shutdown; its own messages are checked too
	}
	return c.finish()
}

// finish adds the schema check.
func (c *checkRun) finish() []CheckResult {
	r := CheckResult{Check: "message schemas", Verdict: CheckOK, Detail: "every message matched spec/protocol"}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.invalid) > 0 {
		r.Verdict = CheckFailed
		r.Detail = strings.Join(c.invalid, "\n        ")
	}
	return append(c.results, r)
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
