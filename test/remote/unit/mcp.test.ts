import { describe, expect, it } from 'vitest';
import type { WireStepResult } from '../../../src/remote/index.js';
import { handleJsonRpc, MCP_PROTOCOL_VERSION, type McpSessions, type McpTarget } from '../../../src/remote/server/mcp.js';

const step: WireStepResult = { observation: { ok: true }, reward: 0.1, done: false, terminated: false, truncated: false, info: { error_type: 'sql_error' } };
const target: McpTarget = {
  tools: () => [{ name: 'query', description: 'd', input_schema: { type: 'object' } }],
  callTool: async () => step,
};

describe('handleJsonRpc', () => {
  it('answers initialize, tools/list and tools/call (isError from info.error_type)', async () => {
    expect(await handleJsonRpc({ jsonrpc: '2.0', id: 1, method: 'initialize' }, target, 'X')).toMatchObject({
      result: { protocolVersion: MCP_PROTOCOL_VERSION, serverInfo: { name: 'X' } },
    });
    expect(await handleJsonRpc({ jsonrpc: '2.0', id: 'a', method: 'tools/list' }, target, 'X')).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      result: { tools: [{ name: 'query', description: 'd', inputSchema: { type: 'object' } }] },
    });
    expect(await handleJsonRpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'query', arguments: {} } }, target, 'X')).toMatchObject({
      result: { isError: true, structuredContent: step, content: [{ type: 'text', text: '{"ok":true}' }] },
    });
  });

  it('gives no answer to notifications and JSON-RPC error codes to bad requests', async () => {
    expect(await handleJsonRpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, target, 'X')).toBeUndefined();
    expect(await handleJsonRpc([], target, 'X')).toMatchObject({ error: { code: -32600 } });
    expect(await handleJsonRpc({ jsonrpc: '1.0', id: 1, method: 'x' }, target, 'X')).toMatchObject({ error: { code: -32600 } });
    expect(await handleJsonRpc({ jsonrpc: '2.0', id: 1, method: 'x' }, target, 'X')).toMatchObject({ error: { code: -32601 } });
    expect(await handleJsonRpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }, target, 'X')).toMatchObject({ error: { code: -32602 } });
  });
});

describe('openenv/session/* and params.session_id', () => {
  const open = new Map<string, McpTarget>();
  const calls: string[] = [];
  const sessions: McpSessions = {
    create: async () => {
      const id = `s${open.size + 1}`;
      open.set(id, { tools: () => [{ name: `tool_of_${id}`, description: '', input_schema: {} }], callTool: async (name) => (calls.push(`${id}:${name}`), step) });
      return { session_id: id };
    },
    close: async (id) => open.delete(id),
    target: (id) => open.get(id),
  };
  const rpc = (method: string, params?: Record<string, unknown>) => handleJsonRpc({ jsonrpc: '2.0', id: 7, method, params }, target, 'X', sessions);

  it('creates, routes to and closes sessions; unknown, missing or closed ids are INVALID_PARAMS', async () => {
    expect(await rpc('openenv/session/create', {})).toEqual({ jsonrpc: '2.0', id: 7, result: { session_id: 's1' } });
    expect(await rpc('tools/list', { session_id: 's1' })).toMatchObject({ result: { tools: [{ name: 'tool_of_s1' }] } });
    expect(await rpc('tools/call', { name: 'tool_of_s1', arguments: {}, session_id: 's1' })).toMatchObject({ result: { structuredContent: step } });
    expect(calls).toEqual(['s1:tool_of_s1']);
    expect(await rpc('openenv/session/close', { session_id: 's1' })).toEqual({ jsonrpc: '2.0', id: 7, result: { session_id: 's1', closed: true } });
    expect(await rpc('openenv/session/close', { session_id: 's1' })).toMatchObject({ error: { code: -32602 } });
    expect(await rpc('tools/call', { name: 'tool_of_s1', arguments: {}, session_id: 's1' })).toMatchObject({ error: { code: -32602 } });
    expect(await rpc('openenv/session/close', {})).toMatchObject({ error: { code: -32602, message: expect.stringContaining('session_id') } });
    expect(await rpc('tools/list', { session_id: 42 })).toMatchObject({ error: { code: -32602 } });
  });

  it('answers METHOD_NOT_FOUND for session methods where no sessions are offered', async () => {
    expect(await handleJsonRpc({ jsonrpc: '2.0', id: 1, method: 'openenv/session/create' }, target, 'X')).toMatchObject({ error: { code: -32601 } });
  });
});
