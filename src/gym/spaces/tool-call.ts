import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { deepEqual } from '../utils/deep-equal.js';
import { sampleJsonSchema } from './json-schema-sampler.js';
import type { DiscreteMask } from './discrete.js';
import type { JSONSchema } from './space.js';
import { Space } from './space.js';

/** A tool (function) an agent may call: its name, what it does, and a JSON Schema of its arguments. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** An object schema (`{ type: 'object', properties, required }`) for the call's `arguments`. */
  parameters: JSONSchema;
}

/** A call of one tool, the shape language models emit. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** The outcome of {@link ToolCallSpace.validate}: `errors` explain each violation in words. */
export interface ToolCallValidation {
  ok: boolean;
  errors: string[];
}

/**
 * Calls `{ name, arguments }` of a fixed set of tools, each tool's arguments validated against its
 * JSON Schema with ajv (one Ajv instance per space: no shared global state).
 *
 * `sample()` generates random schema-valid calls (for random agents and fuzzing) with
 * {@link sampleJsonSchema}, which covers the subset of JSON Schema tool definitions use; an
 * optional mask (one entry per tool) restricts which tools may be chosen.
 *
 * @example
 * ```ts
 * const tools = new ToolCallSpace([
 *   { name: 'query', description: 'Run SQL', parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] } },
 * ]);
 * tools.contains({ name: 'query', arguments: { sql: 'SELECT 1' } }); // true
 * tools.validate({ name: 'query', arguments: {} }).errors;          // ["query: arguments must have required property 'sql'"]
 * tools.sample();                                                   // { name: 'query', arguments: { sql: 'x8 b' } }
 * ```
 */
export class ToolCallSpace extends Space<ToolCall, DiscreteMask> {
  readonly tools: readonly ToolDefinition[];
  private readonly validators: ReadonlyMap<string, ValidateFunction>;

  constructor(tools: readonly ToolDefinition[], seed?: number) {
    super(seed);
    if (tools.length === 0) throw new RangeError('ToolCallSpace needs at least one tool');
    // Tool schemas carry annotations (description, title, examples…) that ajv's strict mode rejects.
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validators = new Map<string, ValidateFunction>();
    for (const tool of tools) {
      if (validators.has(tool.name)) throw new RangeError(`ToolCallSpace: tool '${tool.name}' is defined twice`);
      try {
        validators.set(tool.name, ajv.compile(tool.parameters));
      } catch (error) {
        throw new RangeError(`ToolCallSpace: the parameters schema of tool '${tool.name}' is invalid: ${(error as Error).message}`);
      }
    }
    this.tools = tools.map((t) => structuredClone(t));
    this.validators = validators;
  }

  /** The names of the tools, in order. */
  get toolNames(): string[] {
    return this.tools.map((t) => t.name);
  }

  /** A random valid call; `mask[i]` falsy excludes tool `i`. */
  sample(mask?: DiscreteMask): ToolCall {
    let candidates = this.tools;
    if (mask !== undefined) {
      if (mask.length !== this.tools.length) throw new RangeError(`ToolCallSpace mask needs one entry per tool (${this.tools.length})`);
      candidates = this.tools.filter((_, i) => mask[i]);
      if (candidates.length === 0) throw new RangeError('ToolCallSpace mask excludes every tool');
    }
    const tool = this.rng.choice(candidates);
    return { name: tool.name, arguments: sampleJsonSchema(tool.parameters, this.rng) as Record<string, unknown> };
  }

  contains(x: unknown): x is ToolCall {
    return this.validate(x).ok;
  }

  /** Whether `call` is a valid call, and if not, why (unknown tool, missing or invalid arguments). */
  validate(call: unknown): ToolCallValidation {
    if (typeof call !== 'object' || call === null || Array.isArray(call)) {
      return { ok: false, errors: ['a tool call must be an object { name, arguments }'] };
    }
    const { name, arguments: args } = call as { name?: unknown; arguments?: unknown };
    if (typeof name !== 'string') return { ok: false, errors: ['a tool call needs a string `name`'] };
    const validator = this.validators.get(name);
    if (!validator) return { ok: false, errors: [`unknown tool '${name}'; available tools: ${this.toolNames.join(', ')}`] };
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return { ok: false, errors: [`${name}: \`arguments\` must be an object`] };
    }
    if (validator(args)) return { ok: true, errors: [] };
    return { ok: false, errors: (validator.errors ?? []).map((e) => `${name}: ${describeAjvError(e)}`) };
  }

  equals(other: Space<unknown, unknown>): boolean {
    return other instanceof ToolCallSpace && deepEqual(other.tools, this.tools);
  }

  toJSONSchema(): JSONSchema {
    return {
      oneOf: this.tools.map((tool) => ({
        type: 'object',
        title: tool.name,
        description: tool.description,
        properties: { name: { const: tool.name }, arguments: structuredClone(tool.parameters) },
        required: ['name', 'arguments'],
        additionalProperties: false,
      })),
      'x-space': 'ToolCallSpace',
    };
  }

  override toString(): string {
    return `ToolCallSpace(${this.toolNames.join(', ')})`;
  }
}

function describeAjvError(error: ErrorObject): string {
  const where = error.instancePath ? `arguments${error.instancePath.replaceAll('/', '.')}` : 'arguments';
  if (error.keyword === 'additionalProperties') {
    return `${where} has unexpected property '${String(error.params.additionalProperty)}'`;
  }
  if (error.keyword === 'enum') {
    return `${where} must be one of ${JSON.stringify(error.params.allowedValues)}`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}
