/**
 * A section a recipe adds to the training configuration: the trainer's schema knows nothing of
 * what an environment's recipe needs (the SQL recipe's generated databases, its oracle's SFT
 * data…), so the recipe declares its own top-level section, and the config loader validates,
 * defaults and documents it beside the trainer's options.
 */
import type { ConfigSchemaNode } from './schema-nodes.js';
import type { TrainConfig } from './schema.js';

/**
 * A recipe's config section: its top-level key, the JSON Schema of its value (an object node; unknown keys are
 * refused with a suggestion, defaults are filled), the options that moved into it from the trainer's sections (so a
 * config that still uses an old path is told the new one), and checks across options that a schema cannot express.
 *
 * @example
 * ```ts
 * const section: ConfigSection<'guess', { hints: boolean }> = {
 *   key: 'guess',
 *   schema: schemaObject('The guessing recipe.', { hints: schemaBoolean('Say higher or lower.', true) }),
 * };
 * resolveTrainConfig({ guess: { hints: false } }, section).guess.hints; // false
 * ```
 */
export interface ConfigSection<Key extends string, Value> {
  /** The top-level key of the section (must not be one of the trainer's own). */
  readonly key: Key;
  /** The section's JSON Schema: an object node whose properties are its options. */
  readonly schema: ConfigSchemaNode;
  /** Old dotted option paths in the trainer's sections and the path each moved to, e.g. `'env.generated' → 'sql.generated'`. */
  readonly moved?: Readonly<Record<string, string>>;
  /** Problems across options (each a sentence that says what to change), checked after the schema; none: an empty list. */
  check?(config: TrainConfig & Record<Key, Value>): string[];
}
