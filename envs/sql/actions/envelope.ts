import { parseTolerantJson } from '../../../src/text/tolerant-json.js';
import type { ActionForm, ActionRepair } from './action-types.js';

/** A call lifted out of its envelope: a raw name and raw arguments, not yet normalised. */
export type UnwrappedCall =
  | { ok: true; form: ActionForm; name: string; args: unknown; repairs: ActionRepair[] }
  | { ok: false; form: ActionForm | undefined; message: string; repairs: ActionRepair[] };

type Json = Record<string, unknown>;

const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Keys that hold the call's name or arguments; any other key beside `name` is an argument. */
const ENVELOPE_KEYS = new Set(['name', 'arguments', 'parameters', 'args', 'input', 'type', 'id', 'tool', 'tool_name', 'action', 'function']);

/**
 * Lift the tool name and raw arguments out of the structured forms an action may come in:
 * canonical `{name, arguments}`, OpenAI `{type: 'function', function: {name, arguments}}` and
 * chat messages with `tool_calls`, MCP `{type: 'call_tool', tool_name, arguments}`, the seed's
 * `{action_type, argument}`, and a list of calls (the first is used).
 *
 * @example
 * ```ts
 * unwrapEnvelope({ type: 'function', function: { name: 'query', arguments: '{"sql": "SELECT 1"}' } }, 'canonical');
 * // → { ok: true, form: 'openai', name: 'query', args: '{"sql": "SELECT 1"}', repairs: [] }
 * ```
 */
export function unwrapEnvelope(value: unknown, form: ActionForm, depth = 0): UnwrappedCall {
  const repairs: ActionRepair[] = [];
  if (depth > 3) return { ok: false, form, message: 'the action is nested too deeply', repairs };
  if (Array.isArray(value)) {
    if (value.length === 0) return { ok: false, form, message: 'the action is an empty list', repairs };
    if (value.length > 1) repairs.push({ kind: 'extra_tool_calls_ignored', detail: `used the first of ${value.length} calls; one call per step` });
    return withRepairs(unwrapEnvelope(value[0], form, depth + 1), repairs);
  }
  if (!isRecord(value)) return { ok: false, form, message: `the action must be a tool call object, got ${describeType(value)}`, repairs };

  if (Array.isArray(value.tool_calls)) return withRepairs(unwrapEnvelope(value.tool_calls, 'openai', depth + 1), repairs);
  if (isRecord(value.function) && (value.type === 'function' || value.type === undefined)) {
    const fn = value.function;
    if (typeof fn.name !== 'string') return { ok: false, form: 'openai', message: 'the OpenAI call has no function.name', repairs };
    return { ok: true, form: 'openai', name: fn.name, args: fn.arguments ?? fn.parameters, repairs };
  }
  if (value.type === 'call_tool' || typeof value.tool_name === 'string') {
    if (typeof value.tool_name !== 'string') return { ok: false, form: 'mcp', message: 'the MCP call has no tool_name', repairs };
    return { ok: true, form: 'mcp', name: value.tool_name, args: value.arguments, repairs };
  }
  if (typeof value.action_type === 'string') {
    return { ok: true, form: 'seed', name: value.action_type, args: value.argument ?? value.arguments, repairs };
  }

  let name: unknown = value.name;
  if (typeof name !== 'string') {
    for (const key of ['tool', 'action', 'function', 'tool_name']) {
      if (typeof value[key] === 'string') {
        name = value[key];
        repairs.push({ kind: 'envelope_key_alias', detail: `"${key}" read as "name"` });
        break;
      }
    }
  }
  if (typeof name !== 'string') {
    return { ok: false, form, message: 'the action object has no "name" (the tool to call)', repairs };
  }
  if ('arguments' in value) return { ok: true, form, name, args: value.arguments, repairs };
  for (const key of ['parameters', 'args', 'input']) {
    if (key in value) {
      repairs.push({ kind: 'envelope_key_alias', detail: `"${key}" read as "arguments"` });
      return { ok: true, form, name, args: value[key], repairs };
    }
  }
  const flattened = Object.fromEntries(Object.entries(value).filter(([k]) => !ENVELOPE_KEYS.has(k)));
  if (Object.keys(flattened).length > 0) {
    repairs.push({ kind: 'flattened_arguments', detail: `arguments given beside "name": ${Object.keys(flattened).join(', ')}` });
  }
  return { ok: true, form, name, args: flattened, repairs };
}

/**
 * Decode `arguments` sent as a JSON string (the OpenAI wire form). Clean JSON is a form, not a
 * repair; repaired JSON is reported, and so is a JSON string encoded twice (`arguments_double_encoded`). A string that is not a JSON object is left for the
 * positional-argument rule (`{"name": "query", "arguments": "SELECT 1"}`).
 */
export function decodeArgumentString(args: unknown, repairs: ActionRepair[]): unknown {
  if (typeof args !== 'string') return args;
  const trimmed = args.trim();
  // `"{\"sql\": …}"`: a serializer ran twice, so the JSON string holds the arguments' JSON as a string.
  if (trimmed.startsWith('"')) {
    const outer = parseTolerantJson(trimmed);
    if (outer.ok && typeof outer.value === 'string' && outer.value.trim().startsWith('{')) {
      const inner = parseTolerantJson(outer.value.trim());
      if (inner.ok && isRecord(inner.value)) {
        repairs.push({ kind: 'arguments_double_encoded', detail: 'arguments were a JSON string inside a JSON string; decoded twice' });
        for (const detail of inner.repairs) repairs.push({ kind: 'json_repair', detail: `arguments: ${detail}` });
        return inner.value;
      }
    }
  }
  if (!trimmed.startsWith('{')) return args;
  const parsed = parseTolerantJson(trimmed);
  if (!parsed.ok || !isRecord(parsed.value)) return args;
  for (const detail of parsed.repairs) repairs.push({ kind: 'json_repair', detail: `arguments: ${detail}` });
  return parsed.value;
}

function withRepairs(result: UnwrappedCall, before: ActionRepair[]): UnwrappedCall {
  return { ...result, repairs: [...before, ...result.repairs] };
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
