// The adapter protocol's plumbing (spec/adapter-protocol.md, version "1")
// shared by the adapters of real Node.js SDKs in ../<sdk>/: JSON-RPC 2.0 on
// stdin/stdout, one message per line, the handshake, the agent table,
// host/* calls back to the runner with cancellation, and errors carrying
// data.kind. It knows nothing about any SDK and implements no rule: each
// adapter gives it a description of itself and a createAgent function that
// maps the contract onto its SDK's own API.
//
//   import { serve, AdapterError } from '../jsrpc/serve.mjs';
//   serve({ info, createAgent, kindOf });
//
// Node 20, standard library only.

import { readFileSync } from 'node:fs';

const PROTOCOL_VERSION = '1';

/** A failure with a contract error kind (spec/adapter-protocol.md §6). */
export class AdapterError extends Error {
  constructor(kind, message, rule) {
    super(message);
    this.kind = kind;
    this.rule = rule;
  }
}

class ProtocolError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** invalidParams is the error for params that break the protocol's schema. */
export const invalidParams = (msg) => new ProtocolError(-32602, msg, { kind: 'validation' });

// Longest text of an error message the adapter copies into an answer.
const MAX_MESSAGE = 4096;

/**
 * serve runs the adapter until stdin ends.
 *
 * info: the handshake's result without protocolVersion (adapter,
 * implementation, systems, capabilities, operations, unimplemented,
 * toolNames, concurrency).
 * createAgent(agentId, options, host): builds one agent and returns an
 * object with a method per operation it serves beyond agent/create:
 * send(prompt, signal), close(), and any of register(name, entry, signal),
 * unregister(name, signal), list(), awaitIdle(signal); killNow() (optional)
 * reaps what close() could not in time.
 * kindOf(error): the contract kind of an SDK error, from its class or code;
 * 'internal' when it cannot tell.
 */
export function serve({ info, createAgent, kindOf = () => 'internal', name = 'adapter' }) {
  const log = (...a) => process.stderr.write(`[${name}] ${a.join(' ')}\n`);
  const write = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');
  const result = (id, r) => write({ jsonrpc: '2.0', id, result: r });
  const error = (id, code, message, data) =>
    write({ jsonrpc: '2.0', id, error: data ? { code, message, data } : { code, message } });

  function opError(id, e) {
    if (e instanceof ProtocolError) return error(id, e.code, e.message, e.data);
    const kind = e instanceof AdapterError ? e.kind : kindOf(e);
    const message = String(e?.message ?? e).slice(0, MAX_MESSAGE) || 'the operation failed';
    if (!(e instanceof AdapterError)) log(`${kind} error:`, String(e?.stack ?? e).slice(0, MAX_MESSAGE));
    return error(id, -32000, message, { kind, ...(e?.rule ? { rule: e.rule } : {}) });
  }

  // ------------------------------------------------------------ calls to the runner
  let nextId = 1;
  const waiting = new Map(); // our request id → { resolve, reject }

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
      const settle = (f) => (v) => {
        signal?.removeEventListener('abort', onAbort);
        f(v);
      };
      waiting.set(id, { resolve: settle(resolve), reject: settle(reject) });
      write({ jsonrpc: '2.0', id, method, params });
    });
  }

  // ------------------------------------------------------------ agents
  const agents = new Map();
  const inflight = new Map(); // runner request id → AbortController

  function agentOf(params) {
    const a = agents.get(params?.agentId);
    if (!a) throw new AdapterError('not_found', `no agent ${JSON.stringify(params?.agentId)}`);
    return a;
  }

  async function create(params) {
    const o = params?.options;
    if (o === null || typeof o !== 'object' || Array.isArray(o)) throw invalidParams('options must be an object');
    const agentId = typeof params.agentId === 'string' && params.agentId !== '' ? params.agentId : `agent-${agents.size + 1}`;
    if (agents.has(agentId)) throw invalidParams(`agent ${JSON.stringify(agentId)} already exists`);
    const host = {
      model: (request, signal) => callRunner('host/model', { agentId, request }, signal),
      approve: (request, signal) =>
        callRunner('host/approve', { agentId, request }, signal).then((r) => r?.decision),
      event: (event) => write({ jsonrpc: '2.0', method: 'host/event', params: { agentId, event } }),
      hook: (hook, signal) => callRunner('host/hook', { agentId, hook }, signal),
    };
    agents.set(agentId, await createAgent(agentId, o, host));
    return { agentId };
  }

  const str = (v, field) => {
    if (typeof v !== 'string') throw invalidParams(`${field} must be a string`);
    return v;
  };
  const methods = {
    'agent/create': (p) => create(p),
    'agent/send': async (p, signal) => ({ text: (await agentOf(p).send(str(p?.prompt, 'prompt'), signal)) ?? '' }),
    'agent/register': async (p, signal) => (await agentOf(p).register(str(p?.name, 'name'), p.entry, signal), {}),
    'agent/unregister': async (p, signal) => (await agentOf(p).unregister(str(p?.name, 'name'), signal), {}),
    'agent/list': async (p) => ({ servers: await agentOf(p).list() }),
    'agent/awaitIdle': async (p, signal) => (await agentOf(p).awaitIdle(signal), {}),
    'agent/close': async (p) => (await agentOf(p).close(), {}),
    shutdown: async () => (await closeAll(), {}),
  };

  async function closeAll() {
    await Promise.all([...agents.values()].map((a) => Promise.resolve(a.close()).catch(() => {})));
  }

  // ------------------------------------------------------------ dispatch
  let initialized = false;

  async function handleRequest({ id, method, params }) {
    if (method === 'initialize') {
      if (params?.protocolVersion !== PROTOCOL_VERSION) {
        return error(id, -32001, `unsupported adapter protocol version ${JSON.stringify(params?.protocolVersion)}; this adapter speaks ${PROTOCOL_VERSION}`,
          { kind: 'unsupported', supported: [PROTOCOL_VERSION] });
      }
      initialized = true;
      return result(id, { protocolVersion: PROTOCOL_VERSION, ...info });
    }
    const listed = method === 'shutdown' || info.operations.includes(method);
    const fn = listed && Object.hasOwn(methods, method) ? methods[method] : undefined;
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
      if (msg.id === undefined) {
        if (msg.method === '$/cancelRequest') {
          inflight.get(msg.params?.id)?.abort(new AdapterError('cancelled', 'the request was cancelled by the runner'));
        }
        return;
      }
      handleRequest(msg);
      return;
    }
    const w = waiting.get(msg.id);
    if (!w) return; // the late answer to a request we cancelled
    waiting.delete(msg.id);
    if (msg.error) {
      const e = new Error(String(msg.error.message || 'the runner answered with an error').slice(0, MAX_MESSAGE));
      e.rpc = msg.error;
      w.reject(e);
    } else w.resolve(msg.result);
  }

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
  const killAll = () => {
    for (const a of agents.values()) a.killNow?.();
  };
  // The runner closes stdin when the scenario ends: close every agent, so
  // that the SDK reaps the processes it started, well within the runner's
  // 2 s grace.
  process.stdin.on('end', async () => {
    const timer = setTimeout(() => {
      killAll();
      process.exit(0);
    }, 1500);
    await closeAll();
    clearTimeout(timer);
    process.exit(0);
  });
  for (const sig of ['SIGTERM', 'SIGINT']) {
    process.on(sig, () => {
      killAll();
      process.exit(0);
    });
  }
  process.stdout.on('error', () => process.exit(0));
  // An SDK's stray rejection is its own failure, shown on stderr; it must
  // not end the adapter while the runner still talks to it.
  process.on('unhandledRejection', (e) => log('unhandled rejection:', String(e?.stack ?? e).slice(0, MAX_MESSAGE)));
}

/**
 * serverEntries reads the mcpServers option the way every SDK adapter needs
 * it: the lite-agent entry shape (command/args/env or type "http" with
 * url/headers, timeoutMs), as [name, entry] pairs in order. It translates
 * nothing and checks nothing beyond what a translation needs: an entry of
 * a shape no SDK here has a field for is refused as unsupported, saying so.
 */
export function serverEntries(mcpServers) {
  if (mcpServers === undefined || mcpServers === null) return [];
  if (typeof mcpServers !== 'object' || Array.isArray(mcpServers)) {
    throw new AdapterError('unsupported', 'the adapter can only hand the SDK an mcpServers object of entries');
  }
  return Object.entries(mcpServers).map(([name, e]) => {
    if (e === null || typeof e !== 'object' || Array.isArray(e)) {
      throw new AdapterError('unsupported', `mcpServers.${name}: the adapter can only hand the SDK an entry object`);
    }
    return [name, e];
  });
}

/**
 * installedVersion is the version of the package name installed beside the
 * adapter at dir (its node_modules), read from the package's own
 * package.json, which many packages do not export.
 */
export function installedVersion(dir, name) {
  const file = new URL(`node_modules/${name}/package.json`, dir.endsWith('/') ? dir : dir + '/');
  return JSON.parse(readFileSync(file, 'utf8')).version;
}
