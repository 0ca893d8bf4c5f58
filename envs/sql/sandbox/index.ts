/**
 * The SQL sandbox: static screening of agent SQL, a pool of killable query processes with
 * limits, and an in-process schema reader. See docs/sql-sandbox.md for the safety model.
 */
export { SqlSandboxError, SQL_SANDBOX_ERROR_TYPES, isSqlSandboxErrorType, type SqlSandboxErrorType } from './errors.js';
export { DEFAULT_QUERY_LIMITS, GOLD_QUERY_LIMITS, resolveQueryLimits, type QueryLimits } from './limits.js';
export type { QueryResult, SqlCell } from './query-result.js';
export { checkReadOnlySql, READ_ONLY_PRAGMAS, MAX_SQL_CHARS, type ReadOnlySqlCheck } from './read-only-check.js';
export { tokenizeSql, type SqlToken, type SqlTokenKind, type TokenizeResult } from './sql-tokens.js';
export { QueryPool, type QueryPoolOptions } from './query-pool.js';
export { QueryLane } from './query-lane.js';
export type { IpcSerialization } from './query-process.js';
export { openReadOnlyDatabase, type SqliteConnection } from './read-only-connection.js';
export { executeReadQuery } from './execute-read-query.js';
export {
  SchemaReader,
  UnknownTableError,
  type TableDescription,
  type ColumnDescription,
  type ForeignKeyDescription,
} from './schema-reader.js';
export { SchemaReaderCache } from './schema-reader-cache.js';
export * from './query-result-cache.js';
