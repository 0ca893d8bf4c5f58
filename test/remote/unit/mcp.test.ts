import { describe, expect, it } from 'vitest';
import type { WireStepResult } from '../../../src/remote/index.js';
import { handleJsonRpc, MCP_PROTOCOL_VERSION, type McpTarget } from '../../../src/remote/server/mcp.js';

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
