/**
 * Actions built to break a parser: deep nesting, huge sizes, prototype keys, lone surrogates,
 * huge and NaN-ish numbers, cycles and throwing getters. Shared by the in-process fuzz test and
 * the over-the-wire one; `wire` marks those JSON can carry.
 */

/** `[[[…1…]]]`, `depth` levels deep. */
export function deepArray(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** `{key: {key: …1…}}`, `depth` levels deep. */
export function deepObject(depth: number, key = 'a'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { [key]: value };
  return value;
}

export interface PathologicalAction {
  name: string;
  make: () => unknown;
  /** JSON can carry it (so WebSocket JSON, WebSocket msgpack and HTTP send it unchanged). */
  wire: boolean;
}

const LONE_HIGH = '\uD800';
const LONE_LOW = '\uDC00';

export const PATHOLOGICAL_ACTIONS: readonly PathologicalAction[] = [
  { name: '10k-deep array', make: () => deepArray(10_000), wire: true },
  { name: '10k-deep object', make: () => deepObject(10_000), wire: true },
  { name: '10k-deep answer value', make: () => ({ name: 'answer', arguments: { value: deepArray(10_000) } }), wire: true },
  { name: '10k-deep arguments', make: () => ({ name: 'answer', arguments: deepObject(10_000, 'value') }), wire: true },
  { name: '10k-deep tool_calls', make: () => ({ tool_calls: deepArray(10_000) }), wire: true },
  { name: '10k-deep JSON text in a tool_call tag', make: () => `<tool_call>{"name":"answer","arguments":{"value":${'['.repeat(10_000)}${']'.repeat(10_000)}}}</tool_call>`, wire: true },
  { name: '300k-deep function-call text', make: () => `answer(${'['.repeat(300_000)}${']'.repeat(300_000)})`, wire: true },
  { name: '200k-item answer', make: () => ({ name: 'answer', arguments: { value: Array.from({ length: 200_000 }, (_, i) => i) } }), wire: false },
  { name: '100k-key arguments', make: () => ({ name: 'describe', arguments: Object.fromEntries(Array.from({ length: 100_001 }, (_, i) => [`k${i}`, i])) }), wire: false },
  { name: 'huge SQL', make: () => ({ name: 'query', arguments: { sql: `SELECT ${'1+'.repeat(200_000)}1` } }), wire: true },
  { name: 'huge text', make: () => 'x'.repeat(600_000), wire: true },
  { name: '__proto__ envelope', make: () => JSON.parse('{"__proto__": {"name": "describe"}, "arguments": {"table_name": "singer"}}') as unknown, wire: true },
  { name: '__proto__ arguments', make: () => JSON.parse('{"name": "describe", "arguments": {"__proto__": {"table_name": "singer"}}}') as unknown, wire: true },
  { name: '__proto__ in JSON text', make: () => '{"name": "describe", "arguments": {"__proto__": {"table_name": "singer"}}}', wire: true },
  { name: '__proto__ in function text', make: () => 'describe(__proto__="singer")', wire: true },
  { name: 'constructor/prototype keys', make: () => ({ name: 'describe', arguments: { constructor: 'x', prototype: 'y', toString: 'z' } }), wire: true },
  { name: 'constructor as tool', make: () => ({ name: 'constructor', arguments: { constructor: {} } }), wire: true },
  { name: '__proto__ as tool', make: () => ({ name: '__proto__', arguments: {} }), wire: true },
  { name: 'lone surrogates in SQL', make: () => ({ name: 'query', arguments: { sql: `SELECT '${LONE_HIGH}a${LONE_LOW}'` } }), wire: true },
  { name: 'lone surrogate table name', make: () => ({ name: 'describe', arguments: { table_name: `singer${LONE_HIGH}` } }), wire: true },
  { name: 'lone surrogate tool name', make: () => ({ name: `query${LONE_LOW}`, arguments: {} }), wire: true },
  { name: 'lone surrogate answer', make: () => ({ name: 'answer', arguments: { value: [LONE_HIGH, LONE_LOW] } }), wire: true },
  { name: 'huge sample size', make: () => ({ name: 'sample', arguments: { table_name: 'singer', n: 1e308 } }), wire: true },
  { name: 'huge negative sample size', make: () => ({ name: 'sample', arguments: { table_name: 'singer', n: -1e308 } }), wire: true },
  { name: 'Infinity answer', make: () => ({ name: 'answer', arguments: { value: [Infinity, -Infinity] } }), wire: false },
  { name: '400-digit number text', make: () => `sample(singer, n=${'9'.repeat(400)})`, wire: true },
  { name: 'NaN sample size', make: () => ({ name: 'sample', arguments: { table_name: 'singer', n: NaN } }), wire: false },
  { name: 'NaN answer', make: () => ({ name: 'answer', arguments: { value: NaN } }), wire: false },
  { name: 'NaN in JSON text', make: () => '{"name": "sample", "arguments": {"table_name": "singer", "n": NaN}}', wire: true },
  { name: 'bigint sample size', make: () => ({ name: 'sample', arguments: { table_name: 'singer', n: 10n ** 30n } }), wire: false },
  { name: 'bigint inside an answer', make: () => ({ name: 'answer', arguments: { value: [10n ** 30n, 1] } }), wire: false },
  { name: 'cyclic action', make: () => cyclic(), wire: false },
  { name: 'throwing getter', make: () => ({ name: 'describe', get arguments(): unknown { throw new Error('getter exploded'); } }), wire: false },
  { name: 'symbol and function values', make: () => ({ name: 'answer', arguments: { value: [Symbol('s'), () => 1] } }), wire: false },
  { name: 'null', make: () => null, wire: true },
  { name: 'empty object', make: () => ({}), wire: true },
];

function cyclic(): unknown {
  const action: Record<string, unknown> = { name: 'answer' };
  action.arguments = { value: action };
  return action;
}
