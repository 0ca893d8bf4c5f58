import type { SqlToolSpec } from '../tools/tool-spec.js';
import { actionText } from './action-text.js';
import type { ActionRepair } from './action-types.js';

/** The JSON Schema fields of one tool argument that coercion looks at. */
interface ArgumentSchema {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
}

/** The result of {@link normaliseArguments}: an argument object, or why none could be made. */
export type NormalisedArguments =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; kind: 'missing_argument' | 'invalid_argument'; argument: string; detail: string };

/** Lower-case with `-`/space as `_`, so `Table-Name` and `table name` meet `table_name`. */
function argumentKey(raw: string): string {
  return raw.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/**
 * The argument an alias stands for (`table` → `table_name`), or undefined; only the tool's own
 * aliases count, never inherited names such as `constructor`.
 *
 * @example
 * ```ts
 * argumentAlias(DESCRIBE_TOOL, 'table'); // 'table_name'
 * argumentAlias(DESCRIBE_TOOL, 'constructor'); // undefined
 * ```
 */
export function argumentAlias(spec: SqlToolSpec, key: string): string | undefined {
  return Object.hasOwn(spec.argumentAliases, key) ? spec.argumentAliases[key] : undefined;
}

/**
 * Turn whatever a model passed as `arguments` into the tool's argument object, repairing what has
 * a clear intent and recording each repair: positional values (a string, a number, a one-item
 * list), argument aliases (`table` → `table_name`, `query` → `sql`, `answer` → `value`),
 * null and unknown arguments dropped, and type coercion driven by the tool's JSON Schema
 * (`"5"` → 5 for an integer, 42 → `"42"` for a string, out-of-range integers clamped).
 * Lists and objects are kept for arguments whose schema allows them (`answer.value`).
 *
 * @example
 * ```ts
 * normaliseArguments(DESCRIBE_TOOL, { table: 'singer', sql: null }, repairs);
 * // → { ok: true, args: { table_name: 'singer' } }, with two repairs recorded
 * ```
 */
export function normaliseArguments(spec: SqlToolSpec, raw: unknown, repairs: ActionRepair[]): NormalisedArguments {
  const properties = (spec.definition.parameters.properties ?? {}) as Record<string, ArgumentSchema>;
  const required = (spec.definition.parameters.required ?? []) as string[];
  const tool = spec.definition.name;
  const named = toNamedArguments(spec, raw, repairs);
  const args: Record<string, unknown> = {};
  for (const [rawKey, value] of Object.entries(named)) {
    const key = argumentKey(rawKey);
    // Own properties only: `constructor` or `__proto__` must not find Object.prototype's members.
    const target = Object.hasOwn(properties, key) ? key : argumentAlias(spec, key);
    if (value === null || value === undefined) {
      repairs.push({ kind: 'dropped_null_argument', detail: `dropped ${JSON.stringify(rawKey)}: null` });
      continue;
    }
    if (target === undefined) {
      repairs.push({ kind: 'dropped_unknown_argument', detail: `dropped ${JSON.stringify(rawKey)}: ${tool} takes ${Object.keys(properties).join(', ')}` });
      continue;
    }
    if (target !== rawKey) {
      if (Object.hasOwn(args, target)) {
        repairs.push({ kind: 'dropped_unknown_argument', detail: `dropped ${JSON.stringify(rawKey)}: "${target}" was already given` });
        continue;
      }
      repairs.push({ kind: 'argument_alias', detail: `argument "${rawKey}" read as "${target}"` });
    }
    args[target] = value;
  }
  for (const [name, schema] of Object.entries(properties)) {
    if (!Object.hasOwn(args, name)) continue;
    const coerced = coerce(name, args[name], schema, repairs);
    if (!coerced.ok) return { ok: false, kind: 'invalid_argument', argument: name, detail: coerced.detail };
    args[name] = coerced.value;
  }
  for (const name of required) {
    if (!Object.hasOwn(args, name)) return { ok: false, kind: 'missing_argument', argument: name, detail: `${tool} needs "${name}"` };
  }
  return { ok: true, args };
}

/** Positional forms → a named-argument object; objects pass through. */
function toNamedArguments(spec: SqlToolSpec, raw: unknown, repairs: ActionRepair[]): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  const first = spec.positional[0]!;
  const acceptsList = allowsType((spec.definition.parameters.properties as Record<string, ArgumentSchema>)[first], 'array');
  if (Array.isArray(raw) && !acceptsList) {
    const named: Record<string, unknown> = {};
    raw.slice(0, spec.positional.length).forEach((value, i) => {
      named[spec.positional[i]!] = value;
    });
    repairs.push({ kind: 'positional_argument', detail: `positional ${formatList(raw)} read as ${Object.keys(named).join(', ')}` });
    if (raw.length > spec.positional.length) {
      repairs.push({ kind: 'dropped_unknown_argument', detail: `dropped ${raw.length - spec.positional.length} extra positional value(s)` });
    }
    return named;
  }
  repairs.push({ kind: 'positional_argument', detail: `lone value read as "${first}"` });
  return { [first]: raw };
}

function formatList(values: unknown[]): string {
  const text = actionText(values, 61);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function allowsType(schema: ArgumentSchema | undefined, type: string): boolean {
  if (!schema || schema.type === undefined) return true;
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
}

type Coerced = { ok: true; value: unknown } | { ok: false; detail: string };

const INTEGER_TEXT = /^\s*[+-]?\d+(?:\.0*)?\s*$/;

function coerce(name: string, value: unknown, schema: ArgumentSchema, repairs: ActionRepair[]): Coerced {
  if (allowsType(schema, 'integer') && !allowsType(schema, 'string')) return coerceInteger(name, value, schema, repairs);
  if (allowsType(schema, 'string') && !allowsType(schema, 'array')) return coerceString(name, value, repairs);
  // Arguments that accept lists and objects (answer.value) keep what they were given.
  return { ok: true, value };
}

function coerceInteger(name: string, value: unknown, schema: ArgumentSchema, repairs: ActionRepair[]): Coerced {
  let n: number;
  if (typeof value === 'number') {
    n = value;
  } else if (typeof value === 'bigint') {
    n = Number(value);
    repairs.push({ kind: 'coerced_type', detail: `"${name}": ${value.toString()} read as ${n}` });
  } else if (typeof value === 'string' && INTEGER_TEXT.test(value)) {
    n = Number(value);
    repairs.push({ kind: 'coerced_type', detail: `"${name}": ${JSON.stringify(value)} read as ${n}` });
  } else if (Array.isArray(value) && value.length === 1) {
    return coerceInteger(name, value[0], schema, repairs);
  } else {
    return { ok: false, detail: `"${name}" must be a whole number, got ${actionText(value, 40)}` };
  }
  if (!Number.isInteger(n)) return { ok: false, detail: `"${name}" must be a whole number, got ${n}` };
  const lo = schema.minimum ?? -Infinity;
  const hi = schema.maximum ?? Infinity;
  if (n < lo || n > hi) {
    const clamped = Math.min(hi, Math.max(lo, n));
    repairs.push({ kind: 'clamped_value', detail: `"${name}": ${n} clamped to ${clamped} (allowed ${lo}-${hi})` });
    n = clamped;
  }
  return { ok: true, value: n };
}

function coerceString(name: string, value: unknown, repairs: ActionRepair[]): Coerced {
  if (typeof value === 'string') return { ok: true, value };
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    repairs.push({ kind: 'coerced_type', detail: `"${name}": ${String(value)} read as text` });
    return { ok: true, value: String(value) };
  }
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') {
    repairs.push({ kind: 'coerced_type', detail: `"${name}": one-item list read as its item` });
    return { ok: true, value: value[0] };
  }
  return { ok: false, detail: `"${name}" must be text, got ${Array.isArray(value) ? 'a list' : typeof value}` };
}
