/**
 * The JSON Schema nodes a training configuration is declared with: the node type and small
 * builders for its options. The trainer's schema and every recipe's config section use them, so
 * each option carries a `description` and a `default` that the generated option table shows.
 */

/** A JSON Schema node as used here (a subset, enough for validation with defaults and docs generation). */
export interface ConfigSchemaNode {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: readonly unknown[];
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  properties?: Record<string, ConfigSchemaNode>;
  additionalProperties?: boolean | ConfigSchemaNode;
  items?: ConfigSchemaNode;
  required?: string[];
}

/**
 * An object section: unknown keys are refused (and reported with a suggestion), missing ones defaulted.
 *
 * @example
 * ```ts
 * schemaObject('Checkpoints.', { keep: schemaInt('Checkpoints kept.', 2, 1) });
 * ```
 */
export const schemaObject = (description: string, properties: Record<string, ConfigSchemaNode>): ConfigSchemaNode => ({
  type: 'object',
  description,
  properties,
  additionalProperties: false,
  default: {},
});

/**
 * A number option.
 *
 * @example
 * ```ts
 * schemaNumber('Peak learning rate.', 1e-4, { exclusiveMinimum: 0 });
 * ```
 */
export const schemaNumber = (description: string, def: number, extra: Partial<ConfigSchemaNode> = {}): ConfigSchemaNode => ({ type: 'number', description, default: def, ...extra });

/**
 * An integer option of at least `min`.
 *
 * @example
 * ```ts
 * schemaInt('Optimizer steps of GRPO.', 40);
 * ```
 */
export const schemaInt = (description: string, def: number, min = 0): ConfigSchemaNode => ({ type: 'integer', description, default: def, minimum: min });

/**
 * A string option.
 *
 * @example
 * ```ts
 * schemaString('Registered environment id.', 'SQLEnv-v0');
 * ```
 */
export const schemaString = (description: string, def: string): ConfigSchemaNode => ({ type: 'string', description, default: def });

/**
 * A string option limited to `values`.
 *
 * @example
 * ```ts
 * schemaEnum('LR decay after warm-up.', ['constant', 'linear', 'cosine'], 'constant');
 * ```
 */
export const schemaEnum = (description: string, values: readonly string[], def: string): ConfigSchemaNode => ({ type: 'string', enum: values, description, default: def });

/**
 * A boolean option.
 *
 * @example
 * ```ts
 * schemaBoolean('Write dashboard.html into the run directory.', true);
 * ```
 */
export const schemaBoolean = (description: string, def: boolean): ConfigSchemaNode => ({ type: 'boolean', description, default: def });

/**
 * An array-of-strings option.
 *
 * @example
 * ```ts
 * schemaStrings('Held-out test splits.', ['eval']);
 * ```
 */
export const schemaStrings = (description: string, def: readonly string[]): ConfigSchemaNode => ({ type: 'array', items: { type: 'string' }, description, default: [...def] });
