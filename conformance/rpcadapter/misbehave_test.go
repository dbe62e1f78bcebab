package rpcadapter_test

import (
	"context"
	"fmt"
	"os"

	"github.com/mcpconform/mcpconform/conformance/adapter"
	"github.com/mcpconform/mcpconform/conformance/refadapter"
)

// misbehaving is the reference with an adapter that breaks at the first
// agent/send:
//
//	die      the process exits
//	hang     the send never answers
//	garbage  the process writes a line that is not JSON-RPC
//	lie      the process answers a request the runner never sent
type misbehaving struct{ mode string }

func (m misbehaving) Info(ctx context.Context) (adapter.Info, error) {
	return refadapter.Target{}.Info(ctx)
}

func (m misbehaving) Open(ctx context.Context, env adapter.Env) (adapter.Adapter, error) {
	a, err := refadapter.Target{}.Open(ctx, env)
	return misbehavingAdapter{a, m.mode}, err
}

type misbehavingAdapter struct {
	adapter.Adapter
	mode string
}

func (a misbehavingAdapter) NewAgent(ctx context.Context, opts adapter.AgentOptions, host adapter.Host) (adapter.Agent, error) {
	g, err := a.Adapter.NewAgent(ctx, opts, host)
	if err != nil {
		return nil, err
	}
	return misbehavingAgent{g, a.mode}, nil
}

type misbehavingAgent struct {
	adapter.Agent
	mode string
}

func (g misbehavingAgent) Send(ctx context.Context, prompt string) (adapter.SendResult, error) {
	fmt.Fprintf(os.Stderr, "misbehaving adapter: %s at agent/send\n", g.mode)
	switch g.mode {
	case "die":
		os.Exit(3)
	case "hang":
		<-ctx.Done()
		return adapter.SendResult{}, ctx.Err()
	case "garbage":
		os.Stdout.Write([]byte("this is not JSON-RPC\n"))
		<-ctx.Done()
		return adapter.SendResult{}, ctx.Err()
	case "lie":
		os.Stdout.Write([]byte(`{"jsonrpc":"2.0","id":987654,"result":{"text":"trust me"}}` + "\n"))
		<-ctx.Done()
		return adapter.SendResult{}, ctx.Err()
	}
	return g.Agent.Send(ctx, prompt)
}
