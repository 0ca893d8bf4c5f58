import type { SqlToolSpec } from './tool-spec.js';

/** Rows `sample` returns when `n` is not given. */
export const DEFAULT_SAMPLE_ROWS = 5;
/** The most rows `sample` returns. */
export const MAX_SAMPLE_ROWS = 20;

/**
 * `sample(table_name, n = 5)`: the first `n` rows of a table (at most 20).
 *
 * @example
 * ```ts
 * { name: 'sample', arguments: { table_name: 'singer', n: 3 } }
 * ```
 */
export const SAMPLE_TOOL: SqlToolSpec = {
  definition: {
    name: 'sample',
    description: `Show the first n rows of a table (default ${DEFAULT_SAMPLE_ROWS}, at most ${MAX_SAMPLE_ROWS}) to see what its values look like.`,
    parameters: {
      type: 'object',
      properties: {
        table_name: { type: 'string', minLength: 1, maxLength: 256, description: 'Name of a table in the database, as listed in the observation.' },
        n: { type: 'integer', minimum: 1, maximum: MAX_SAMPLE_ROWS, default: DEFAULT_SAMPLE_ROWS, description: `Number of rows to show (1-${MAX_SAMPLE_ROWS}).` },
      },
      required: ['table_name'],
      additionalProperties: false,
    },
  },
  nameAliases: ['samplerows', 'preview', 'head', 'peek', 'rows', 'show', 'showrows', 'getrows', 'sampletable', 'browse'],
  argumentAliases: {
    table: 'table_name',
    tablename: 'table_name',
    name: 'table_name',
    tbl: 'table_name',
    limit: 'n',
    rows: 'n',
    count: 'n',
    num_rows: 'n',
    k: 'n',
    number: 'n',
  },
  positional: ['table_name', 'n'],
  example: (table) => ({ name: 'sample', arguments: { table_name: table, n: DEFAULT_SAMPLE_ROWS } }),
};
