import { parseTolerantJson, stripCodeFence } from '../../../src/text/tolerant-json.js';
import { setEntry } from '../../../src/text/set-entry.js';
import { extractToolCalls } from '../../../src/text/tool-calls.js';
import type { ActionForm, ActionRepair } from './action-types.js';
import { resolveToolName } from './tool-name.js';

/** A call read from text, before its name and arguments are normalised. */
export type TextCall =
  | { ok: true; form: ActionForm; name: string; args: unknown; envelope?: unknown; repairs: ActionRepair[] }
  | { ok: false; form: ActionForm | undefined; message: string; repairs: ActionRepair[] };

/** Text that starts like SQL is run as a query, so that write statements reach the sandbox and come back as forbidden_sql. */
const SQL_START = /^\s*(?:\(\s*)*(SELECT|WITH|VALUES|INSERT|UPDATE|DELETE|REPLACE|DROP|CREATE|ALTER|ATTACH|DETACH|PRAGMA|VACUUM|BEGIN|COMMIT|ROLLBACK|EXPLAIN|REINDEX|ANALYZE|SAVEPOINT|RELEASE)\b/i;
const FUNCTION_CALL = /^([A-Za-z_][\w.]*)\s*\(([\s\S]*)\)\s*;?\s*$/;
/** A leading tool word and the rest: `DESCRIBE singer`, `QUERY: SELECT 1`, `Final answer - 42`. */
const KEYWORD_CALL = /^([A-Za-z_]+(?:[ _][A-Za-z_]+)?)\s*(?::|-|=>|\s)\s*([\s\S]*)$/;

/**
 * Read an action written as text. Accepted forms, tried in order: `<tool_call>{json}</tool_call>`
 * blocks (the first call is used), a JSON call (`{"name": ..., "arguments": ...}`, possibly in a
 * code fence), a function call (`describe(table_name="singer")`, `query('SELECT 1')`), a keyword
 * line (`DESCRIBE singer`, `QUERY: SELECT ...`, `ANSWER: 42`), and bare SQL (read as `query`).
 *
 * @example
 * ```ts
 * readTextAction('DESCRIBE singer'); // { ok: true, form: 'keyword_text', name: 'DESCRIBE', args: 'singer', ... }
 * ```
 */
export function readTextAction(text: string): TextCall {
  const repairs: ActionRepair[] = [];
  if (text.includes('<tool_call>')) return readTaggedCall(text, repairs);
  let body = text.trim();
  const fenced = stripCodeFence(body);
  if (fenced !== undefined && body.startsWith('```')) {
    body = fenced;
    repairs.push({ kind: 'json_repair', detail: 'removed code fence' });
  }
  if (body === '') return { ok: false, form: undefined, message: 'the action is empty', repairs };
  if (body.startsWith('{') || body.startsWith('[')) {
    const parsed = parseTolerantJson(body);
    if (!parsed.ok) return { ok: false, form: 'json_text', message: `the action is not valid JSON (${parsed.error})`, repairs };
    for (const detail of parsed.repairs) repairs.push({ kind: 'json_repair', detail });
    return { ok: true, form: 'json_text', name: '', args: undefined, envelope: parsed.value, repairs };
  }
  if (SQL_START.test(body)) {
    repairs.push({ kind: 'bare_sql', detail: 'SQL text with no tool name read as a query' });
    return { ok: true, form: 'keyword_text', name: 'query', args: { sql: body }, repairs };
  }
  const fn = FUNCTION_CALL.exec(body);
  if (fn && resolveToolName(fn[1]!)) {
    return { ok: true, form: 'function_text', name: fn[1]!, args: readFunctionArguments(fn[2]!), repairs };
  }
  const keyword = KEYWORD_CALL.exec(body);
  if (keyword) {
    const words = keyword[1]!;
    // Try the two-word name first (`final answer`), then the first word alone.
    const [firstWord] = words.split(/[ _]/);
    for (const name of [words, firstWord!]) {
      if (!resolveToolName(name)) continue;
      const rest = name === words ? keyword[2]! : body.slice(body.search(/\S/) + firstWord!.length).replace(/^\s*(?::|-|=>)?\s*/, '');
      return { ok: true, form: 'keyword_text', name, args: readKeywordArgument(rest), repairs };
    }
    if (fn) return { ok: true, form: 'function_text', name: fn[1]!, args: readFunctionArguments(fn[2]!), repairs };
    return { ok: false, form: 'keyword_text', message: `"${words}" is not a tool`, repairs };
  }
  if (fn) return { ok: true, form: 'function_text', name: fn[1]!, args: readFunctionArguments(fn[2]!), repairs };
  return { ok: false, form: undefined, message: 'the text is not a tool call', repairs };
}

function readTaggedCall(text: string, repairs: ActionRepair[]): TextCall {
  const blocks = extractToolCalls(text);
  const firstGood = blocks.findIndex((b) => b.call !== undefined);
  if (firstGood < 0) {
    const message = blocks[0]?.error?.message ?? 'the <tool_call> block is empty';
    return { ok: false, form: 'tool_call_tag', message, repairs };
  }
  const block = blocks[firstGood]!;
  if (blocks.length > 1) {
    repairs.push({ kind: 'extra_tool_calls_ignored', detail: `used tool call ${firstGood + 1} of ${blocks.length}; one call per step` });
  }
  for (const detail of block.repairs ?? []) {
    if (detail !== 'arguments given as a JSON string') repairs.push({ kind: 'json_repair', detail });
  }
  return { ok: true, form: 'tool_call_tag', name: block.call!.name, args: block.call!.arguments, repairs };
}

/** The argument text after a keyword: a JSON object of arguments, `k=v` pairs, or one value. */
function readKeywordArgument(rest: string): unknown {
  const text = rest.trim().replace(/;\s*$/, '');
  if (text.startsWith('{')) {
    const parsed = parseTolerantJson(text);
    if (parsed.ok) return parsed.value;
  }
  if (/^[A-Za-z_]\w*\s*=(?!=)/.test(text)) return readFunctionArguments(text);
  return unquote(text);
}

/**
 * Arguments written as `f(a, k=v)`: positional values in order and named ones. A class, so the
 * action parser can tell them apart from a JSON object a model sent.
 *
 * @example
 * ```ts
 * new FunctionArguments(['singer'], { n: 3 }); // sample("singer", n=3)
 * ```
 */
export class FunctionArguments {
  constructor(
    readonly positional: unknown[],
    readonly named: Record<string, unknown>,
  ) {}
}

/**
 * Read the inside of `f(...)`: `k=v` / `k: v` pairs and positional values, split at top-level
 * commas. Values are JSON-ish literals (quoted strings, numbers, lists, None) or bare words.
 * With no `k=` at all the whole text is one value, so `query(SELECT a, b FROM t)` keeps its commas.
 *
 * @example
 * ```ts
 * readFunctionArguments('"singer", n=3'); // FunctionArguments { positional: ['singer'], named: { n: 3 } }
 * ```
 */
export function readFunctionArguments(inner: string): FunctionArguments {
  const parts = splitTopLevel(inner);
  const hasNamed = parts.some((p) => /^\s*[A-Za-z_]\w*\s*(?:=(?!=)|:(?!:))/.test(p));
  if (!hasNamed) {
    const whole = inner.trim();
    if (whole === '') return new FunctionArguments([], {});
    if (parts.length > 1 && parts.every((p) => isLiteral(p.trim()) || /^[A-Za-z_][\w.]*$/.test(p.trim()))) return new FunctionArguments(parts.map((p) => readLiteral(p.trim())), {});
    return new FunctionArguments([readLiteral(whole)], {});
  }
  const named: Record<string, unknown> = {};
  const positional: unknown[] = [];
  for (const part of parts) {
    const match = /^\s*([A-Za-z_]\w*)\s*(?:=|:)\s*([\s\S]*)$/.exec(part);
    if (match) setEntry(named, match[1]!, readLiteral(match[2]!.trim()));
    else if (part.trim() !== '') positional.push(readLiteral(part.trim()));
  }
  return new FunctionArguments(positional, named);
}

function isLiteral(text: string): boolean {
  return /^(?:"[\s\S]*"|'[\s\S]*'|[+-]?\d+(?:\.\d+)?|None|null|True|False|true|false)$/.test(text);
}

function readLiteral(text: string): unknown {
  if (text === '') return '';
  if (/^["'`[{]/.test(text) || /^(?:None|null|True|False|true|false|[+-]?\d+(?:\.\d+)?)$/.test(text)) {
    const parsed = parseTolerantJson(text);
    if (parsed.ok) return parsed.value;
  }
  return text;
}

/** Strip one pair of matching quotes around a whole value. */
function unquote(text: string): string {
  const match = /^(["'`])([\s\S]*)\1$/.exec(text);
  return match ? match[2]! : text;
}

/** Split at commas outside quotes and brackets. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
