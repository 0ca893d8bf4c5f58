import { Box, type BoxDtype } from './box.js';
import { Dict } from './dict.js';
import { Discrete } from './discrete.js';
import { OneOf } from './one-of.js';
import { Sequence } from './sequence.js';
import type { AnySpace, JSONSchema } from './space.js';
import { Text } from './text.js';
import { ToolCallSpace, type ToolDefinition } from './tool-call.js';
import { Tuple } from './tuple.js';
import { GymError } from '../gym-error.js';

/** A JSON Schema that is not the export of one of the built-in spaces. */
export class SpaceSchemaError extends GymError {
  constructor(message: string) {
    super(`${message}. spaceFromJSONSchema rebuilds only schemas produced by Space.toJSONSchema() (tagged with 'x-space').`);
    this.name = 'SpaceSchemaError';
  }
}

/**
 * Rebuild a space from its {@link Space.toJSONSchema} export (e.g. a server's `/schema`): the
 * `x-space` tag names the class, and the schema's keywords give its parameters. Round trip:
 * `spaceFromJSONSchema(s.toJSONSchema()).equals(s)` is true for every built-in space.
 *
 * @example
 * ```ts
 * const space = spaceFromJSONSchema({ type: 'integer', minimum: 0, maximum: 2, 'x-space': 'Discrete' });
 * space.equals(new Discrete(3)); // true
 * ```
 */
export function spaceFromJSONSchema(schema: JSONSchema): AnySpace {
  const tag = schema['x-space'];
  switch (tag) {
    case 'Discrete': {
      const min = requireNumber(schema, 'minimum');
      return new Discrete(requireNumber(schema, 'maximum') - min + 1, min);
    }
    case 'Box': {
      const shape = schema['x-shape'] as number[];
      const low = (schema['x-low'] as (number | null)[]).map((v) => v ?? -Infinity);
      const high = (schema['x-high'] as (number | null)[]).map((v) => v ?? Infinity);
      return new Box(low, high, shape, { dtype: (schema['x-dtype'] as BoxDtype | undefined) ?? 'float' });
    }
    case 'Text':
      return new Text({
        maxLength: requireNumber(schema, 'maxLength'),
        minLength: requireNumber(schema, 'minLength'),
        charset: String(schema['x-charset'] ?? 'any'),
      });
    case 'Dict': {
      const properties = (schema.properties ?? {}) as Record<string, JSONSchema>;
      const children: Record<string, AnySpace> = {};
      for (const [key, sub] of Object.entries(properties)) children[key] = spaceFromJSONSchema(sub);
      return new Dict(children) as unknown as AnySpace;
    }
    case 'Tuple':
      return new Tuple(requireArray(schema, 'prefixItems').map(spaceFromJSONSchema)) as unknown as AnySpace;
    case 'Sequence':
      return new Sequence(spaceFromJSONSchema(schema.items as JSONSchema)) as unknown as AnySpace;
    case 'OneOf':
      return new OneOf(
        requireArray(schema, 'oneOf').map((branch) => spaceFromJSONSchema(requireArray(branch, 'prefixItems')[1] ?? {})),
      ) as unknown as AnySpace;
    case 'ToolCallSpace':
      return new ToolCallSpace(requireArray(schema, 'oneOf').map(toolFromBranch)) as unknown as AnySpace;
    default:
      throw new SpaceSchemaError(`unknown or missing 'x-space' tag ${JSON.stringify(tag)}`);
  }
}

function toolFromBranch(branch: JSONSchema): ToolDefinition {
  const properties = branch.properties as { name?: { const?: unknown }; arguments?: JSONSchema } | undefined;
  const name = properties?.name?.const;
  if (typeof name !== 'string' || !properties?.arguments) {
    throw new SpaceSchemaError('a ToolCallSpace branch needs properties.name.const and properties.arguments');
  }
  return { name, description: String(branch.description ?? ''), parameters: properties.arguments };
}

function requireNumber(schema: JSONSchema, key: string): number {
  const value = schema[key];
  if (typeof value !== 'number') throw new SpaceSchemaError(`${String(schema['x-space'])} schema needs a numeric '${key}'`);
  return value;
}

function requireArray(schema: JSONSchema, key: string): JSONSchema[] {
  const value = schema[key];
  if (!Array.isArray(value)) throw new SpaceSchemaError(`${String(schema['x-space'])} schema needs an array '${key}'`);
  return value as JSONSchema[];
}
