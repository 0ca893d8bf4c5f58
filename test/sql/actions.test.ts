import { describe, expect, it } from 'vitest';
import { checkActionShape, SqlActionParser, type ParsedSqlAction } from '../../envs/sql/actions/index.js';

const context = { tables: ['singer', 'concert', 'stadium'] };
const tolerant = new SqlActionParser('tolerant');
const strict = new SqlActionParser('strict');

function callOf(result: ParsedSqlAction) {
  if (!result.ok) throw new Error(`expected a call, got ${result.error.type}: ${result.error.message}`);
  return result.call;
}

const DESCRIBE_SINGER = { name: 'describe', arguments: { table_name: 'singer' } };

describe('SqlActionParser: accepted forms', () => {
  it.each<[string, unknown, unknown, string]>([
    ['canonical', { name: 'describe', arguments: { table_name: 'singer' } }, DESCRIBE_SINGER, 'canonical'],
    ['arguments as a JSON string', { name: 'describe', arguments: '{"table_name": "singer"}' }, DESCRIBE_SINGER, 'canonical'],
    ['OpenAI function call', { type: 'function', function: { name: 'describe', arguments: '{"table_name": "singer"}' } }, DESCRIBE_SINGER, 'openai'],
    ['OpenAI message with tool_calls', { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'describe', arguments: { table_name: 'singer' } } }] }, DESCRIBE_SINGER, 'openai'],
    ['seed action_type', { action_type: 'DESCRIBE', argument: 'singer' }, DESCRIBE_SINGER, 'seed'],
    ['MCP call_tool', { type: 'call_tool', tool_name: 'describe', arguments: { table_name: 'singer' } }, DESCRIBE_SINGER, 'mcp'],
    ['<tool_call> text', 'Let me look.\n<tool_call>\n{"name": "describe", "arguments": {"table_name": "singer"}}\n</tool_call>', DESCRIBE_SINGER, 'tool_call_tag'],
    ['JSON text', '{"name": "describe", "arguments": {"table_name": "singer"}}', DESCRIBE_SINGER, 'json_text'],
    ['keyword text', 'DESCRIBE singer', DESCRIBE_SINGER, 'keyword_text'],
    ['keyword text with colon', 'QUERY: SELECT count(*) FROM singer', { name: 'query', arguments: { sql: 'SELECT count(*) FROM singer' } }, 'keyword_text'],
    ['function text', 'describe(table_name="singer")', DESCRIBE_SINGER, 'function_text'],
    ['function text, positional', "describe('singer')", DESCRIBE_SINGER, 'function_text'],
    ['function text, mixed', 'sample("singer", n=3)', { name: 'sample', arguments: { table_name: 'singer', n: 3 } }, 'function_text'],
    ['function text, bare positionals', 'sample(singer, 3)', { name: 'sample', arguments: { table_name: 'singer', n: 3 } }, 'function_text'],
    ['function text, SQL with commas', 'query(SELECT name, age FROM singer)', { name: 'query', arguments: { sql: 'SELECT name, age FROM singer' } }, 'function_text'],
    ['bare SQL', 'SELECT name FROM singer', { name: 'query', arguments: { sql: 'SELECT name FROM singer' } }, 'keyword_text'],
    ['two-word keyword', 'Final answer: 1, 2, 3', { name: 'answer', arguments: { value: '1, 2, 3' } }, 'keyword_text'],
  ])('%s', (_label, action, expected, form) => {
    const result = tolerant.parse(action, context);
    expect(callOf(result)).toEqual(expected);
    expect(result.form).toBe(form);
  });
});

describe('SqlActionParser: repairs', () => {
  it('drops null and unknown arguments (the seed collapse)', () => {
    const result = tolerant.parse({ name: 'describe', arguments: { sql: null, table_name: 'concert', value: null, verbose: true } }, context);
    expect(callOf(result)).toEqual({ name: 'describe', arguments: { table_name: 'concert' } });
    expect(result.repairs.map((r) => r.kind)).toEqual(['dropped_null_argument', 'dropped_null_argument', 'dropped_unknown_argument']);
  });

  it.each([
    ['run_query', 'query'],
    ['sql', 'query'],
    ['execute', 'query'],
    ['final_answer', 'answer'],
    ['submit', 'answer'],
    ['describe_table', 'describe'],
    ['schema', 'describe'],
    ['sample_rows', 'sample'],
    ['preview', 'sample'],
    ['head', 'sample'],
    ['functions.describe', 'describe'],
  ])('reads the tool alias %s as %s', (alias, name) => {
    const args = name === 'query' ? { sql: 'SELECT 1' } : name === 'answer' ? { value: 1 } : { table_name: 'singer' };
    const result = tolerant.parse({ name: alias, arguments: args }, context);
    expect(callOf(result).name).toBe(name);
    expect(result.repairs[0]!.kind).toMatch(/tool_name_(alias|case)/);
  });

  it('normalises tool name case', () => {
    const result = tolerant.parse({ name: 'Describe', arguments: { table_name: 'singer' } }, context);
    expect(callOf(result)).toEqual(DESCRIBE_SINGER);
    expect(result.repairs).toEqual([{ kind: 'tool_name_case', detail: 'tool "Describe" read as "describe"' }]);
  });

  it.each([
    [{ name: 'describe', arguments: { table: 'singer' } }, { table_name: 'singer' }],
    [{ name: 'query', arguments: { query: 'SELECT 1' } }, { sql: 'SELECT 1' }],
    [{ name: 'query', arguments: { sql_query: 'SELECT 1' } }, { sql: 'SELECT 1' }],
    [{ name: 'answer', arguments: { answer: 'Paris' } }, { value: 'Paris' }],
    [{ name: 'sample', arguments: { table: 'singer', limit: 2 } }, { table_name: 'singer', n: 2 }],
  ])('maps argument aliases: %j', (action, args) => {
    const result = tolerant.parse(action, context);
    expect(callOf(result).arguments).toEqual(args);
    expect(result.repairs.some((r) => r.kind === 'argument_alias')).toBe(true);
  });

  it('coerces types where the intent is clear', () => {
    expect(callOf(tolerant.parse({ name: 'sample', arguments: { table_name: 'singer', n: '5' } }, context)).arguments).toEqual({ table_name: 'singer', n: 5 });
    expect(callOf(tolerant.parse({ name: 'query', arguments: { sql: 42 } }, context)).arguments).toEqual({ sql: '42' });
    expect(callOf(tolerant.parse({ name: 'answer', arguments: { value: 42 } }, context)).arguments).toEqual({ value: 42 });
    expect(callOf(tolerant.parse({ name: 'answer', arguments: { value: [[1, 'a']] } }, context)).arguments).toEqual({ value: [[1, 'a']] });
    expect(callOf(tolerant.parse({ name: 'answer', arguments: { value: { n: 1 } } }, context)).arguments).toEqual({ value: { n: 1 } });
    const clamped = tolerant.parse({ name: 'sample', arguments: { table_name: 'singer', n: 500 } }, context);
    expect(callOf(clamped).arguments).toEqual({ table_name: 'singer', n: 20 });
    expect(clamped.repairs.map((r) => r.kind)).toContain('clamped_value');
  });

  it('accepts a lone positional argument', () => {
    expect(callOf(tolerant.parse({ name: 'describe', arguments: 'singer' }, context))).toEqual(DESCRIBE_SINGER);
    expect(callOf(tolerant.parse({ name: 'describe', arguments: ['singer'] }, context))).toEqual(DESCRIBE_SINGER);
    expect(callOf(tolerant.parse({ name: 'query', arguments: 'SELECT 1' }, context))).toEqual({ name: 'query', arguments: { sql: 'SELECT 1' } });
    expect(callOf(tolerant.parse({ name: 'answer', arguments: [1, 2] }, context))).toEqual({ name: 'answer', arguments: { value: [1, 2] } });
  });

  it('accepts arguments beside the name and "parameters" for "arguments"', () => {
    const flat = tolerant.parse({ name: 'describe', table_name: 'singer' }, context);
    expect(callOf(flat)).toEqual(DESCRIBE_SINGER);
    expect(flat.repairs[0]!.kind).toBe('flattened_arguments');
    const params = tolerant.parse({ name: 'describe', parameters: { table_name: 'singer' } }, context);
    expect(callOf(params)).toEqual(DESCRIBE_SINGER);
    expect(params.repairs[0]!.kind).toBe('envelope_key_alias');
  });

  it('repairs broken JSON text and reports it', () => {
    const result = tolerant.parse("{'name': 'describe', arguments: {table_name: 'singer',}", context);
    expect(callOf(result)).toEqual(DESCRIBE_SINGER);
    expect(result.repairs.every((r) => r.kind === 'json_repair')).toBe(true);
    expect(result.repairs.length).toBeGreaterThanOrEqual(3);
  });

  it('uses the first of several calls and says so', () => {
    const result = tolerant.parse([DESCRIBE_SINGER, { name: 'describe', arguments: { table_name: 'concert' } }], context);
    expect(callOf(result)).toEqual(DESCRIBE_SINGER);
    expect(result.repairs[0]!.kind).toBe('extra_tool_calls_ignored');
  });
});

describe('SqlActionParser: errors', () => {
  it('missing argument: shows the exact correct call and the tables', () => {
    const result = tolerant.parse({ name: 'describe', arguments: {} }, context);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toEqual({
      type: 'missing_argument',
      message: 'describe needs "table_name". Call it as {"name": "describe", "arguments": {"table_name": "singer"}}. Tables: singer, concert, stadium.',
    });
  });

  it('a null answer is a missing argument', () => {
    const result = tolerant.parse({ name: 'answer', arguments: { value: null } }, context);
    expect(!result.ok && result.error.type).toBe('missing_argument');
  });

  it('unknown tool lists the tools', () => {
    const result = tolerant.parse({ name: 'drop_table', arguments: {} }, context);
    expect(!result.ok && result.error.type).toBe('unknown_tool');
    expect(!result.ok && result.error.message).toMatch(/describe, sample, query, answer/);
  });

  it('invalid argument names the problem', () => {
    const result = tolerant.parse({ name: 'sample', arguments: { table_name: 'singer', n: 'lots' } }, context);
    expect(!result.ok && result.error.type).toBe('invalid_argument');
    expect(!result.ok && result.error.message).toMatch(/"n" must be a whole number/);
    const objectSql = tolerant.parse({ name: 'query', arguments: { sql: { text: 'SELECT 1' } } }, context);
    expect(!objectSql.ok && objectSql.error.type).toBe('invalid_argument');
    const emptySql = tolerant.parse({ name: 'query', arguments: { sql: '' } }, context);
    expect(!emptySql.ok && emptySql.error.type).toBe('invalid_argument');
  });

  it.each([['hello world'], [''], [null], [42], [[]], [{ arguments: {} }], ['<tool_call>not json</tool_call>'], ['{"name": }']])(
    'parse error for %j',
    (action) => {
      const result = tolerant.parse(action, context);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.type).toBe('parse_error');
        expect(result.error.message).toContain('{"name": "describe", "arguments": {"table_name": "singer"}}');
      }
    },
  );

  it('never throws, even on hostile values', () => {
    const cyclic: Record<string, unknown> = { name: 'answer' };
    cyclic.arguments = { value: cyclic };
    const hostile = [cyclic, Object.create(null), () => 1, Symbol('x'), 10n, { name: { toString: () => { throw new Error('boom'); } } }];
    for (const action of hostile) expect(() => tolerant.parse(action, context)).not.toThrow();
  });
});

describe('SqlActionParser: strict mode', () => {
  it('accepts canonical calls and the structured forms', () => {
    expect(strict.parse(DESCRIBE_SINGER, context).ok).toBe(true);
    expect(strict.parse({ type: 'function', function: { name: 'describe', arguments: '{"table_name": "singer"}' } }, context).ok).toBe(true);
    expect(strict.parse('<tool_call>{"name": "describe", "arguments": {"table_name": "singer"}}</tool_call>', context).ok).toBe(true);
  });

  it.each<[unknown, string]>([
    [{ name: 'DESCRIBE', arguments: { table_name: 'singer' } }, 'unknown_tool'],
    [{ name: 'run_query', arguments: { sql: 'SELECT 1' } }, 'unknown_tool'],
    [{ name: 'describe', arguments: { table_name: 'singer', sql: null } }, 'invalid_argument'],
    [{ name: 'describe', arguments: { table: 'singer' } }, 'invalid_argument'],
    [{ name: 'sample', arguments: { table_name: 'singer', n: '3' } }, 'invalid_argument'],
    ["{'name': 'describe', 'arguments': {'table_name': 'singer'}}", 'parse_error'],
  ])('turns the repair of %j into %s', (action, type) => {
    const result = strict.parse(action, context);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.type).toBe(type);
      expect(result.error.message).toMatch(/^Strict mode refuses repairs/);
    }
    expect(tolerant.parse(action, context).ok).toBe(true);
  });
});

describe('checkActionShape', () => {
  const nest = (depth: number): unknown => {
    let v: unknown = 'x';
    for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { k: v };
    return v;
  };

  it('accepts real calls and nesting up to the limit', () => {
    expect(checkActionShape(DESCRIBE_SINGER)).toEqual({ ok: true });
    expect(checkActionShape(nest(64))).toEqual({ ok: true });
    expect(checkActionShape('x'.repeat(1_000_000))).toEqual({ ok: true });
  });

  it('refuses deep, huge, cyclic and unreadable values without recursion', () => {
    expect(checkActionShape(nest(65))).toEqual({ ok: false, message: 'it is nested deeper than 64 levels' });
    expect(checkActionShape(nest(1_000_000))).toMatchObject({ ok: false });
    expect(checkActionShape(new Array(100_001).fill(0))).toEqual({ ok: false, message: 'it holds more than 100,000 values' });
    expect(checkActionShape([new Array(50_000).fill(0), new Array(50_000).fill(0)])).toMatchObject({ ok: false });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(checkActionShape(cycle)).toMatchObject({ ok: false, message: 'it is nested deeper than 64 levels' });
    const trap = new Proxy({}, { ownKeys: () => { throw new Error('trap'); } });
    expect(checkActionShape({ a: trap })).toEqual({ ok: false, message: 'it could not be read (trap)' });
  });

  it('takes custom limits', () => {
    expect(checkActionShape([[1]], { maxDepth: 1, maxValues: 10 })).toMatchObject({ ok: false });
    expect(checkActionShape([1, 2, 3], { maxDepth: 4, maxValues: 3 })).toMatchObject({ ok: false });
  });
});

describe('SqlActionParser: inherited names', () => {
  it('never reads "constructor", "__proto__" or "toString" as tools or argument aliases', () => {
    const r = tolerant.parse({ name: 'describe', arguments: { constructor: 'singer', toString: 'x', hasOwnProperty: 'y' } }, context);
    expect(r).toMatchObject({ ok: false, error: { type: 'missing_argument' } });
    expect(r.repairs.map((x) => x.kind)).toEqual(['dropped_unknown_argument', 'dropped_unknown_argument', 'dropped_unknown_argument']);
    const proto = tolerant.parse(JSON.parse('{"name": "sample", "arguments": {"__proto__": {"table_name": "singer"}}}'), context);
    expect(proto).toMatchObject({ ok: false, error: { type: 'missing_argument' } });
    expect(tolerant.parse('sample(constructor="singer")', context)).toMatchObject({ ok: false, error: { type: 'missing_argument' } });
  });
});
