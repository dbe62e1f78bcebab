#!/usr/bin/env node
// A minimal mcpconform adapter (protocol version "1", spec/adapter-protocol.md)
// around the lite-agent stub of stub-agent.mjs. JSON-RPC 2.0 over stdio, one
// message per line. Node 20, standard library only.
//
//   mcpconform run --target 'cmd:node conformance/adapters/node/stub-adapter.mjs'

import { createLiteAgent, LiteAgentError, NAME as IMPL_NAME, VERSION as IMPL_VERSION } from './stub-agent.mjs';

const PROTOCOL_VERSION = '1';
const OPERATIONS = ['agent/create', 'agent/send', 'agent/register', 'agent/list', 'agent/close'];
// reuse: one process serves the runner's scenarios in turn (§1).
const CAPABILITIES = ['reuse'];

const log = (...a) => process.stderr.write(`[node-stub] ${a.join(' ')}\n`);

// ---------------------------------------------------------------- framing

function write(msg) {
  process.stdout.write(JSON.stringify(msg) + '\n');
}

const result = (id, r) => write({ jsonrpc: '2.0', id, result: r });
const error = (id, code, message, data) => write({ jsonrpc: '2.0', id, error: data ? { code, message, data } : { code, message } });

/** A failure of an operation: -32000 with data.kind (and data.rule). */
function opError(id, e) {
  if (e instanceof LiteAgentError) return error(id, -32000, e.message, { kind: e.kind, ...(e.rule ? { rule: e.rule } : {}) });
  if (e instanceof ProtocolError) return error(id, e.code, e.message, e.data);
  log('internal error:', e?.stack || e);
  return error(id, -32000, String(e?.message || e), { kind: 'internal' });
}

class ProtocolError extends Error {
  constructor(code, message, data) { super(message); this.code = code; this.data = data; }
}
const invalidParams = (msg) => new ProtocolError(-32602, msg, { kind: 'validation' });

// ---------------------------------------------------------------- calls to the runner

let nextId = 1;
const waiting = new Map(); // our request id → { resolve, reject }

/** Sends a host/* request; aborting signal sends $/cancelRequest and stops waiting. */
function callRunner(method, params, signal) {
  if (signal?.aborted) return Promise.reject(signal.reason);
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      waiting.delete(id);
      write({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } });
      reject(signal.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (f) => (v) => { signal?.removeEventListener('abort', onAbort); f(v); };
    waiting.set(id, { resolve: settle(resolve), reject: settle(reject) });
    write({ jsonrpc: '2.0', id, method, params });
  });
}

// ---------------------------------------------------------------- agents

const agents = new Map(); // agentId → agent
let agentSeq = 0;
const inflight = new Map(); // runner request id → AbortController

function agentOf(params) {
  const a = agents.get(params?.agentId);
  // The protocol does not say; the Go side (rpcadapter/serve.go) answers not_found.
  if (!a) throw new LiteAgentError('not_found', '', `no agent ${JSON.stringify(params?.agentId)}`);
  return a;
}

function create(params) {
  const o = params?.options;
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw invalidParams('options must be an object');
  if (o.system !== undefined && o.system !== 'lite-agent')
    throw new LiteAgentError('unsupported', '', `the stub implements lite-agent, not ${o.system}`);
  if (o.mcpTransports !== undefined) throw new LiteAgentError('unsupported', '', 'the stub does not implement mcpTransports');
  // The prose of §4 has the adapter choose the id (result {agentId}); the
  // schema and the runner send one in the params. Use it when given.
  let agentId = typeof params.agentId === 'string' && params.agentId !== '' ? params.agentId : `agent-${++agentSeq}`;
  if (agents.has(agentId)) throw invalidParams(`agent ${JSON.stringify(agentId)} already exists`);
  const host = {
    environ: process.env,
    model: (request, signal) => callRunner('host/model', { agentId, request }, signal),
    approve: o.approval
      ? (request, signal) => callRunner('host/approve', { agentId, request }, signal).then((r) => r?.decision)
      : null,
    event: (event) => write({ jsonrpc: '2.0', method: 'host/event', params: { agentId, event } }),
  };
  const agent = createLiteAgent(
    {
      workdir: o.workdir, home: o.home, mcpServers: o.mcpServers, strictMcpConfig: !!o.strictMcpConfig,
      permission: o.permission, allowedTools: o.allowedTools,
    },
    host,
  );
  agents.set(agentId, agent);
  return { agentId };
}

const methods = {
  'agent/create': (p) => create(p),
  'agent/send': async (p, signal) => {
    if (typeof p?.prompt !== 'string') throw invalidParams('prompt must be a string');
    const r = await agentOf(p).send(p.prompt, signal);
    return { text: r.text };
  },
  'agent/register': async (p, signal) => {
    if (typeof p?.name !== 'string') throw invalidParams('name must be a string');
    await agentOf(p).mcp.register(p.name, p.entry, { signal });
    return {};
  },
  'agent/list': (p) => ({
    servers: agentOf(p).mcp.list().map((s) => ({ name: s.name, tools: s.tools, raw: s })),
  }),
  'agent/close': async (p) => {
    await agentOf(p).close();
    return {};
  },
  shutdown: async () => {
    await closeAll();
    return {};
  },
  // Capability reuse (§1): the scenario ends with every agent closed and
  // forgotten; the next begins in its own directory and environment.
  'scenario/end': async () => {
    await closeAll();
    agents.clear();
    return {};
  },
  'scenario/begin': (p) => {
    if (typeof p?.dir !== 'string' || !Array.isArray(p?.environ)) throw invalidParams('dir must be a string and environ an array of strings');
    process.chdir(p.dir);
    for (const k of Object.keys(process.env)) delete process.env[k];
    for (const kv of p.environ) {
      const i = typeof kv === 'string' ? kv.indexOf('=') : -1;
      if (i > 0) process.env[kv.slice(0, i)] = kv.slice(i + 1);
    }
    return {};
  },
};

async function closeAll() {
  await Promise.all([...agents.values()].map((a) => a.close().catch(() => {})));
}

// ---------------------------------------------------------------- dispatch

let initialized = false;

async function handleRequest(msg) {
  const { id, method, params } = msg;
  if (method === 'initialize') {
    if (params?.protocolVersion !== PROTOCOL_VERSION) {
      return error(id, -32001, `unsupported adapter protocol version ${JSON.stringify(params?.protocolVersion)}; this adapter speaks ${PROTOCOL_VERSION}`,
        { kind: 'unsupported', supported: [PROTOCOL_VERSION] });
    }
    initialized = true;
    return result(id, {
      protocolVersion: PROTOCOL_VERSION,
      adapter: { name: 'mcpconform-node-stub', version: '0.1.0' },
      implementation: { name: IMPL_NAME, version: IMPL_VERSION },
      systems: ['lite-agent'],
      capabilities: CAPABILITIES,
      operations: OPERATIONS,
      // The stub has no OAuth at all: those scenarios skip, saying so.
      unimplemented: ['LA-OAU', 'LA-CC'],
    });
  }
  const fn = Object.hasOwn(methods, method) ? methods[method] : undefined;
  if (!fn) return error(id, -32601, `method ${JSON.stringify(method)} not found`, { kind: 'unsupported' });
  if (!initialized) return error(id, -32600, 'the first request must be initialize', { kind: 'internal' });
  const ac = new AbortController();
  inflight.set(id, ac);
  try {
    result(id, await fn(params, ac.signal));
  } catch (e) {
    opError(id, e);
  } finally {
    inflight.delete(id);
  }
}

function handle(msg) {
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg) || msg.jsonrpc !== '2.0') {
    return error(null, -32600, 'invalid request');
  }
  if (typeof msg.method === 'string') {
    if (msg.id === undefined) { // notification
      if (msg.method === '$/cancelRequest') {
        inflight.get(msg.params?.id)?.abort(new LiteAgentError('cancelled', 'LA-TMO-05', 'the request was cancelled by the runner'));
      }
      return; // unknown notifications are ignored
    }
    handleRequest(msg);
    return;
  }
  // A response to one of our host/* requests (or to one we already cancelled).
  const w = waiting.get(msg.id);
  if (!w) return;
  waiting.delete(msg.id);
  if (msg.error) {
    const e = new Error(msg.error.message || 'the runner answered with an error');
    e.rpc = msg.error;
    w.reject(e);
  } else w.resolve(msg.result);
}

// ---------------------------------------------------------------- stdin

let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (line.trim() === '') continue;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      error(null, -32700, `parse error: ${e.message}`);
      continue;
    }
    handle(msg);
  }
});

// The runner closes stdin when the scenario ends: reclaim every server
// process (they may be in other process groups in a real implementation),
// then exit well within the runner's 2 s grace.
process.stdin.on('end', async () => {
  const timer = setTimeout(() => { for (const a of agents.values()) a.killNow(); process.exit(0); }, 1500);
  await closeAll();
  clearTimeout(timer);
  process.exit(0);
});
for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, () => { for (const a of agents.values()) a.killNow(); process.exit(0); });
}
process.stdout.on('error', () => process.exit(0));
