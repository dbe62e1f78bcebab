package core

import (
	"context"
	"slices"
	"testing"
)

// sessions returns how many sessions the server has had.
func (f *fakeServer) sessionCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.sessions)
}

// TestSubAgent: a sub-agent shares its root's connections (LA-REG-17),
// keeps its own allowlist (LA-REG-18) and a policy at least as strict as
// its root's (LA-REG-19), may not change the registry or have sub-agents
// of its own (LA-REG-14), and closing it leaves the root connected
// (LA-REG-20).
func TestSubAgent(t *testing.T) {
	docs := newFake("docs", echo("search"), echo("fetch"), echo("drop"))
	model := &script{turns: []ModelResponse{
		{Text: "root connected"},
		{ToolCalls: []ToolCall{call(1, "mcp__docs__search", `{"q":1}`), call(2, "mcp__docs__fetch", `{"u":2}`)}},
	}}
	h := testHost(t, LiteAgent(), Options{Permission: allowAll, Model: model, MCPServers: declared("docs")}, map[string]*fakeServer{"docs": docs})
	ctx := context.Background()
	if _, err := h.Send(ctx, "connect"); err != nil {
		t.Fatal(err)
	}

	// The lite-agent profile's probe process makes the first session.
	before := docs.sessionCount()
	sub, err := h.SubAgent(SubAgentOptions{
		AllowedTools: []string{"mcp__docs__search", "mcp__docs__fetch"},
		Permission:   &Policy{Allow: []string{"mcp__docs__search"}, Deny: []string{"mcp__docs__fetch"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sub.Send(ctx, "use docs"); err != nil {
		t.Fatal(err)
	}
	reqs := model.requests()
	if n := len(reqs[0].Tools); n != 4 {
		t.Errorf("the root's catalog: Expected 4 tools (drop, fetch, search, context), Actual %d", n)
	}
	var offered []string
	for _, s := range reqs[1].Tools {
		offered = append(offered, s.Name)
	}
	if want := []string{"mcp__docs__fetch", "mcp__docs__search", ContextTool}; !slices.Equal(offered, want) {
		t.Errorf("LA-REG-18: the sub-agent's catalog\nExpected: %v\n  Actual: %v", want, offered)
	}
	if n := docs.sessionCount(); n != before {
		t.Errorf("LA-REG-17: the sub-agent shares the root's connection\nExpected: %d sessions\n  Actual: %d", before, n)
	}
	if got, want := docs.called(), []string{"search"}; !slices.Equal(got, want) {
		t.Errorf("LA-REG-19: the root allows fetch, the sub-agent denies it\nExpected calls: %v\n  Actual: %v", want, got)
	}
	msgs := model.toolMessages()
	if len(msgs) != 2 {
		t.Fatalf("tool messages: Expected 2, Actual %+v", msgs)
	}
	contains(t, "the denied fetch", msgs[1].Text, "LA-SEC-03", "mcp__docs__fetch is denied by the permission policy")

	wantErr(t, "a sub-agent's register()", sub.MCP().Register(ctx, "more", ServerConfig{Command: "x"}), KindUnsupported, "LA-REG-14")
	wantErr(t, "a sub-agent's unregister()", sub.MCP().Unregister(ctx, "docs"), KindUnsupported, "LA-REG-14")
	_, err = sub.SubAgent(SubAgentOptions{})
	wantErr(t, "a sub-agent of a sub-agent", err, KindUnsupported, "LA-REG-14")

	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	if l := h.MCP().List(); l[0].Status != StatusConnected {
		t.Errorf("LA-REG-20: closing a sub-agent\nExpected: docs still connected\n  Actual: %+v", l[0])
	}
	if docs.sessionCount() != before || len(docs.called()) != 1 {
		t.Errorf("closing the sub-agent touched the root's connection: %d sessions, calls %v", docs.sessionCount(), docs.called())
	}

	h.Close()
	_, err = h.SubAgent(SubAgentOptions{})
	wantErr(t, "SubAgent of a closed root", err, KindClosed, "LA-REG-21")
}

// TestSubAgentBusyBlocksRegistry: the registry changes only when the root
// and all its sub-agents are idle (LA-REG-15).
func TestSubAgentBusyBlocksRegistry(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	model := ModelFunc(func(ctx context.Context, req ModelRequest) (ModelResponse, error) {
		close(entered)
		select {
		case <-release:
		case <-ctx.Done():
		}
		return ModelResponse{Text: "done"}, nil
	})
	fakes := map[string]*fakeServer{"more": newFake("more", echo("t"))}
	h := testHost(t, LiteAgent(), Options{Permission: allowAll, Model: model}, fakes)
	sub, err := h.SubAgent(SubAgentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	done := make(chan error, 1)
	go func() {
		_, err := sub.Send(ctx, "think")
		done <- err
	}()
	<-entered
	wantErr(t, "register() while a sub-agent runs", h.MCP().Register(ctx, "more", ServerConfig{Command: "x"}), KindBusy, "LA-REG-15")
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := h.MCP().Register(ctx, "more", ServerConfig{Command: "x"}); err != nil {
		t.Errorf("register() once the sub-agent is idle: %v", err)
	}
}
