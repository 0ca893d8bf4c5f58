import { describe, expect, it } from 'vitest';
import { parseAssistantReply } from '../../src/lm/index.js';

describe('parseAssistantReply', () => {
  it('reads several calls per turn and keeps surrounding text as content', () => {
    const r = parseAssistantReply(
      'Let me look.\n<tool_call>\n{"name": "describe", "arguments": {"table_name": "singer"}}\n</tool_call>\n<tool_call>\n{"name": "query", "arguments": {"sql": "SELECT 1"}}\n</tool_call>',
    );
    expect(r.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
      ['describe', { table_name: 'singer' }],
      ['query', { sql: 'SELECT 1' }],
    ]);
    expect(r.content).toBe('Let me look.');
    expect(r.failures).toEqual([]);
  });

  it('strips Qwen3 thinking, including a closing tag whose opening was in the prompt', () => {
    const r = parseAssistantReply('I should count rows.\n</think>\n\n<tool_call>{"name": "query", "arguments": {"sql": "SELECT count(*) FROM t"}}</tool_call>');
    expect(r.reasoning).toBe('I should count rows.');
    expect(r.toolCalls[0]?.name).toBe('query');
    const planned = parseAssistantReply('<think>maybe <tool_call>{"name": "x", "arguments": {}}</tool_call></think>done');
    expect(planned.toolCalls).toEqual([]);
    expect(planned.content).toBe('done');
    const cut = parseAssistantReply('<think>still thinking');
    expect(cut.unfinishedThinking).toBe(true);
    expect(cut.reasoning).toBe('still thinking');
  });

  it('gives the reply without its thinking (calls kept) for text-action envs', () => {
    const call = '<tool_call>{"name": "x", "arguments": {}}</tool_call>';
    expect(parseAssistantReply(`<think>plan ${call}</think>DESCRIBE singer`).withoutThinking).toBe('DESCRIBE singer');
    expect(parseAssistantReply(`plan</think>\n${call}`).withoutThinking).toBe(`\n${call}`);
    expect(parseAssistantReply(`<think>${call}`).withoutThinking).toBe('');
    expect(parseAssistantReply(' QUERY: SELECT 1 ').withoutThinking).toBe(' QUERY: SELECT 1 ');
  });

  it('repairs tolerant JSON and reports unreadable blocks as parse_error', () => {
    const r = parseAssistantReply("<tool_call>{'name': 'answer', 'arguments': {'value': 42,},}</tool_call><tool_call>not json at all");
    expect(r.toolCalls[0]).toMatchObject({ name: 'answer', arguments: { value: 42 } });
    expect(r.toolCalls[0]?.repairs.length).toBeGreaterThan(0);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]?.type).toBe('parse_error');
  });

  it('reads an unclosed last block (generation hit its token limit)', () => {
    const r = parseAssistantReply('<tool_call>\n{"name": "query", "arguments": {"sql": "SELECT name FROM singer"');
    expect(r.toolCalls[0]).toMatchObject({ name: 'query', arguments: { sql: 'SELECT name FROM singer' } });
  });
});
