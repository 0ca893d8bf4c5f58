import type { Rng } from '../../base/rng.js';
import type { JSONSchema } from './space.js';
import { GymError } from '../gym-error.js';

/** A schema that {@link sampleJsonSchema} cannot generate values for. */
export class UnsupportedSchemaError extends GymError {
  constructor(
    message: string,
    /** JSON Pointer-like path of the offending sub-schema. */
    readonly path: string,
  ) {
    super(`${message} (at ${path || '/'}). The tool-call sampler supports type, enum, const, ` +
      'minimum/maximum/exclusiveMinimum/exclusiveMaximum, minLength/maxLength, items/minItems/maxItems, ' +
      'properties/required, anyOf/oneOf; simplify the tool schema or sample calls yourself.');
    this.name = 'UnsupportedSchemaError';
  }
}

/** Span used for numbers and integers bounded on one side or none: generated values stay readable. */
const DEFAULT_NUMBER_SPAN = 100;
/** Generated strings have at most `minLength` + this many characters (a 20,000-char limit stays readable). */
const DEFAULT_STRING_SLACK = 12;
/** Generated arrays have at most `minItems` + this many items. */
const DEFAULT_ARRAY_SLACK = 3;
const STRING_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ ';

/**
 * A random value valid against `schema`, for the subset of JSON Schema that tool (function)
 * definitions use in practice:
 *
 * - `enum` and `const` anywhere; `anyOf`/`oneOf` (one branch at random); `type` as a string or
 *   an array of types (one at random);
 * - `string` with `minLength`/`maxLength` (alphanumeric text of at most `minLength` + 12
 *   characters; `format` is ignored and `pattern` raises {@link UnsupportedSchemaError});
 * - `integer` and `number` with `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum`
 *   (a side left open spans 100 from the other bound, or [-100, 100]);
 * - `boolean`, `null`;
 * - `array` with `items`, `minItems`/`maxItems` (at most `minItems` + 3 items);
 * - `object` with `properties` and `required` (each optional property is included with
 *   probability ½; no extra properties are generated).
 *
 * `$ref`, `allOf`, `not`, `if/then/else`, `patternProperties` and `uniqueItems` are not supported.
 *
 * @example
 * ```ts
 * sampleJsonSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['n'] }, new Rng(0));
 * // { n: 3 }
 * ```
 */
export function sampleJsonSchema(schema: JSONSchema | boolean, rng: Rng, path = ''): unknown {
  if (schema === true) return rng.choice([0, 'x', true, null]);
  if (schema === false) throw new UnsupportedSchemaError('the schema `false` admits no value', path);
  if ('const' in schema) return structuredClone(schema.const);
  if (Array.isArray(schema.enum)) {
    if (schema.enum.length === 0) throw new UnsupportedSchemaError('an empty enum admits no value', path);
    return structuredClone(rng.choice(schema.enum));
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.length > 0) {
      const index = rng.int(branches.length);
      return sampleJsonSchema(branches[index] as JSONSchema, rng, `${path}/${keyword}/${index}`);
    }
  }
  for (const keyword of ['$ref', 'allOf', 'not', 'if', 'pattern', 'patternProperties', 'uniqueItems']) {
    if (schema[keyword] !== undefined && schema[keyword] !== false) throw new UnsupportedSchemaError(`keyword '${keyword}' is not supported`, path);
  }
  const type = pickType(schema, rng, path);
  switch (type) {
    case 'string':
      return sampleString(schema, rng);
    case 'integer':
      return sampleInteger(schema, rng, path);
    case 'number':
      return sampleNumber(schema, rng, path);
    case 'boolean':
      return rng.int(2) === 1;
    case 'null':
      return null;
    case 'array':
      return sampleArray(schema, rng, path);
    case 'object':
      return sampleObject(schema, rng, path);
    default:
      throw new UnsupportedSchemaError(`unknown type '${type}'`, path);
  }
}

function pickType(schema: JSONSchema, rng: Rng, path: string): string {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type) && type.length > 0) return String(rng.choice(type));
  if (type !== undefined) throw new UnsupportedSchemaError('`type` must be a string or a non-empty array', path);
  // Untyped schemas: infer from the keywords present, as validators would accept.
  if ('properties' in schema || 'required' in schema) return 'object';
  if ('items' in schema || 'minItems' in schema) return 'array';
  if ('minimum' in schema || 'maximum' in schema) return 'number';
  return 'string';
}

function sampleString(schema: JSONSchema, rng: Rng): string {
  const min = numberOr(schema.minLength, 0);
  const max = Math.min(numberOr(schema.maxLength, Infinity), min + DEFAULT_STRING_SLACK);
  const length = rng.intBetween(min, Math.max(min, max));
  let out = '';
  for (let i = 0; i < length; i++) out += STRING_ALPHABET[rng.int(STRING_ALPHABET.length)];
  return out;
}

function sampleInteger(schema: JSONSchema, rng: Rng, path: string): number {
  const [lo, hi] = numericRange(schema);
  const min = Math.ceil(lo.exclusive ? Math.floor(lo.value) + 1 : lo.value);
  const max = Math.floor(hi.exclusive ? Math.ceil(hi.value) - 1 : hi.value);
  if (min > max) throw new UnsupportedSchemaError(`no integer lies in [${min}, ${max}]`, path);
  return rng.intBetween(min, max);
}

function sampleNumber(schema: JSONSchema, rng: Rng, path: string): number {
  const [lo, hi] = numericRange(schema);
  if (lo.value > hi.value || (lo.value === hi.value && (lo.exclusive || hi.exclusive))) {
    throw new UnsupportedSchemaError(`no number lies between ${lo.value} and ${hi.value}`, path);
  }
  for (;;) {
    const x = lo.value + (hi.value - lo.value) * rng.float();
    if ((!lo.exclusive || x > lo.value) && (!hi.exclusive || x < hi.value)) return x;
  }
}

interface Bound {
  value: number;
  exclusive: boolean;
}

/** Lower and upper bounds of a numeric schema, closing open sides with {@link DEFAULT_NUMBER_SPAN}. */
function numericRange(schema: JSONSchema): [Bound, Bound] {
  const lo: Bound | undefined =
    typeof schema.exclusiveMinimum === 'number'
      ? { value: schema.exclusiveMinimum, exclusive: true }
      : typeof schema.minimum === 'number'
        ? { value: schema.minimum, exclusive: false }
        : undefined;
  const hi: Bound | undefined =
    typeof schema.exclusiveMaximum === 'number'
      ? { value: schema.exclusiveMaximum, exclusive: true }
      : typeof schema.maximum === 'number'
        ? { value: schema.maximum, exclusive: false }
        : undefined;
  if (lo && hi) return [lo, hi];
  if (lo) return [lo, { value: lo.value + DEFAULT_NUMBER_SPAN, exclusive: false }];
  if (hi) return [{ value: hi.value - DEFAULT_NUMBER_SPAN, exclusive: false }, hi];
  return [
    { value: -DEFAULT_NUMBER_SPAN, exclusive: false },
    { value: DEFAULT_NUMBER_SPAN, exclusive: false },
  ];
}

function sampleArray(schema: JSONSchema, rng: Rng, path: string): unknown[] {
  const min = numberOr(schema.minItems, 0);
  const max = Math.min(numberOr(schema.maxItems, Infinity), min + DEFAULT_ARRAY_SLACK);
  const length = rng.intBetween(min, Math.max(min, max));
  const items = (schema.items ?? true) as JSONSchema | boolean;
  if (Array.isArray(items)) throw new UnsupportedSchemaError('tuple-form `items` is not supported', path);
  return Array.from({ length }, (_, i) => sampleJsonSchema(items, rng, `${path}/items/${i}`));
}

function sampleObject(schema: JSONSchema, rng: Rng, path: string): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JSONSchema | boolean>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(properties)) {
    if (required.has(key) || rng.int(2) === 1) out[key] = sampleJsonSchema(sub, rng, `${path}/properties/${key}`);
  }
  for (const key of required) {
    if (!(key in out)) out[key] = sampleJsonSchema(true, rng, `${path}/required/${key}`);
  }
  return out;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
