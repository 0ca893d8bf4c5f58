import type { SqlToolSpec } from './tool-spec.js';

/**
 * `query(sql)`: run one read-only SQL statement (SQLite dialect); the result comes back as a
 * table with its row count, cut to the row limit.
 *
 * @example
 * ```ts
 * { name: 'query', arguments: { sql: 'SELECT count(*) FROM singer' } }
 * ```
 */
export const QUERY_TOOL: SqlToolSpec = {
  definition: {
    name: 'query',
    description:
      'Run one read-only SQL statement (SQLite dialect: SELECT or WITH ... SELECT) and see the result table with its row count. Long results are cut; errors explain what went wrong.',
    parameters: {
      type: 'object',
      properties: {
        sql: { type: 'string', minLength: 1, maxLength: 100_000, description: 'A single read-only SQLite statement.' },
      },
      required: ['sql'],
      additionalProperties: false,
    },
  },
  nameAliases: ['runquery', 'sql', 'execute', 'exec', 'executesql', 'runsql', 'sqlquery', 'executequery', 'run', 'querydb', 'querydatabase'],
  argumentAliases: { query: 'sql', sql_query: 'sql', sqlquery: 'sql', statement: 'sql', code: 'sql', q: 'sql', sql_statement: 'sql', command: 'sql' },
  positional: ['sql'],
  example: (table) => ({ name: 'query', arguments: { sql: `SELECT * FROM ${table} LIMIT 5` } }),
};
