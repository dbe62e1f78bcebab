// A tiny stub of a lite-agent host: configuration, one MCP registry, an MCP
// client speaking protocol 2026-07-28 over stdio and Streamable HTTP, and the
// run loop. It exists to be driven by stub-adapter.mjs and proves that the
// adapter protocol is enough to test an implementation written in another
// language. Node 20, standard library only.
//
// It follows the Go reference (reference/*.go) where the conformance
// scenarios of LA-CFG and LA-NAME look, plus the cheap parts of LA-REG and
// LA-LIM. It is not a port: no unregister, no awaitIdle, no input schema
// validation of tool arguments, no OAuth.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const NAME = 'lite-agent-stub';
export const VERSION = '0.1.0';
export const MCP_PROTOCOL_VERSION = '2026-07-28';
export const SYSTEM_PROMPT = 'You are an agent. Use the tools offered when they help.';

// Documented limits (reference/limits.go).
const MAX_SERVERS = 32;
const MAX_TOOLS = 128;
const MAX_PAGES = 16;
const MAX_CATALOG_BYTES = 512 * 1024;
const MAX_CONFIG_FILE_BYTES = 256 * 1024;
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_TIMEOUT_MS = 300_000;
const MAX_TURNS = 64;
const CHILD_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];
const CLIENT_INFO = { name: NAME, version: VERSION };

// ---------------------------------------------------------------- errors

/** The stub's error: a contract kind, the rule it cites and a message. */
export class LiteAgentError extends Error {
  constructor(kind, rule, message) {
    super(rule ? `${rule}: ${message}` : message);
    this.kind = kind;
    this.rule = rule || undefined;
  }
}
const fail = (kind, rule, message) => new LiteAgentError(kind, rule, message);
const cfgErr = (rule, where, field, msg) => fail('config', rule, `${where}: ${field ? field + ': ' : ''}${msg}`);

/** The error a done signal stands for: its reason, or a cancellation. */
function abortError(signal, what) {
  if (signal.reason instanceof LiteAgentError) return signal.reason;
  return fail('cancelled', 'LA-TMO-05', `${what} was cancelled`);
}

/** A signal that also aborts after ms with a timeout error. */
function deadline(signal, ms, what) {
  const c = new AbortController();
  const timer = setTimeout(() => c.abort(fail('timeout', 'LA-TMO-04', `${what} timed out after ${ms} ms`)), ms);
  return { signal: AbortSignal.any([signal, c.signal]), clear: () => clearTimeout(timer) };
}

// ---------------------------------------------------------------- naming

const NAME_RE = /^[A-Za-z0-9_-]+$/;

export function validateAlias(alias) {
  const n = [...alias].length;
  if (n < 1) return fail('name', 'LA-NAME-02', 'server alias is empty; it must have 1 to 24 characters');
  if (n > 24) return fail('name', 'LA-NAME-02', `server alias ${JSON.stringify(alias)} has ${n} characters; at most 24`);
  if (!NAME_RE.test(alias)) return fail('name', 'LA-NAME-03', `server alias ${JSON.stringify(alias)} may only use letters, digits, '_' and '-'`);
  if (alias.includes('__')) return fail('name', 'LA-NAME-04', `server alias ${JSON.stringify(alias)} contains "__"`);
  return null;
}

export const toolName = (alias, tool) => `mcp__${alias}__${tool}`;

function validateToolName(full, raw) {
  if (raw === '') return fail('name', 'LA-NAME-06', 'the server offers a tool with an empty name');
  if (!NAME_RE.test(raw)) return fail('name', 'LA-NAME-06', `tool ${JSON.stringify(raw)} may only use letters, digits, '_' and '-'`);
  if (full.length > 64) return fail('name', 'LA-NAME-05', `tool ${JSON.stringify(raw)} gives the name ${full} of ${full.length} characters; at most 64`);
  return null;
}

// ---------------------------------------------------------------- configuration

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const jsonType = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);

/** Decodes an alias → entry object (the mcpServers option or file key). */
function decodeServers(value, where, field) {
  if (!isObject(value)) throw cfgErr('LA-CFG-10', where, field, `must be a JSON object, not ${jsonType(value)}`);
  return Object.entries(value).map(([name, entry]) => ({ name, cfg: decodeEntry(entry, where, `${field}.${name}`) }));
}

/** Decodes one entry strictly: JSON types checked, unknown fields refused. */
export function decodeEntry(value, where, field) {
  if (!isObject(value)) throw cfgErr('LA-CFG-10', where, field, `must be a JSON object, not ${jsonType(value)}`);
  const c = {};
  const str = (k, v) => {
    if (typeof v !== 'string') throw cfgErr('LA-CFG-10', where, `${field}.${k}`, `must be a string, not ${jsonType(v)}`);
    return v;
  };
  const strMap = (k, v) => {
    if (!isObject(v)) throw cfgErr('LA-CFG-10', where, `${field}.${k}`, `must be an object of strings, not ${jsonType(v)}`);
    for (const [kk, vv] of Object.entries(v)) str(`${k}.${kk}`, vv);
    return { ...v };
  };
  for (const [k, v] of Object.entries(value)) {
    switch (k) {
      case 'type': case 'command': case 'url': c[k] = str(k, v); break;
      case 'args':
        if (!Array.isArray(v)) throw cfgErr('LA-CFG-10', where, `${field}.args`, `must be an array of strings, not ${jsonType(v)}`);
        c.args = v.map((a, i) => str(`args[${i}]`, a));
        break;
      case 'env': case 'headers': c[k] = strMap(k, v); break;
      case 'timeoutMs':
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_TIMEOUT_MS)
          throw fail('config', 'LA-TMO-03', `${where}: ${field}.timeoutMs: ${JSON.stringify(v)} is not a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
        c.timeoutMs = v;
        break;
      case 'oauth': case 'mcpOAuth': case 'token': case 'tokens': case 'provider': case 'authorize': case 'clientSecret':
        throw cfgErr('LA-OAU-02', where, `${field}.${k}`, `${JSON.stringify(k)} is not allowed in a server entry`);
      case 'alwaysAllow': case 'trust': case 'trusted': case 'permissions': case 'allow': case 'autoApprove':
        throw cfgErr('LA-SEC-10', where, `${field}.${k}`, `${JSON.stringify(k)} is not allowed in a server entry; configuration grants no permission`);
      default:
        throw cfgErr('LA-CFG-04', where, `${field}.${k}`, `unknown field ${JSON.stringify(k)}; an entry has type, command, args, env, url, headers and timeoutMs`);
    }
  }
  return c;
}

const transportOf = (c) => c.type || 'stdio';

/** Validates a named entry wherever it came from (reference validateServer). */
export function validateServer(name, c, where, field) {
  const bad = validateAlias(name);
  if (bad) { bad.message = `${bad.rule}: ${where}: ${field}: ${bad.message.slice(bad.rule.length + 2)}`; throw bad; }
  switch (c.type) {
    case undefined: case '':
      if (c.url !== undefined && !c.command)
        throw cfgErr('LA-CFG-07', where, `${field}.type`, 'an entry with "url" must declare "type": "http"; http is never inferred');
      break;
    case 'stdio': case 'http': break;
    case 'sse': throw cfgErr('LA-TRN-04', where, `${field}.type`, 'type "sse" (legacy HTTP+SSE) is not supported');
    default: throw cfgErr('LA-CFG-04', where, `${field}.type`, `unknown type ${JSON.stringify(c.type)}; use "stdio" or "http"`);
  }
  if (transportOf(c) === 'stdio') {
    if (!c.command) throw cfgErr('LA-CFG-10', where, `${field}.command`, 'a stdio entry needs a non-empty "command"');
    if (c.url !== undefined || c.headers !== undefined) throw cfgErr('LA-CFG-04', where, field, '"url" and "headers" belong to http entries');
    for (const k of Object.keys(c.env || {}))
      if (k === '' || /[=\0]/.test(k)) throw cfgErr('LA-CFG-10', where, `${field}.env`, `environment variable name ${JSON.stringify(k)} is not valid`);
  } else {
    if (c.command !== undefined || c.args !== undefined || c.env !== undefined)
      throw cfgErr('LA-CFG-04', where, field, '"command", "args" and "env" belong to stdio entries');
    const v = checkURL(c.url ?? '') || checkHeaders(c.headers || {});
    if (v) throw fail('security', v.rule, `${where}: ${field}: ${v.msg}`);
  }
}

const LOOPBACK = (h) => h.toLowerCase() === 'localhost' || h === '127.0.0.1' || h === '[::1]';

/** The URL rules of reference/netpolicy: https, or http to loopback only. */
function checkURL(raw) {
  if (raw === '') return { rule: 'LA-NET-01', msg: 'the URL is empty' };
  if (raw.includes('#')) return { rule: 'LA-NET-05', msg: `URL ${JSON.stringify(raw)} has a fragment` };
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)/.exec(raw);
  if (!m) return { rule: 'LA-NET-01', msg: `URL ${JSON.stringify(raw)} is not an absolute URL with a host` };
  if (m[2].includes('@')) return { rule: 'LA-NET-04', msg: 'the URL carries user credentials' };
  const host = m[2].replace(/:\d*$/, '');
  if (host === '') return { rule: 'LA-NET-01', msg: `URL ${JSON.stringify(raw)} has no host` };
  switch (m[1].toLowerCase()) {
    case 'https': return null;
    case 'http': return LOOPBACK(host) ? null : { rule: 'LA-NET-03', msg: `URL ${JSON.stringify(raw)} uses plain http to a host that is not loopback` };
    default: return { rule: 'LA-NET-01', msg: `URL ${JSON.stringify(raw)} must use https` };
  }
}

const RESERVED_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'accept', 'content-type',
  'content-length', 'transfer-encoding', 'connection', 'host'];

function checkHeaders(headers) {
  for (const name of Object.keys(headers).sort()) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return { rule: 'LA-NET-06', msg: `header name ${JSON.stringify(name)} is not valid` };
    if (RESERVED_HEADERS.includes(name.toLowerCase())) return { rule: 'LA-NET-06', msg: `header ${JSON.stringify(name)} is reserved for the MCP transport` };
    if (/[\x00-\x08\x0a-\x1f\x7f]/.test(headers[name])) return { rule: 'LA-NET-06', msg: `header ${JSON.stringify(name)} has a control character` };
  }
  return null;
}

/** Reads one mcps.json; a missing file declares nothing. */
function readConfigFile(file) {
  let fd;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return [];
    throw fail('config', 'LA-CFG-10', `${file}: cannot open the configuration file: ${e.message}`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw fail('config', 'LA-CFG-10', `${file}: is not a regular file`);
    const buf = Buffer.alloc(MAX_CONFIG_FILE_BYTES + 1);
    let n = 0, r;
    while (n < buf.length && (r = fs.readSync(fd, buf, n, buf.length - n, null)) > 0) n += r;
    if (n > MAX_CONFIG_FILE_BYTES)
      throw fail('limit', 'LA-LIM-05', `${file}: the file has ${Math.max(st.size, n)} bytes; at most ${MAX_CONFIG_FILE_BYTES} (256 KiB)`);
    let doc;
    try {
      doc = JSON.parse(buf.subarray(0, n).toString('utf8'));
    } catch (e) {
      throw fail('config', 'LA-CFG-10', `${file}: invalid JSON: ${e.message}`);
    }
    if (!isObject(doc)) throw cfgErr('LA-CFG-10', file, '', `the document must be a JSON object, not ${jsonType(doc)}`);
    const out = [];
    for (const [k, v] of Object.entries(doc)) {
      if (k !== 'mcpServers') throw cfgErr('LA-CFG-04', file, k, `unknown key ${JSON.stringify(k)}; servers are declared under "mcpServers"`);
      out.push(...decodeServers(v, file, 'mcpServers'));
    }
    return out;
  } finally {
    fs.closeSync(fd);
  }
}

/** The entry with defaults made explicit, for LA-REG-03 deduplication. */
function normalized(c) {
  const sortObj = (o) => Object.fromEntries(Object.entries(o || {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify([transportOf(c), c.command || '', c.args || [], sortObj(c.env), c.url || '', sortObj(c.headers), c.timeoutMs || DEFAULT_TIMEOUT_MS]);
}

/** What an entry runs or contacts, without credentials (never env or headers). */
function target(c) {
  if (transportOf(c) === 'http') {
    try { const u = new URL(c.url); u.username = ''; u.password = ''; u.search = ''; return u.toString(); } catch { return ''; }
  }
  return [c.command, ...(c.args || [])].join(' ');
}

// ---------------------------------------------------------------- permission

function glob(pattern, name) {
  const re = new RegExp('^' + pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$', 's');
  return re.test(name);
}

/** deny > ask > allow > ask (reference Policy.decide). */
function decide(policy, name) {
  if (!policy) return 'ask';
  const any = (list) => (list || []).some((p) => glob(p, name));
  if (any(policy.deny)) return 'deny';
  if (any(policy.ask)) return 'ask';
  if (any(policy.allow)) return 'allow';
  return 'ask';
}

// ---------------------------------------------------------------- MCP client

class RpcError extends Error {
  constructor(e) {
    super(`JSON-RPC error ${e.code}: ${e.message}`);
    this.code = e.code;
    this.rpcMessage = e.message;
    this.data = e.data;
  }
}

const META = {
  'io.modelcontextprotocol/protocolVersion': MCP_PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  // No roots, sampling or elicitation (LA-TRN-08).
  'io.modelcontextprotocol/clientCapabilities': {},
};
/** Every 2026-07-28 request carries the _meta triple (SEP-2575). */
const withMeta = (params) => ({ ...params, _meta: { ...(params._meta || {}), ...META } });

/** A stdio MCP server: newline-delimited JSON-RPC on its stdin/stdout. */
class StdioConnection {
  constructor(alias, cfg, workdir, environ) {
    this.alias = alias;
    this.nextId = 1;
    this.pending = new Map();
    this.broken = null;
    const env = {};
    for (const k of CHILD_ENV) if (environ[k]) env[k] = environ[k];
    Object.assign(env, cfg.env || {});
    this.child = spawn(cfg.command, cfg.args || [], { cwd: workdir, env, stdio: ['pipe', 'pipe', 'ignore'] });
    this.exited = new Promise((resolve) => this.child.once('close', resolve));
    this.child.once('error', (e) => this.breakWith(fail('transport', 'LA-TRN-03', `${alias}: cannot start the stdio server: ${e.message}`)));
    this.child.once('exit', (code, sig) => this.breakWith(fail('transport', 'LA-TRN-03', `${alias}: the server exited (${sig || 'code ' + code})`)));
    this.child.stdin.on('error', () => {});
    let buf = Buffer.alloc(0);
    this.child.stdout.on('data', (chunk) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      let i;
      while ((i = buf.indexOf(10)) >= 0) {
        const line = buf.subarray(0, i);
        buf = buf.subarray(i + 1);
        if (line.length > MAX_MESSAGE_BYTES) return this.overflow(line.length);
        this.receive(line.toString('utf8'));
      }
      if (buf.length > MAX_MESSAGE_BYTES) this.overflow(buf.length);
    });
  }

  overflow(n) {
    this.breakWith(fail('limit', 'LA-LIM-06', `${this.alias}: a stdio message exceeds ${MAX_MESSAGE_BYTES} bytes (${n}+)`));
    this.child.kill('SIGKILL');
  }

  breakWith(err) {
    if (!this.broken) this.broken = err;
    for (const p of this.pending.values()) p.reject(this.broken);
    this.pending.clear();
  }

  receive(line) {
    let msg;
    try { msg = JSON.parse(line); } catch { return; } // not JSON-RPC: ignored, like stray output
    if (msg.method !== undefined) {
      if (msg.id === undefined || msg.id === null) return; // notifications: progress, list_changed...
      // Server→client requests: only ping is answered; no sampling, roots or elicitation.
      if (msg.method === 'ping') this.write({ jsonrpc: '2.0', id: msg.id, result: {} });
      else this.write({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `${msg.method} is not supported` } });
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.error) p.reject(new RpcError(msg.error));
    else p.resolve(msg.result ?? {});
  }

  write(msg) {
    if (this.child.stdin.writable) this.child.stdin.write(JSON.stringify(msg) + '\n');
  }

  request(method, params, signal) {
    if (this.broken) return Promise.reject(this.broken);
    if (signal.aborted) return Promise.reject(signal.reason);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        this.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled by the host' } });
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const done = (f) => (v) => { signal.removeEventListener('abort', onAbort); f(v); };
      this.pending.set(id, { resolve: done(resolve), reject: done(reject) });
      this.write({ jsonrpc: '2.0', id, method, params: withMeta(params) });
    });
  }

  /** Closes stdin, then SIGTERM, then SIGKILL (2 s apart); resolves once reaped. */
  async close() {
    this.breakWith(fail('transport', 'LA-TRN-03', `${this.alias}: the connection is closed`));
    if (this.child.exitCode !== null || this.child.signalCode !== null || this.child.pid === undefined) return;
    const within = (ms) => Promise.race([this.exited.then(() => true), new Promise((r) => setTimeout(r, ms, false)).then((x) => x)]);
    this.child.stdin.end();
    if (await within(2000)) return;
    this.child.kill('SIGTERM');
    if (await within(2000)) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  killNow() {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** A stateless Streamable HTTP server: one POST per JSON-RPC message. */
class HttpConnection {
  constructor(alias, cfg) {
    this.alias = alias;
    this.cfg = cfg;
    this.nextId = 1;
  }

  headers(method, params) {
    const h = { ...(this.cfg.headers || {}) };
    h['Content-Type'] = 'application/json';
    h['Accept'] = 'application/json, text/event-stream';
    // go-sdk's stateless handler requires these on 2026-07-28 requests and
    // checks them against the body (-32020 "header mismatch" otherwise).
    h['Mcp-Protocol-Version'] = MCP_PROTOCOL_VERSION;
    h['Mcp-Method'] = method;
    if (method === 'tools/call') h['Mcp-Name'] = params.name;
    return h;
  }

  async post(msg, signal) {
    let res;
    try {
      res = await fetch(this.cfg.url, { method: 'POST', headers: this.headers(msg.method, msg.params || {}), body: JSON.stringify(msg), redirect: 'manual', signal });
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      throw fail('transport', 'LA-TRN-03', `${this.alias}: cannot reach ${target(this.cfg)}: ${e.cause?.message || e.message}`);
    }
    if (res.status >= 300 && res.status < 400) {
      res.body?.cancel().catch(() => {});
      throw fail('security', 'LA-NET-07', `${this.alias}: the server answered ${res.status} redirecting to ${JSON.stringify(res.headers.get('location'))}; redirects are refused`);
    }
    return res;
  }

  /** Reads at most MAX_MESSAGE_BYTES of the body, calling onChunk as it comes. */
  async read(res, signal, onChunk) {
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let total = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        total += value.length;
        if (total > MAX_MESSAGE_BYTES) throw fail('limit', 'LA-LIM-07', `${this.alias}: the HTTP response exceeds ${MAX_MESSAGE_BYTES} bytes`);
        if (onChunk(dec.decode(value, { stream: true }))) return;
      }
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      if (e instanceof LiteAgentError) throw e;
      throw fail('transport', 'LA-TRN-03', `${this.alias}: reading the response failed: ${e.message}`);
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  async request(method, params, signal) {
    if (signal.aborted) throw signal.reason;
    const id = this.nextId++;
    const msg = { jsonrpc: '2.0', id, method, params: withMeta(params) };
    const onAbort = () => this.notify('notifications/cancelled', { requestId: id, reason: 'cancelled by the host' });
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const res = await this.post(msg, signal);
      const type = (res.headers.get('content-type') || '').split(';')[0].trim().toLowerCase();
      let answer;
      const take = (text) => {
        let m;
        try { m = JSON.parse(text); } catch { return false; }
        if (m && m.id === id && m.method === undefined) { answer = m; return true; }
        return false; // notifications and server requests on the stream are ignored
      };
      if (type === 'text/event-stream') {
        let buf = '', data = [];
        await this.read(res, signal, (s) => {
          buf += s;
          let i;
          while ((i = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, i).replace(/\r$/, '');
            buf = buf.slice(i + 1);
            if (line === '') {
              if (data.length && take(data.join('\n'))) return true;
              data = [];
            } else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          return false;
        });
        if (!answer && data.length) take(data.join('\n'));
      } else {
        let body = '';
        await this.read(res, signal, (s) => { body += s; return false; });
        if (body.trim() !== '') take(body);
      }
      if (answer) {
        if (answer.error) throw new RpcError(answer.error);
        return answer.result ?? {};
      }
      if (res.status === 401 || res.status === 403) throw fail('auth', 'LA-OAU-01', `${this.alias}: the server answered HTTP ${res.status}`);
      throw fail('transport', 'LA-TRN-03', `${this.alias}: HTTP ${res.status} without an answer to ${method}`);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  notify(method, params) {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 2000).unref();
    this.post({ jsonrpc: '2.0', method, params }, ac.signal).then((r) => r.body?.cancel(), () => {});
  }

  async close() {} // stateless: no session to delete
  killNow() {}
}

// ---------------------------------------------------------------- agent

/**
 * createLiteAgent builds an agent: it reads and validates the global file,
 * the project file and the mcpServers option, and starts nothing.
 *
 * host: { environ, model(request, signal), approve(request, signal) | null, event(event) }
 */
export function createLiteAgent(options, host) {
  return new LiteAgent(options, host);
}

class LiteAgent {
  constructor(options, host) {
    this.options = options;
    this.host = host;
    this.environ = host.environ || process.env;
    this.workdir = options.workdir || process.cwd();
    this.closed = false;
    this.active = null; // { what, controller, idle: Promise }
    this.closing = new AbortController();
    this.servers = loadConfig(options, this.workdir, this.environ);
    this.mcp = {
      register: (name, entry, opts) => this.register(name, entry, opts?.signal),
      list: () => this.list(),
    };
  }

  /** Starts an activity; the agent does one thing at a time (LA-REG-15). */
  begin(what, signal) {
    if (this.closed) throw fail('closed', 'LA-REG-21', 'the agent is closed');
    if (this.active) throw fail('busy', 'LA-REG-15', `the agent is busy with ${this.active.what}`);
    let end;
    const idle = new Promise((r) => (end = r));
    const sig = AbortSignal.any([signal || new AbortController().signal, this.closing.signal]);
    this.active = { what, idle };
    return { signal: sig, done: () => { this.active = null; end(); } };
  }

  async authorize(name, req, signal) {
    const rule = name === 'mcp_connect' ? 'LA-SEC-02' : 'LA-SEC-03';
    const verdict = decide(this.options.permission, name);
    if (verdict === 'deny') throw fail('permission', rule, `${name} is denied by the permission policy`);
    if (verdict === 'allow') return;
    if (!this.host.approve) throw fail('permission', 'LA-SEC-06', `${name} needs approval and the host has no approval handler`);
    let decision;
    try {
      decision = await this.host.approve(req, signal);
    } catch (e) {
      if (signal.aborted) throw abortError(signal, `waiting for approval of ${name}`);
      throw fail('permission', 'LA-SEC-07', `the approval handler failed for ${name}, which counts as deny: ${e.message}`);
    }
    if (signal.aborted) throw abortError(signal, `waiting for approval of ${name}`);
    if (decision !== 'allow') throw fail('permission', rule, `${name} was denied (${JSON.stringify(decision)})`);
  }

  /** Approves, connects and discovers one server; nothing stays open on failure. */
  async connect(s, signal) {
    const c = s.cfg;
    const raw = { capability: 'mcp_connect', server: s.name, transport: transportOf(c) };
    if (transportOf(c) === 'stdio') Object.assign(raw, { command: c.command, args: c.args });
    else raw.url = target(c);
    await this.authorize('mcp_connect', { name: 'mcp_connect', server: s.name, raw }, signal);
    const timeout = c.timeoutMs || DEFAULT_TIMEOUT_MS;
    const d = deadline(signal, timeout, `connecting ${s.name}`);
    let conn;
    try {
      conn = transportOf(c) === 'stdio'
        ? new StdioConnection(s.name, c, this.workdir, this.environ)
        : new HttpConnection(s.name, c);
      conn.timeout = timeout;
      conn.tools = await discover(conn, s.name, d.signal);
      return conn;
    } catch (e) {
      if (conn) await conn.close();
      if (d.signal.aborted) throw abortError(d.signal, `connecting ${s.name}`);
      if (e instanceof RpcError) throw fail('transport', 'LA-TRN-03', `${s.name}: ${e.message}`);
      if (e instanceof LiteAgentError) throw e;
      throw fail('internal', '', `${s.name}: ${e.message}`);
    } finally {
      d.clear();
    }
  }

  /** Adds a discovered connection, checking it against the others (LA-NAME-09, LA-LIM-04). */
  async commit(s, conn, insert) {
    const taken = new Map();
    let size = conn.tools.reduce((n, t) => n + t.size, 0);
    for (const o of this.servers) {
      if (o === s || !o.conn) continue;
      for (const t of o.conn.tools) taken.set(t.full, o.name);
      size += o.conn.tools.reduce((n, t) => n + t.size, 0);
    }
    let err = null;
    if (insert && this.servers.some((o) => o.name === s.name)) err = fail('conflict', 'LA-REG-05', `server ${JSON.stringify(s.name)} was registered meanwhile`);
    for (const t of conn.tools) {
      if (!err && taken.has(t.full)) err = fail('name', 'LA-NAME-09', `tool ${JSON.stringify(t.raw)} of ${s.name} has the full name ${t.full}, already taken by server ${JSON.stringify(taken.get(t.full))}`);
    }
    if (!err && size > MAX_CATALOG_BYTES) err = fail('limit', 'LA-LIM-04', `with server ${JSON.stringify(s.name)} the tool catalog would be ${size} bytes; at most ${MAX_CATALOG_BYTES}`);
    if (err) { await conn.close(); throw err; }
    s.conn = conn;
    s.status = 'connected';
    s.error = undefined;
    if (insert) this.servers.push(s);
  }

  /** agent.mcp.register(): validate, approve, connect, discover, add atomically. */
  async register(name, entry, signal) {
    const act = this.begin('register', signal);
    try {
      const cfg = decodeEntry(entry, 'register', 'entry');
      validateServer(name, cfg, 'register', 'entry');
      const i = this.servers.findIndex((s) => s.name === name);
      if (i >= 0) throw fail('conflict', 'LA-REG-05', `server ${JSON.stringify(name)} is already registered (from ${this.servers[i].where}); unregister it first`);
      if (this.servers.length >= MAX_SERVERS) throw fail('limit', 'LA-LIM-01', `the registry already holds ${MAX_SERVERS} servers`);
      const s = { name, cfg, source: 'instance', where: 'register', status: 'configured' };
      const conn = await this.connect(s, act.signal);
      await this.commit(s, conn, true);
    } finally {
      act.done();
    }
  }

  /** agent.mcp.list(): local state only, never credentials, no I/O. */
  list() {
    return this.servers.map((s) => ({
      name: s.name, source: s.source, status: s.status, transport: transportOf(s.cfg), target: target(s.cfg),
      tools: s.conn ? s.conn.tools.map((t) => t.full) : [],
      ...(s.error ? { error: s.error } : {}),
    }));
  }

  /** agent.send(): connect what is pending, then run the model loop. */
  async send(prompt, signal) {
    const act = this.begin('a run', signal);
    try {
      const failures = [];
      for (const s of this.servers) {
        if (s.status === 'connected') continue;
        try {
          await this.commit(s, await this.connect(s, act.signal), false);
        } catch (e) {
          s.status = 'failed';
          s.error = e.message;
          failures.push(e);
          this.host.event?.({ type: 'error', server: s.name, data: { kind: e.kind, rule: e.rule, message: e.message } });
        }
        if (act.signal.aborted) throw abortError(act.signal, 'the run');
      }
      if (failures.length) {
        const first = failures[0];
        if (failures.length > 1) first.message += ` (and ${failures.length - 1} more: ${failures.slice(1).map((e) => e.message).join('; ')})`;
        throw first;
      }
      let tools = this.servers.filter((s) => s.conn).flatMap((s) => s.conn.tools);
      if (Array.isArray(this.options.allowedTools)) tools = tools.filter((t) => this.options.allowedTools.includes(t.full));
      const specs = tools.map((t) => t.spec);
      const messages = [{ role: 'user', text: prompt }];
      for (let turn = 0; turn < MAX_TURNS; turn++) {
        let resp;
        try {
          resp = await this.host.model({ system: SYSTEM_PROMPT, messages: structuredClone(messages), tools: specs }, act.signal);
        } catch (e) {
          if (act.signal.aborted) throw abortError(act.signal, 'the run');
          throw fail('internal', '', `the model failed: ${e.message}`);
        }
        const calls = Array.isArray(resp?.toolCalls) ? resp.toolCalls : [];
        if (calls.length === 0) return { text: resp?.text ?? '' };
        messages.push({ role: 'assistant', ...(resp.text ? { text: resp.text } : {}), toolCalls: calls });
        for (const call of calls) {
          const { text, isError } = await this.runTool(tools, call, act.signal);
          if (act.signal.aborted) throw abortError(act.signal, 'the run');
          messages.push({ role: 'tool', toolCallId: call.id, text, ...(isError ? { isError } : {}) });
        }
      }
      throw fail('limit', '', `the run exceeded ${MAX_TURNS} model turns`);
    } finally {
      act.done();
    }
  }

  /** Runs one tool call; every failure becomes a tool error and the run goes on. */
  async runTool(tools, call, signal) {
    const t = tools.find((x) => x.full === call.name);
    if (!t) return { text: `tool ${JSON.stringify(call.name)} is not available`, isError: true };
    const args = call.arguments ?? {};
    try {
      await this.authorize(t.full, { name: t.full, server: t.server, input: args, raw: { capability: t.full, server: t.server, tool: t.raw, input: args } }, signal);
    } catch (e) {
      return { text: e.message, isError: true };
    }
    if (!isObject(args)) return { text: `LA-VAL-01: the arguments of ${t.full} must be a JSON object`, isError: true };
    this.host.event?.({ type: 'tool:start', name: t.full, server: t.server });
    const d = deadline(signal, t.conn.timeout, `the call of ${t.full}`);
    try {
      const res = await t.conn.request('tools/call', { name: t.raw, arguments: args }, d.signal);
      const out = project(res);
      this.host.event?.({ type: 'tool:end', name: t.full, server: t.server, data: { isError: out.isError } });
      return out;
    } catch (e) {
      const why = d.signal.aborted ? abortError(d.signal, `the call of ${t.full}`).message : e.message;
      this.host.event?.({ type: 'tool:end', name: t.full, server: t.server, data: { isError: true } });
      return { text: `the call of ${t.full} failed (its outcome is unknown and it is not retried): ${why}`, isError: true };
    } finally {
      d.clear();
    }
  }

  /** agent.close(): cancel active work, wait for it, reclaim every process. */
  async close() {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort(fail('closed', 'LA-REG-21', 'the agent was closed'));
    if (this.active) await this.active.idle;
    const conns = this.servers.filter((s) => s.conn).map((s) => s.conn);
    for (const s of this.servers) s.conn = undefined;
    await Promise.all(conns.map((c) => c.close()));
  }

  /** Kills every child at once, for an adapter that must exit now. */
  killNow() {
    for (const s of this.servers) s.conn?.killNow();
  }
}

/** Reads and merges the configuration (reference loadConfig and merge). */
function loadConfig(options, workdir, environ) {
  const declared = [];
  const add = (source, where, list) => { for (const ns of list) declared.push({ ...ns, source, where, status: 'configured' }); };
  if (!options.strictMcpConfig) {
    const home = options.home || (environ.HOME ? path.join(environ.HOME, '.lite-agent') : '');
    if (home) { const f = path.join(home, 'mcps.json'); add('global', f, readConfigFile(f)); }
    const f = path.join(workdir, '.lite-agent', 'mcps.json');
    add('project', f, readConfigFile(f));
  }
  if (options.mcpServers !== undefined) add('option', 'mcpServers option', decodeServers(options.mcpServers, 'mcpServers option', 'mcpServers'));
  for (const s of declared) validateServer(s.name, s.cfg, s.where, `mcpServers.${s.name}`);
  const merged = [];
  for (const s of declared) {
    const prev = merged.find((m) => m.name === s.name);
    if (!prev) { merged.push(s); continue; }
    if (normalized(prev.cfg) !== normalized(s.cfg))
      throw fail('conflict', 'LA-REG-04', `${s.where}: mcpServers.${s.name}: server ${JSON.stringify(s.name)} is already declared differently in ${prev.where}`);
  }
  if (merged.length > MAX_SERVERS) throw fail('limit', 'LA-LIM-01', `${merged.length} servers are declared; at most ${MAX_SERVERS} are allowed`);
  return merged;
}

/** server/discover, then tools/list page by page, validating everything. */
async function discover(conn, alias, signal) {
  let res;
  try {
    res = await conn.request('server/discover', {}, signal);
  } catch (e) {
    if (e instanceof RpcError) {
      // -32022 unsupported protocol version (go-sdk), -32601 (a server without server/discover).
      throw fail('protocol', 'LA-TRN-02', `${alias}: the server does not speak MCP ${MCP_PROTOCOL_VERSION} (server/discover failed with ${e.code} ${JSON.stringify(e.rpcMessage)}); no fallback`);
    }
    throw e;
  }
  const versions = Array.isArray(res.supportedVersions) ? res.supportedVersions : [];
  if (!versions.includes(MCP_PROTOCOL_VERSION))
    throw fail('protocol', 'LA-TRN-02', `${alias}: the server supports ${JSON.stringify(versions)}, not ${MCP_PROTOCOL_VERSION}`);
  const tools = [];
  const seen = new Set();
  let cursor;
  for (let page = 1; ; page++) {
    let r;
    try {
      r = await conn.request('tools/list', cursor === undefined ? {} : { cursor }, signal);
    } catch (e) {
      if (e instanceof RpcError) throw fail('transport', 'LA-TRN-03', `${alias}: tools/list page ${page}: ${e.message}`);
      throw e;
    }
    if (!Array.isArray(r.tools)) throw fail('validation', 'LA-NAME-07', `${alias}: tools/list page ${page} has no tools array`);
    for (const mt of r.tools) {
      if (!isObject(mt) || typeof mt.name !== 'string') throw fail('validation', 'LA-NAME-07', `${alias}: tools/list page ${page} holds a malformed tool`);
      const full = toolName(alias, mt.name);
      const bad = validateToolName(full, mt.name);
      if (bad) { bad.message = `${bad.rule}: ${alias}: ${bad.message.slice(bad.rule.length + 2)}`; throw bad; }
      if (seen.has(mt.name)) throw fail('name', 'LA-NAME-08', `${alias}: the server offers tool ${JSON.stringify(mt.name)} twice`);
      seen.add(mt.name);
      if (!isObject(mt.inputSchema) || mt.inputSchema.type !== 'object')
        throw fail('validation', 'LA-VAL-02', `${alias}: tool ${JSON.stringify(mt.name)} has an invalid input schema (its root must have "type": "object")`);
      const spec = { name: full, ...(mt.description ? { description: mt.description } : {}), inputSchema: mt.inputSchema };
      tools.push({ server: alias, raw: mt.name, full, spec, size: Buffer.byteLength(JSON.stringify(spec)), conn });
      if (tools.length > MAX_TOOLS) throw fail('limit', 'LA-LIM-02', `${alias}: the server offers more than ${MAX_TOOLS} tools`);
    }
    if (!r.nextCursor) break;
    if (page >= MAX_PAGES) throw fail('limit', 'LA-LIM-03', `${alias}: the server still has more tools after ${page} pages of tools/list; at most ${MAX_PAGES} are read`);
    cursor = r.nextCursor;
  }
  for (const t of tools) t.conn = conn;
  return tools;
}

/** The tool result as the model sees it (reference project). */
function project(res) {
  const content = [];
  for (const c of Array.isArray(res.content) ? res.content : []) {
    if (c?.type === 'text') content.push({ type: 'text', text: c.text });
    else if (c?.type === 'resource_link') content.push({ type: 'resource_link', uri: c.uri, name: c.name });
  }
  const p = { content };
  if (res.structuredContent !== undefined) p.structuredContent = res.structuredContent;
  if (res.isError) p.isError = true;
  const text = JSON.stringify(p);
  if (Buffer.byteLength(text) > MAX_MESSAGE_BYTES) return { text: `LA-LIM-08: the tool result projection exceeds ${MAX_MESSAGE_BYTES} bytes`, isError: true };
  return { text, isError: !!res.isError };
}
