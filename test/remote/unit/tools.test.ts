import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/remote/index.js';
import { parseMcpAction, toolsOf } from '../../../src/remote/server/tools.js';
import { Discrete, ToolCallSpace } from '../../../src/gym/spaces/index.js';

describe('toolsOf', () => {
  it('lists a ToolCallSpace\'s tools with input_schema, and none for other spaces', () => {
    const space = new ToolCallSpace([{ name: 'query', description: 'Run SQL', parameters: { type: 'object', properties: { sql: { type: 'string' } } } }]);
    expect(toolsOf(space)).toEqual([{ name: 'query', description: 'Run SQL', input_schema: { type: 'object', properties: { sql: { type: 'string' } } } }]);
    expect(toolsOf(new Discrete(3))).toEqual([]);
  });
});

describe('parseMcpAction', () => {
  it('recognises list_tools and call_tool and leaves other actions alone', () => {
    expect(parseMcpAction({ type: 'list_tools' })).toEqual({ kind: 'list_tools' });
    expect(parseMcpAction({ type: 'call_tool', tool_name: 'query', arguments: { sql: 'SELECT 1' } })).toEqual({
      kind: 'call_tool',
      toolName: 'query',
      arguments: { sql: 'SELECT 1' },
    });
    expect(parseMcpAction({ type: 'call_tool', tool_name: 'x' })).toMatchObject({ arguments: {} });
    expect(parseMcpAction({ name: 'query', arguments: {} })).toBeUndefined();
    expect(parseMcpAction(3)).toBeUndefined();
  });

  it('rejects reserved names, missing names and non-object arguments with VALIDATION_ERROR', () => {
    for (const bad of [{ type: 'call_tool', tool_name: 'reset' }, { type: 'call_tool' }, { type: 'call_tool', tool_name: 'q', arguments: [1] }]) {
      let error: unknown;
      try {
        parseMcpAction(bad);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe('VALIDATION_ERROR');
      expect((error as ProtocolError).details.length).toBe(1);
    }
  });
});
