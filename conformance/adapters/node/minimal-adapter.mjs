#!/usr/bin/env node
// The smallest useful mcpconform adapter (protocol "1"): the lite-agent stub
// of stub-agent.mjs behind agent/create, send, register, list and close.
//   mcpconform run --target 'cmd:node conformance/adapters/node/minimal-adapter.mjs'
import { createInterface } from 'node:readline';
import { createLiteAgent, LiteAgentError, NAME, VERSION } from './stub-agent.mjs';

const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
const fail = (kind, message) => Object.assign(new Error(message), { kind });
const agents = new Map(); // agentId → agent
const waiting = new Map(); // id of our host/* request → resolve/reject
let nextId = 1;
let ready = false;

// A host callback: a request to the runner, answered on stdin.
const ask = (method, params) => new Promise((resolve, reject) => {
  const id = nextId++;
  waiting.set(id, { resolve, reject });
  send({ id, method, params });
});

const agent = (p) => agents.get(p?.agentId) ?? (() => { throw fail('not_found', `no agent ${JSON.stringify(p?.agentId)}`); })();

const operations = {
  'agent/create': ({ agentId, options: o }) => {
    const host = {
      environ: process.env,
      model: (request) => ask('host/model', { agentId, request }),
      approve: o.approval ? (request) => ask('host/approve', { agentId, request }).then((r) => r.decision) : null,
      event: (event) => send({ method: 'host/event', params: { agentId, event } }),
    };
    agents.set(agentId, createLiteAgent({ workdir: o.workdir, home: o.home, mcpServers: o.mcpServers,
      strictMcpConfig: !!o.strictMcpConfig, permission: o.permission, allowedTools: o.allowedTools }, host));
    return { agentId };
  },
  'agent/send': async (p) => ({ text: (await agent(p).send(p.prompt)).text }),
  'agent/register': async (p) => { await agent(p).mcp.register(p.name, p.entry); return {}; },
  'agent/list': (p) => ({ servers: agent(p).mcp.list().map((s) => ({ name: s.name, tools: s.tools })) }),
  'agent/close': async (p) => { await agent(p).close(); agents.delete(p.agentId); return {}; },
  shutdown: async () => { await Promise.all([...agents.values()].map((a) => a.close())); return {}; },
};

async function request({ id, method, params }) {
  if (method === 'initialize') {
    if (params?.protocolVersion !== '1')
      return send({ id, error: { code: -32001, message: 'this adapter speaks protocol "1"', data: { kind: 'unsupported', supported: ['1'] } } });
    ready = true;
    return send({ id, result: { protocolVersion: '1', adapter: { name: 'minimal-adapter', version: '0.1.0' },
      implementation: { name: NAME, version: VERSION }, systems: ['lite-agent'], capabilities: [],
      operations: Object.keys(operations).filter((m) => m.startsWith('agent/')), unimplemented: ['LA-OAU', 'LA-CC'] } });
  }
  if (!ready) return send({ id, error: { code: -32600, message: `${method} before initialize` } });
  if (!Object.hasOwn(operations, method)) return send({ id, error: { code: -32601, message: `unknown method ${method}` } });
  try {
    send({ id, result: await operations[method](params) });
  } catch (e) {
    const kind = e instanceof LiteAgentError || e.kind ? e.kind : 'internal';
    send({ id, error: { code: -32000, message: String(e.message), data: { kind, ...(e.rule ? { rule: e.rule } : {}) } } });
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === '') return;
  const msg = JSON.parse(line);
  if (typeof msg.method === 'string') return msg.id === undefined ? undefined : request(msg); // notifications ignored
  const w = waiting.get(msg.id);
  waiting.delete(msg.id);
  if (msg.error) w?.reject(Object.assign(new Error(msg.error.message), { kind: msg.error.data?.kind ?? 'internal' }));
  else w?.resolve(msg.result);
}).on('close', async () => {
  await Promise.all([...agents.values()].map((a) => a.close().catch(() => {})));
  process.exit(0);
});
