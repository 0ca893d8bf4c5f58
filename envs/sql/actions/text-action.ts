import { parseTolerantJson, stripCodeFence } from '../../../src/text/tolerant-json.js';
import type { ActionForm, ActionRepair } from './action-types.js';
import { readFunctionArguments } from './function-arguments.js';
import { readModelFormat, type ModelCallFormat } from './model-formats.js';
import { resolveToolName } from './tool-name.js';

/** A call read from text, before its name and arguments are normalised. */
export type TextCall =
  | { ok: true; form: ActionForm; name: string; args: unknown; envelope?: unknown; repairs: ActionRepair[]; format?: ModelCallFormat }
  | { ok: false; form: ActionForm | undefined; message: string; repairs: ActionRepair[]; format?: ModelCallFormat };

/** Text that starts like SQL is run as a query, so that write statements reach the sandbox and come back as forbidden_sql. */
export const SQL_START = /^\s*(?:\(\s*)*(SELECT|WITH|VALUES|INSERT|UPDATE|DELETE|REPLACE|DROP|CREATE|ALTER|ATTACH|DETACH|PRAGMA|VACUUM|BEGIN|COMMIT|ROLLBACK|EXPLAIN|REINDEX|ANALYZE|SAVEPOINT|RELEASE)\b/i;
const FUNCTION_CALL = /^([A-Za-z_][\w.]*)\s*\(([\s\S]*)\)\s*;?\s*$/;
/** A leading tool word and the rest: `DESCRIBE singer`, `QUERY: SELECT 1`, `Final answer - 42`. */
const KEYWORD_CALL = /^([A-Za-z_]+(?:[ _][A-Za-z_]+)?)\s*(?::|-|=>|\s)\s*([\s\S]*)$/;

/**
 * Read an action written as text. Accepted forms, tried in order: a model family's own tool-call
 * format (`MODEL_CALL_FORMATS`: Hermes/Qwen `<tool_call>` blocks, Llama, Mistral, DeepSeek, Gemma,
 * Phi, ReAct, prose around a ```sql block; the first call is used), a JSON call (`{"name": ..., "arguments": ...}`, possibly in a
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
  const marked = readModelFormat(text, 'marker');
  if (marked) return marked;
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
      // Prose that opens with a tool's word (`Run this: ```sql …````, `Describe it.\nAction: …`) means the block or the Action line it shows.
      const shown = rest.trim();
      const prose = !shown.startsWith('```') && /```|^[ \t]*Action[ \t]*:/im.test(shown) ? readModelFormat(text, 'fallback') : undefined;
      if (prose?.ok) return prose;
      return { ok: true, form: 'keyword_text', name, args: readKeywordArgument(rest), repairs };
    }
    if (fn) return { ok: true, form: 'function_text', name: fn[1]!, args: readFunctionArguments(fn[2]!), repairs };
    return readModelFormat(text, 'fallback') ?? { ok: false, form: 'keyword_text', message: `"${words}" is not a tool`, repairs };
  }
  if (fn) return { ok: true, form: 'function_text', name: fn[1]!, args: readFunctionArguments(fn[2]!), repairs };
  return readModelFormat(text, 'fallback') ?? { ok: false, form: undefined, message: 'the text is not a tool call', repairs };
}

/** The argument text after a keyword: a JSON object of arguments, `k=v` pairs, or one value. */
function readKeywordArgument(rest: string): unknown {
  // `QUERY:` then a fenced block: the fence is layout, not part of the SQL.
  const trimmed = rest.trim();
  const text = ((trimmed.startsWith('```') ? stripCodeFence(trimmed) : undefined) ?? trimmed).replace(/;\s*$/, '');
  if (text.startsWith('{')) {
    const parsed = parseTolerantJson(text);
    if (parsed.ok) return parsed.value;
  }
  if (/^[A-Za-z_]\w*\s*=(?!=)/.test(text)) return readFunctionArguments(text);
  return unquote(text);
}

/** Strip one pair of matching quotes around a whole value. */
function unquote(text: string): string {
  const match = /^(["'`])([\s\S]*)\1$/.exec(text);
  return match ? match[2]! : text;
}
