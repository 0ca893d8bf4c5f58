import { parseTolerantJson } from './tolerant-json.js';

/** One `<tool_call>` block found by {@link extractToolCalls}. */
export interface ExtractedToolCall {
  /** The text between the tags, untrimmed. */
  raw: string;
  /** The call, when the block held a JSON object with a string `name`. */
  call?: { name: string; arguments: unknown };
  /** Why the block could not be read as a call. */
  error?: { type: 'parse_error'; message: string };
  /** Repairs {@link parseTolerantJson} applied to the block (empty for clean JSON). */
  repairs?: string[];
}

const OPEN_TAG = '<tool_call>';
const CLOSE_TAG = '</tool_call>';

/**
 * Find the Hermes/Qwen `<tool_call>{json}</tool_call>` blocks in model output.
 *
 * Several blocks per text are returned in order; a last block whose closing tag is missing (the
 * model hit its token limit or stopped early) is still read. Each block's JSON is read with
 * {@link parseTolerantJson}; `arguments` given as a JSON string is decoded, and `parameters` is
 * accepted for `arguments`.
 *
 * @example
 * ```ts
 * extractToolCalls('<tool_call>{"name": "query", "arguments": {"sql": "SELECT 1"}}</tool_call>');
 * // → [{ raw: '{"name": ...}', call: { name: 'query', arguments: { sql: 'SELECT 1' } }, repairs: [] }]
 * ```
 */
export function extractToolCalls(text: string): ExtractedToolCall[] {
  const found: ExtractedToolCall[] = [];
  if (typeof text !== 'string') return found;
  let from = 0;
  for (;;) {
    const open = text.indexOf(OPEN_TAG, from);
    if (open < 0) break;
    const bodyStart = open + OPEN_TAG.length;
    const close = text.indexOf(CLOSE_TAG, bodyStart);
    // An unclosed block runs to the next opening tag or to the end of the text.
    const nextOpen = text.indexOf(OPEN_TAG, bodyStart);
    const bodyEnd = close >= 0 && (nextOpen < 0 || close < nextOpen) ? close : nextOpen >= 0 ? nextOpen : text.length;
    const raw = text.slice(bodyStart, bodyEnd);
    found.push(readToolCallBody(raw));
    from = bodyEnd === close ? close + CLOSE_TAG.length : bodyEnd;
  }
  return found;
}

/**
 * Read one tool-call body (the JSON between the tags) into `{ name, arguments }`.
 *
 * @example
 * ```ts
 * readToolCallBody("{'name': 'describe', 'arguments': {'table_name': 'singer'}}").call;
 * // → { name: 'describe', arguments: { table_name: 'singer' } }
 * ```
 */
export function readToolCallBody(raw: string): ExtractedToolCall {
  const parsed = parseTolerantJson(raw);
  if (!parsed.ok) return { raw, error: { type: 'parse_error', message: `tool call is not valid JSON: ${parsed.error}` } };
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { raw, error: { type: 'parse_error', message: 'tool call must be a JSON object {"name": ..., "arguments": {...}}' } };
  }
  const record = value as Record<string, unknown>;
  const name = record.name ?? record.tool_name ?? record.function;
  if (typeof name !== 'string' || name.trim() === '') {
    return { raw, error: { type: 'parse_error', message: 'tool call has no "name" string: expected {"name": ..., "arguments": {...}}' } };
  }
  const repairs = [...parsed.repairs];
  let args: unknown = record.arguments ?? record.parameters ?? record.args ?? {};
  if (typeof args === 'string') {
    const inner = parseTolerantJson(args);
    if (inner.ok && inner.value !== null && typeof inner.value === 'object') {
      args = inner.value;
      repairs.push('arguments given as a JSON string', ...inner.repairs);
    }
  }
  return { raw, call: { name, arguments: args }, repairs };
}
