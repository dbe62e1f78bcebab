#!/usr/bin/env node
// mcpconform adapter for the OpenAI Agents SDK (@openai/agents-core) and its
// MCP host layer (MCPServerStdio, MCPServerStreamableHttp over
// @modelcontextprotocol/client 2.x). See README.md for what it maps, what it
// declares absent, and why this SDK.
//
//   mcpconform run --target 'cmd:node conformance/adapters/openai-agents/adapter.mjs'

import {
  Agent, Runner, Usage, MCPServerStdio, MCPServerStreamableHttp, MCPServerSSE, connectMcpServers,
  UserError, ModelBehaviorError, MaxTurnsExceededError, setTracingDisabled,
} from '@openai/agents-core';
import { serve, serverEntries, installedVersion, AdapterError } from '../jsrpc/serve.mjs';

const sdkVersion = installedVersion(new URL('.', import.meta.url).href, '@openai/agents-core');

// What the SDK does not offer, or the adapter does not map yet (README.md
// says which and why): their scenarios are skipped, naming the entry.
const UNIMPLEMENTED = [
  'LA-CFG', 'LA-LIM-05', 'LA-REG-01', 'LA-REG-02', 'LA-REG-03', 'LA-REG-04', 'LA-SEC-10', // no configuration files or sources
  'LA-SEC-01', 'LA-SEC-02', 'LA-SEC-03', 'LA-SEC-04', 'LA-SEC-05', 'LA-SEC-06', 'LA-SEC-07', 'LA-SEC-08', 'LA-SEC-09', 'LA-SEC-11', 'LA-SEC-13', 'LA-SEC-21', // no approval of local MCP servers' tools
  'LA-EVT-03', 'LA-EVT-04', 'LA-REG-16', // hooks: not mapped yet
  'LA-OAU', 'LA-CC', 'LA-TOOL', 'LA-ARC',
];

// The SDK's tracing would export spans to a remote service: off, there is
// no network here and tracing is no part of the MCP host layer.
setTracingDisabled(true);

// The model of every agent is the runner's scripted model: each request is
// one host/model call, carrying what the SDK would send a provider.
class HostModel {
  constructor(host) {
    this.host = host;
  }

  async getResponse(request) {
    const answer = await this.host.model(toHostRequest(request), request.signal);
    const output = [];
    for (const c of answer?.toolCalls ?? []) {
      output.push({ type: 'function_call', callId: c.id, name: c.name, arguments: JSON.stringify(c.arguments ?? {}), status: 'completed' });
    }
    if (typeof answer?.text === 'string' && answer.text !== '') {
      output.push({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer.text }] });
    }
    return { usage: new Usage(), output };
  }

  async *getStreamedResponse(request) {
    const response = await this.getResponse(request);
    yield { type: 'response_done', response: { id: 'scripted', usage: {}, output: response.output } };
  }
}

// textOf is the text of an input item's content, as a provider receives it.
function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : JSON.stringify(p))).join('');
  if (content && typeof content.text === 'string' && content.type === 'text') return content.text;
  return content === undefined ? '' : JSON.stringify(content);
}

// toHostRequest translates the SDK's ModelRequest into the contract's.
function toHostRequest(req) {
  const messages = [];
  const items = typeof req.input === 'string' ? [{ role: 'user', content: req.input }] : req.input;
  for (const it of items) {
    if (it.type === 'function_call') {
      let args = {};
      try { args = JSON.parse(it.arguments || '{}'); } catch { args = it.arguments; }
      const last = messages.at(-1);
      const call = { id: it.callId, name: it.name, arguments: args };
      if (last?.role === 'assistant' && !last.text) (last.toolCalls ??= []).push(call);
      else messages.push({ role: 'assistant', toolCalls: [call] });
    } else if (it.type === 'function_call_result') {
      messages.push({ role: 'tool', toolCallId: it.callId, text: textOf(it.output) });
    } else if (it.role === 'user' || it.role === 'assistant' || it.role === 'system') {
      messages.push({ role: it.role === 'system' ? 'user' : it.role, text: textOf(it.content) });
    }
  }
  const tools = (req.tools ?? []).map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters }));
  return { system: req.systemInstructions ?? '', messages, tools };
}

// mcpServer builds the SDK's own server object for one entry of the
// contract's mcpServers option. The fields map one to one; everything the
// entry says is passed, nothing is checked here.
function mcpServer(name, e) {
  const timeout = typeof e.timeoutMs === 'number' ? { clientSessionTimeoutSeconds: e.timeoutMs / 1000 } : {};
  if (e.type === 'http') {
    return new MCPServerStreamableHttp({ name, url: e.url, requestInit: e.headers ? { headers: e.headers } : undefined, ...timeout });
  }
  if (e.type === 'sse') {
    return new MCPServerSSE({ name, url: e.url, requestInit: e.headers ? { headers: e.headers } : undefined, ...timeout });
  }
  if (e.type === undefined || e.type === 'stdio') {
    return new MCPServerStdio({ name, command: e.command, args: e.args, env: e.env, cwd: e.cwd, ...timeout });
  }
  throw new AdapterError('unsupported', `mcpServers.${name}: the SDK has no transport of type ${JSON.stringify(e.type)}`);
}

async function createAgent(agentId, o, host) {
  if (o.system !== undefined && o.system !== 'lite-agent') throw new AdapterError('unsupported', `the adapter maps lite-agent agents, not ${o.system}`);
  const servers = serverEntries(o.mcpServers).map(([name, e]) => mcpServer(name, e));
  const runner = new Runner({ tracingDisabled: true });
  let connected = null; // the MCPServers of the first send
  let closed = false;
  const running = new Set();
  const agent = () => new Agent({
    name: 'mcpconform',
    instructions: '',
    model: new HostModel(host),
    mcpServers: connected.active,
    // The SDK's own option that names MCP tools after their server.
    mcpConfig: { includeServerInToolNames: true },
  });
  return {
    async send(prompt, signal) {
      if (closed) throw new AdapterError('closed', 'the agent is closed');
      // The SDK leaves connecting to its host; the contract's host connects
      // at the first send, with the SDK's own helper and its defaults.
      if (!connected) {
        connected = await connectMcpServers(servers);
        for (const [server, err] of connected.errors ?? []) {
          host.event({ type: 'error', server: server.name, message: String(err?.message ?? err).slice(0, 4096) });
        }
      }
      const ac = new AbortController();
      const abort = () => ac.abort(signal.reason);
      signal.addEventListener('abort', abort, { once: true });
      running.add(ac);
      try {
        const result = await runner.run(agent(), prompt, { signal: ac.signal });
        return typeof result.finalOutput === 'string' ? result.finalOutput : JSON.stringify(result.finalOutput ?? '');
      } finally {
        running.delete(ac);
        signal.removeEventListener('abort', abort);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const ac of running) ac.abort(new AdapterError('closed', 'the agent was closed'));
      await Promise.allSettled(servers.map((s) => s.close()));
    },
  };
}

// kindOf maps the SDK's error classes onto the contract's kinds.
function kindOf(e) {
  if (e?.name === 'AbortError' || e instanceof DOMException) return 'cancelled';
  if (e instanceof AdapterError) return e.kind;
  if (e instanceof MaxTurnsExceededError) return 'limit';
  if (e instanceof ModelBehaviorError) return 'validation';
  if (e instanceof UserError) return 'config';
  return 'internal';
}

serve({
  name: 'openai-agents',
  info: {
    adapter: { name: 'mcpconform-openai-agents', version: '0.1.0' },
    implementation: { name: '@openai/agents-core', version: sdkVersion },
    systems: ['lite-agent'],
    capabilities: [],
    operations: ['agent/create', 'agent/send', 'agent/close'],
    toolNames: 'mcp_{server}__{tool}',
    unimplemented: UNIMPLEMENTED,
  },
  createAgent,
  kindOf,
});

