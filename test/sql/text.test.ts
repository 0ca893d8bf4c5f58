import { describe, expect, it } from 'vitest';
import { extractToolCalls, parseTolerantJson } from '../../src/text/index.js';

describe('parseTolerantJson', () => {
  it('parses strict JSON with no repairs', () => {
    expect(parseTolerantJson('{"a": [1, 2, {"b": null}]}')).toEqual({ ok: true, value: { a: [1, 2, { b: null }] }, repairs: [] });
    expect(parseTolerantJson('42')).toEqual({ ok: true, value: 42, repairs: [] });
  });

  it.each([
    ['{"a": 1,}', { a: 1 }, 'trailing comma'],
    ["{'a': 'x'}", { a: 'x' }, 'single-quoted string'],
    ['{a: 1}', { a: 1 }, 'unquoted key'],
    ['{"a": {"b": [1, 2', { a: { b: [1, 2] } }, 'closed unclosed array'],
    ['```json\n{"a": 1}\n```', { a: 1 }, 'removed code fence'],
    ['{"a": None, "b": True}', { a: null, b: true }, 'literal None'],
    ['Sure! {"a": 1}', { a: 1 }, 'ignored text before JSON'],
    ['{"a": 1}}', { a: 1 }, 'ignored text after JSON'],
    ['{"a": 1 "b": 2}', { a: 1, b: 2 }, 'inserted missing comma'],
    ['{"a": "x // y", /* c */ "b": 2}', { a: 'x // y', b: 2 }, 'removed comment'],
    ['{"a": "unclosed', { a: 'unclosed' }, 'closed unclosed string'],
  ])('repairs %j', (text, value, repair) => {
    const result = parseTolerantJson(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual(value);
    expect(result.repairs).toContain(repair);
  });

  it('fails with a message on text that holds no JSON', () => {
    const result = parseTolerantJson('describe the singer table');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/no JSON/);
    expect(parseTolerantJson('').ok).toBe(false);
    expect(parseTolerantJson('{"a": }').ok).toBe(false);
  });

  it('refuses adversarial nesting instead of overflowing the stack', () => {
    const result = parseTolerantJson('['.repeat(100_000));
    expect(result.ok).toBe(false);
  });
});

describe('extractToolCalls', () => {
  it('reads several blocks in order', () => {
    const text = 'thinking...<tool_call>{"name": "describe", "arguments": {"table_name": "singer"}}</tool_call>\n<tool_call>\n{"name": "query", "arguments": {"sql": "SELECT 1"}}\n</tool_call>';
    const calls = extractToolCalls(text);
    expect(calls.map((c) => c.call)).toEqual([
      { name: 'describe', arguments: { table_name: 'singer' } },
      { name: 'query', arguments: { sql: 'SELECT 1' } },
    ]);
  });

  it('tolerates an unclosed last block and repairs its JSON', () => {
    const calls = extractToolCalls('<tool_call>{"name": "answer", "arguments": {"value": 6}');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.call).toEqual({ name: 'answer', arguments: { value: 6 } });
    expect(calls[0]!.repairs).toContain('closed unclosed object');
  });

  it('decodes arguments given as a JSON string and accepts "parameters"', () => {
    expect(extractToolCalls('<tool_call>{"name": "q", "arguments": "{\\"sql\\": \\"SELECT 1\\"}"}</tool_call>')[0]!.call).toEqual({
      name: 'q',
      arguments: { sql: 'SELECT 1' },
    });
    expect(extractToolCalls('<tool_call>{"name": "q", "parameters": {"x": 1}}</tool_call>')[0]!.call).toEqual({ name: 'q', arguments: { x: 1 } });
  });

  it('reports blocks that are not calls as parse errors', () => {
    const [notJson, noName] = extractToolCalls('<tool_call>hello</tool_call><tool_call>{"arguments": {}}</tool_call>');
    expect(notJson!.error?.type).toBe('parse_error');
    expect(noName!.error?.message).toMatch(/"name"/);
    expect(extractToolCalls('no calls here')).toEqual([]);
  });
});

describe('parseTolerantJson: hostile keys', () => {
  it('reads "__proto__" as an ordinary key, as JSON.parse does, without touching the prototype', () => {
    const parsed = parseTolerantJson("{'__proto__': {'table_name': 'singer'}}");
    expect(parsed.ok).toBe(true);
    const value = (parsed as { value: Record<string, unknown> }).value;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { table_name?: string }).table_name).toBeUndefined();
  });
});
