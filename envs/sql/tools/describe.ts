import type { SqlToolSpec } from './tool-spec.js';

/**
 * `describe(table_name)`: a table's columns with types, primary and foreign keys, and row count.
 *
 * @example
 * ```ts
 * { name: 'describe', arguments: { table_name: 'singer' } }
 * ```
 */
export const DESCRIBE_TOOL: SqlToolSpec = {
  definition: {
    name: 'describe',
    description:
      "Show a table's columns (name, type, primary key, not-null), its foreign keys and its row count. Use it before writing SQL against a table.",
    parameters: {
      type: 'object',
      properties: {
        table_name: { type: 'string', minLength: 1, maxLength: 256, description: 'Name of a table in the database, as listed in the observation.' },
      },
      required: ['table_name'],
      additionalProperties: false,
    },
  },
  nameAliases: ['describetable', 'schema', 'tableschema', 'gettableschema', 'gettableinfo', 'tableinfo', 'desc', 'columns', 'getschema', 'inspect'],
  argumentAliases: { table: 'table_name', tablename: 'table_name', name: 'table_name', tbl: 'table_name', table_id: 'table_name' },
  positional: ['table_name'],
  example: (table) => ({ name: 'describe', arguments: { table_name: table } }),
};
