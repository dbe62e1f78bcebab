#!/usr/bin/env node
// mcpconform adapter for LangChain.js agents (langchain's createAgent) whose
// MCP host layer is @langchain/mcp-adapters' MultiServerMCPClient (over
// @modelcontextprotocol/sdk 1.x). See README.md for what it maps, what it
// declares absent, and why this SDK.
//
//   mcpconform run --target 'cmd:node conformance/adapters/langchain/adapter.mjs'

import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { createAgent } from 'langchain';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { serve, installedVersion, AdapterError } from '../jsrpc/serve.mjs';

const here = new URL('.', import.meta.url).href;

// What the SDK does not offer, or the adapter does not map yet (README.md
// says which and why): their scenarios are skipped, naming the entry.
const UNIMPLEMENTED = [
  'LA-CFG', 'LA-LIM-05', 'LA-REG-01', 'LA-REG-02', 'LA-REG-03', 'LA-REG-04', 'LA-SEC-10', // lite-agent's configuration files
  'LA-SEC-01', 'LA-SEC-02', 'LA-SEC-03', 'LA-SEC-04', 'LA-SEC-05', 'LA-SEC-06', 'LA-SEC-07', 'LA-SEC-08', 'LA-SEC-09', 'LA-SEC-11', 'LA-SEC-13', 'LA-SEC-21', // approvals (humanInTheLoopMiddleware): not mapped yet
  'LA-EVT-01', 'LA-EVT-02', 'LA-EVT-03', 'LA-EVT-04', 'LA-REG-16', // progress (onProgress) and hooks (callbacks): not mapped yet
  'LA-OAU', 'LA-CC', 'LA-TOOL', 'LA-ARC',
];

// HostChatModel is a LangChain chat model whose every generation is one
// host/model call to the runner's scripted model.
class HostChatModel extends BaseChatModel {
  constructor(host) {
    super({});
    this.host = host;
  }

  _llmType() {
    return 'mcpconform-scripted';
  }

  bindTools(tools) {
    return this.withConfig({ tools: tools.map((t) => convertToOpenAITool(t)) });
  }

  async _generate(messages, options) {
    const request = {
      system: messages.filter((m) => m.getType() === 'system').map((m) => textOf(m.content)).join('\n'),
      messages: messages.filter((m) => m.getType() !== 'system').map(toHostMessage),
      tools: (options.tools ?? []).map((t) => ({ name: t.function.name, description: t.function.description, inputSchema: t.function.parameters })),
    };
    const answer = await this.host.model(request, options.signal);
    const message = new AIMessage({
      content: typeof answer?.text === 'string' ? answer.text : '',
      tool_calls: (answer?.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.arguments ?? {}, type: 'tool_call' })),
    });
    return { generations: [{ text: textOf(message.content), message }] };
  }
}

// textOf is the text of a message's content, as a provider receives it.
function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : JSON.stringify(p))).join('');
  return content === undefined ? '' : JSON.stringify(content);
}

function toHostMessage(m) {
  switch (m.getType()) {
    case 'ai': {
      const calls = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.name, arguments: c.args ?? {} }));
      return { role: 'assistant', text: textOf(m.content), ...(calls.length ? { toolCalls: calls } : {}) };
    }
    case 'tool':
      return { role: 'tool', toolCallId: m.tool_call_id, text: textOf(m.content), ...(m.status === 'error' ? { isError: true } : {}) };
    default:
      return { role: 'user', text: textOf(m.content) };
  }
}

async function createAgentFor(agentId, o, host) {
  if (o.system !== undefined && o.system !== 'lite-agent') throw new AdapterError('unsupported', `the adapter maps lite-agent agents, not ${o.system}`);
  // The SDK's own configuration: the entries go to it as they are, and it
  // validates them; the naming options are the SDK's own. The client
  // refuses to exist without servers, so an agent without any has none,
  // as an application would build it.
  const none = o.mcpServers === undefined || (typeof o.mcpServers === 'object' && o.mcpServers !== null && Object.keys(o.mcpServers).length === 0);
  const client = none ? null : new MultiServerMCPClient({
    mcpServers: o.mcpServers,
    prefixToolNameWithServerName: true,
    additionalToolNamePrefix: 'mcp',
  });
  let tools = null;
  let closed = false;
  const running = new Set();
  return {
    async send(prompt, signal) {
      if (closed) throw new AdapterError('closed', 'the agent is closed');
      tools ??= client ? await client.getTools() : [];
      const agent = createAgent({ model: new HostChatModel(host), tools });
      const ac = new AbortController();
      const abort = () => ac.abort(signal.reason);
      signal.addEventListener('abort', abort, { once: true });
      running.add(ac);
      try {
        const state = await agent.invoke({ messages: [{ role: 'user', content: prompt }] }, { signal: ac.signal });
        const last = state.messages.at(-1);
        return last ? textOf(last.content) : '';
      } finally {
        running.delete(ac);
        signal.removeEventListener('abort', abort);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const ac of running) ac.abort(new AdapterError('closed', 'the agent was closed'));
      await client?.close();
    },
  };
}

// kindOf maps the SDK's errors onto the contract's kinds, by class name:
// the SDK exports no error classes of its own.
function kindOf(e) {
  if (e?.name === 'AbortError') return 'cancelled';
  if (e?.name === 'ZodError') return 'config';
  if (e?.name === 'MCPClientError') return 'transport';
  return 'internal';
}

serve({
  name: 'langchain',
  info: {
    adapter: { name: 'mcpconform-langchain', version: '0.1.0' },
    implementation: { name: '@langchain/mcp-adapters', version: installedVersion(here, '@langchain/mcp-adapters') },
    systems: ['lite-agent'],
    capabilities: [],
    operations: ['agent/create', 'agent/send', 'agent/close'],
    unimplemented: UNIMPLEMENTED,
  },
  createAgent: createAgentFor,
  kindOf,
});
