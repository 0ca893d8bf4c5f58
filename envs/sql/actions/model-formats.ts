import { parseTolerantJson, stripCodeFence } from '../../../src/text/tolerant-json.js';
import { extractToolCalls } from '../../../src/text/tool-calls.js';
import { formatJson } from './call-format.js';
import type { ActionRepair, RepairKind } from './action-types.js';
import { readFunctionArguments, splitTopLevel } from './function-arguments.js';
import { SQL_START, type TextCall } from './text-action.js';

/** A call to show in a format's own syntax: the tool and its arguments. */
export interface ExampleCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What a format's reader found: a call (raw name and arguments, or a JSON envelope to unwrap), or why it could not. */
type FormatRead =
  | { ok: true; name: string; args: unknown; repairs?: ActionRepair[] }
  | { ok: true; envelope: unknown; repairs?: ActionRepair[] }
  | { ok: false; why: string };

/**
 * One model family's way of writing a tool call in text. `repair` is the kind reported in
 * `info.repairs` when an action arrives in it (Hermes/Qwen `<tool_call>` has none: it is an
 * accepted form of its own, `tool_call_tag`).
 */
export interface ModelCallFormat {
  /** Who writes it, for messages: `Mistral [TOOL_CALLS]`. */
  family: string;
  repair?: RepairKind;
  /**
   * `marker`: the format has tokens of its own and is read before anything else; `fallback`: it is
   * plain prose (ReAct, a fenced SQL block) and is read only when the text is no other call, so
   * `Final answer: …` or a JSON call with a fence inside a value keeps its meaning.
   */
  stage: 'marker' | 'fallback';
  /** Whether the text is written in this format (its marker is present). */
  detect: (text: string) => boolean;
  read: (text: string) => FormatRead;
  /** The call written correctly in this format. */
  example: (call: ExampleCall) => string;
}

const json = (value: unknown) => formatJson(value);

/** The text with the end-of-turn tokens chat templates append removed. */
function withoutEndTokens(text: string): string {
  return text.replace(/<\|(?:eot_id|eom_id|end|endoftext|im_end)\|>|<\/s>|<｜end▁of▁sentence｜>|<end_of_turn>/g, '').trim();
}

/** JSON text (a call object or a list of them), fence and end tokens removed. */
function readJson(text: string, what: string): FormatRead {
  const body = withoutEndTokens(stripCodeFence(text) ?? text);
  if (body === '') return { ok: false, why: `${what} holds nothing` };
  const parsed = parseTolerantJson(body);
  if (!parsed.ok) return { ok: false, why: `${what} is not valid JSON (${parsed.error})` };
  return { ok: true, envelope: parsed.value, repairs: parsed.repairs.map((detail) => ({ kind: 'json_repair', detail })) };
}

/** JSON arguments of a call whose name came separately. */
function readJsonArguments(name: string, text: string, what: string): FormatRead {
  const body = withoutEndTokens(stripCodeFence(text) ?? text);
  if (body === '') return { ok: true, name, args: {} };
  const parsed = parseTolerantJson(body);
  if (!parsed.ok) return { ok: false, why: `the arguments of ${what} are not valid JSON (${parsed.error})` };
  return { ok: true, name, args: parsed.value, repairs: parsed.repairs.map((detail) => ({ kind: 'json_repair', detail: `arguments: ${detail}` })) };
}

/** `name(k=v, ...)`, `name.call(...)` or `print(name(...))` as Python writes a call. */
function readPythonCall(text: string, what: string): FormatRead {
  let body = withoutEndTokens(text).replace(/;\s*$/, '');
  const printed = /^print\s*\(([\s\S]*)\)$/.exec(body);
  if (printed) body = printed[1]!.trim();
  const call = /^([A-Za-z_][\w.]*?)(?:\.call)?\s*\(([\s\S]*)\)$/.exec(body);
  if (!call) return { ok: false, why: `${what} is not a call such as name(arg="value")` };
  return { ok: true, name: call[1]!, args: readFunctionArguments(call[2]!) };
}

/** The first of several calls, with a repair naming the ones left out. */
function firstOf(count: number, read: FormatRead): FormatRead {
  if (count <= 1 || !read.ok) return read;
  const extra: ActionRepair = { kind: 'extra_tool_calls_ignored', detail: `used the first of ${count} calls; one call per step` };
  return { ...read, repairs: [extra, ...(read.repairs ?? [])] };
}

const DEEPSEEK_CALL_BEGIN = /<[｜|]tool[▁_ ]call[▁_ ]begin[｜|]>/g;
const DEEPSEEK_CALL_END = /<[｜|]tool[▁_ ]call[▁_ ]end[｜|]>/;
const DEEPSEEK_SEP = /<[｜|]tool[▁_ ]sep[｜|]>/;
const MISTRAL_MARKER = '[TOOL_CALLS]';
const FENCED_SQL = /```[ \t]*(sql|sqlite)?[ \t]*\r?\n([\s\S]*?)```/gi;

/**
 * The tool-call formats of the major open model families, most specific marker first: the
 * first format whose marker the text holds reads it. Each was written from the family's chat
 * template (and its parser in vLLM/SGLang), so a model served without a tool parser can act as it
 * was trained to.
 */
export const MODEL_CALL_FORMATS: readonly ModelCallFormat[] = [
  {
    family: 'Hermes/Qwen <tool_call>',
    stage: 'marker',
    detect: (text) => text.includes('<tool_call>'),
    read: (text) => {
      const blocks = extractToolCalls(text);
      const firstGood = blocks.findIndex((b) => b.call !== undefined);
      if (firstGood < 0) return { ok: false, why: blocks[0]?.error?.message ?? 'the <tool_call> block is empty' };
      const block = blocks[firstGood]!;
      const repairs: ActionRepair[] = (block.repairs ?? []).filter((d) => d !== 'arguments given as a JSON string').map((detail) => ({ kind: 'json_repair', detail }));
      if (blocks.length > 1) repairs.unshift({ kind: 'extra_tool_calls_ignored', detail: `used tool call ${firstGood + 1} of ${blocks.length}; one call per step` });
      return { ok: true, name: block.call!.name, args: block.call!.arguments, repairs };
    },
    example: (call) => `<tool_call>\n${json(call)}\n</tool_call>`,
  },
  {
    // V3: `<｜tool▁call▁begin｜>function<｜tool▁sep｜>name\n```json\n{…}\n```<｜tool▁call▁end｜>`; V3.1: `name<｜tool▁sep｜>{…}`.
    family: 'DeepSeek <｜tool▁calls▁begin｜>',
    stage: 'marker',
    repair: 'deepseek_tool_calls',
    detect: (text) => /<[｜|]tool[▁_ ]calls?[▁_ ]begin[｜|]>/.test(text),
    read: (text) => {
      const starts = [...text.matchAll(DEEPSEEK_CALL_BEGIN)];
      if (starts.length === 0) return { ok: false, why: 'it has no <｜tool▁call▁begin｜> call' };
      const rest = text.slice(starts[0]!.index + starts[0]![0].length);
      const body = rest.split(DEEPSEEK_CALL_END)[0]!.split(/<[｜|]tool[▁_ ]calls[▁_ ]end[｜|]>/)[0]!;
      const sep = DEEPSEEK_SEP.exec(body);
      if (!sep) return { ok: false, why: 'the call has no <｜tool▁sep｜> between its name and arguments' };
      const before = body.slice(0, sep.index).trim();
      const after = body.slice(sep.index + sep[0].length);
      if (before === 'function' || before === '') {
        const newline = after.search(/\r?\n/);
        const name = (newline < 0 ? after : after.slice(0, newline)).trim();
        return firstOf(starts.length, readJsonArguments(name, newline < 0 ? '' : after.slice(newline), `DeepSeek's call`));
      }
      return firstOf(starts.length, readJsonArguments(before, after, `DeepSeek's call`));
    },
    example: (call) =>
      `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>${call.name}\n\`\`\`json\n${json(call.arguments)}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
  },
  {
    // v3 tokenizers: `[TOOL_CALLS] [{"name": …, "arguments": {…}}]`; v11+: `[TOOL_CALLS]name[ARGS]{…}` (with `[CALL_ID]id` in v13).
    family: 'Mistral [TOOL_CALLS]',
    stage: 'marker',
    repair: 'mistral_tool_calls',
    detect: (text) => text.includes(MISTRAL_MARKER),
    read: (text) => {
      const parts = text.split(MISTRAL_MARKER).slice(1);
      const first = parts[0]!.trim();
      if (first.startsWith('[') || first.startsWith('{')) return readJson(first, 'the [TOOL_CALLS] list');
      // `[ARGS]` may be missing where the decoder dropped special tokens: `[TOOL_CALLS]name{…}`.
      const named = /^([A-Za-z_][\w.-]*)\s*(?:\[CALL_ID\]\s*[A-Za-z0-9]*\s*)?(?:\[ARGS\]([\s\S]*)|(\{[\s\S]*))$/.exec(first);
      if (!named) return { ok: false, why: 'after [TOOL_CALLS] comes neither a JSON list of calls nor name[ARGS]{arguments}' };
      return firstOf(parts.length, readJsonArguments(named[1]!, named[2] ?? named[3]!, 'the [ARGS] part'));
    },
    example: (call) => `[TOOL_CALLS] [${json(call)}]`,
  },
  {
    // Phi-4-mini: `<|tool_call|>[{…}]<|/tool_call|>`; older Phi fine-tunes: `functools[{…}]`.
    family: 'Phi <|tool_call|>',
    stage: 'marker',
    repair: 'phi_tool_call',
    detect: (text) => text.includes('<|tool_call|>') || /\bfunctools\s*\[/.test(text),
    read: (text) => {
      const tagged = /<\|tool_call\|>([\s\S]*?)(?:<\|\/tool_call\|>|$)/.exec(text);
      if (tagged) return readJson(tagged[1]!, 'the <|tool_call|> block');
      return readJson(text.slice(text.search(/\bfunctools\s*\[/)).replace(/^functools\s*/, ''), 'the functools list');
    },
    example: (call) => `<|tool_call|>[${json(call)}]<|/tool_call|>`,
  },
  {
    family: 'Llama 3.x <function=…>',
    stage: 'marker',
    repair: 'llama_function_tag',
    detect: (text) => /<function=/.test(text),
    read: (text) => {
      const calls = [...text.matchAll(/<function=([^>\s<]{1,200})>([\s\S]*?)(?:<\/function>|(?=<function=)|$)/g)];
      if (calls.length === 0) return { ok: false, why: 'the <function=name> tag is not closed with >' };
      return firstOf(calls.length, readJsonArguments(calls[0]![1]!, calls[0]![2]!, '<function=…>'));
    },
    example: (call) => `<function=${call.name}>${json(call.arguments)}</function>`,
  },
  {
    // Llama 3.1–3.3 JSON tool calling after the python tag, or its built-in-tool style `name.call(k="v")`.
    family: 'Llama 3.x <|python_tag|>',
    stage: 'marker',
    repair: 'llama_python_tag',
    detect: (text) => text.includes('<|python_tag|>'),
    read: (text) => {
      const body = withoutEndTokens(text.slice(text.indexOf('<|python_tag|>') + '<|python_tag|>'.length));
      if (body.startsWith('{') || body.startsWith('[')) {
        // Several JSON calls are separated by `;`.
        const calls = splitTopLevel(body, ';').filter((c) => c.trim() !== '');
        return firstOf(calls.length, readJson(calls[0] ?? '', 'the JSON after <|python_tag|>'));
      }
      return readPythonCall(body, 'the text after <|python_tag|>');
    },
    example: (call) => `<|python_tag|>${json({ name: call.name, parameters: call.arguments })}`,
  },
  {
    // Gemma's function-calling prompt: a ```tool_code fence holding a Python call (often inside print()).
    family: 'Gemma ```tool_code',
    stage: 'marker',
    repair: 'gemma_tool_code',
    detect: (text) => /```tool_code\b/.test(text),
    read: (text) => {
      const fence = /```tool_code[ \t]*\r?\n?([\s\S]*?)(?:```|$)/.exec(text)!;
      const body = fence[1]!.trim();
      const lines = body.split(/\r?\n/).filter((l) => l.trim() !== '');
      if (body.startsWith('{') || body.startsWith('[')) return readJson(body, 'the tool_code block');
      return firstOf(lines.length, readPythonCall(lines[0] ?? '', 'the tool_code block'));
    },
    example: (call) => `\`\`\`tool_code\n${call.name}(${Object.entries(call.arguments).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')})\n\`\`\``,
  },
  {
    // Llama 3.2 (1B/3B) and Llama 4's pythonic form: a list of Python calls, `[name(k="v"), …]`.
    family: 'Llama pythonic [name(…)]',
    stage: 'marker',
    repair: 'llama_pythonic_list',
    detect: (text) => /^\[\s*[A-Za-z_][\w.]*\s*\([\s\S]*\)\s*\]$/.test(withoutEndTokens(text)),
    read: (text) => {
      const calls = splitTopLevel(withoutEndTokens(text).slice(1, -1), ',').filter((c) => c.trim() !== '');
      return firstOf(calls.length, readPythonCall(calls[0]!.trim(), 'the pythonic call'));
    },
    example: (call) => `[${call.name}(${Object.entries(call.arguments).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')})]`,
  },
  {
    // ReAct (LangChain's agent prompt): `Thought: …\nAction: tool\nAction Input: {…}` or the input as plain text.
    family: 'ReAct Action/Action Input',
    stage: 'fallback',
    repair: 'react_action',
    detect: (text) => /^[ \t]*Action[ \t]*:/im.test(text) && /^[ \t]*Action[ \t]*Input[ \t]*:/im.test(text),
    read: (text) => {
      // Line by line, not one regular expression: a lazy match with a look-ahead is quadratic on long texts.
      const lines = text.split('\n');
      const actionAt = lines.findIndex((l) => /^[ \t]*Action[ \t]*:/i.test(l) && !/^[ \t]*Action[ \t]*Input/i.test(l));
      const action = /^[ \t]*Action[ \t]*:[ \t]*[`"']?([A-Za-z_][\w.-]*)[`"']?[ \t]*\r?$/i.exec(lines[actionAt] ?? '');
      if (!action) return { ok: false, why: 'its Action: line names no tool (write the tool name alone on it)' };
      const inputAt = lines.findIndex((l, i) => i > actionAt && /^[ \t]*Action[ \t]*Input[ \t]*:/i.test(l));
      if (inputAt < 0) return { ok: false, why: 'no "Action Input:" line follows its "Action:" line' };
      const input = [lines[inputAt]!.replace(/^[ \t]*Action[ \t]*Input[ \t]*:/i, '')];
      for (const line of lines.slice(inputAt + 1)) {
        if (/^[ \t]*(?:Observation|Thought|Action|Final Answer)[ \t]*:/i.test(line)) break;
        input.push(line);
      }
      const raw = input.join('\n').trim();
      const value = withoutEndTokens(stripCodeFence(raw) ?? raw);
      if (value.startsWith('{')) return readJsonArguments(action[1]!, value, 'Action Input');
      const quoted = /^(["'`])([\s\S]*)\1$/.exec(value);
      return { ok: true, name: action[1]!, args: quoted ? quoted[2]! : value };
    },
    example: (call) => {
      const values = Object.values(call.arguments);
      return `Action: ${call.name}\nAction Input: ${values.length === 1 && typeof values[0] === 'string' ? values[0] : json(call.arguments)}`;
    },
  },
  {
    // Prose around a fenced SQL block: the (last) query in the text is what the model means to run.
    family: 'prose with a ```sql block',
    stage: 'fallback',
    repair: 'fenced_sql',
    detect: (text) => !text.trim().startsWith('```') && [...text.matchAll(FENCED_SQL)].some((m) => m[1] !== undefined || SQL_START.test(m[2]!)),
    read: (text) => {
      const blocks = [...text.matchAll(FENCED_SQL)].filter((m) => m[1] !== undefined || SQL_START.test(m[2]!));
      const sql = blocks.at(-1)![2]!.trim().replace(/;\s*$/, '');
      if (sql === '') return { ok: false, why: 'its ```sql block is empty' };
      const repairs: ActionRepair[] = [{ kind: 'fenced_sql', detail: blocks.length > 1 ? `ran the last of ${blocks.length} SQL blocks in the text` : 'ran the SQL block in the text' }];
      return { ok: true, name: 'query', args: { sql }, repairs };
    },
    example: (call) => (call.name === 'query' && typeof call.arguments.sql === 'string' ? `\`\`\`sql\n${call.arguments.sql}\n\`\`\`` : json(call)),
  },
];

/**
 * Read text written in a model family's tool-call format ({@link MODEL_CALL_FORMATS}) of one
 * stage; undefined when the text is in none of them. A format's repair kind is reported first, so `info.repairs`
 * says which family's syntax was read; a text in a family's format that cannot be read says which
 * format it looks like (`format`), so the error can show the call written in it.
 *
 * @example
 * ```ts
 * readModelFormat('[TOOL_CALLS] [{"name": "describe", "arguments": {"table_name": "singer"}}]', 'marker');
 * // { ok: true, form: 'model_format', name: '', args: undefined, envelope: [{ name: 'describe', … }],
 * //   repairs: [{ kind: 'mistral_tool_calls', detail: 'read a Mistral [TOOL_CALLS] call' }] }
 * ```
 */
export function readModelFormat(text: string, stage: ModelCallFormat['stage']): TextCall | undefined {
  const format = MODEL_CALL_FORMATS.find((f) => f.stage === stage && f.detect(text));
  if (!format) return undefined;
  const form = format.repair === undefined ? 'tool_call_tag' : 'model_format';
  const read = format.read(text);
  if (!read.ok) return { ok: false, form, message: `it looks like a ${format.family} tool call, but ${read.why}`, repairs: [], format };
  const own: ActionRepair[] = format.repair === undefined || format.repair === 'fenced_sql' ? [] : [{ kind: format.repair, detail: `read a ${format.family} call` }];
  const repairs = [...own, ...(read.repairs ?? [])];
  if ('envelope' in read) return { ok: true, form, name: '', args: undefined, envelope: read.envelope, repairs, format };
  return { ok: true, form, name: read.name, args: read.args, repairs, format };
}
