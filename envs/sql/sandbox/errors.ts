import type { UnknownColumnFeedback, UnknownTableFeedback } from '../feedback/sql-feedback.js';
import { SqlEnvError } from '../sql-env-error.js';

/**
 * The four ways a sandboxed query can fail, as seen by an agent.
 *
 * - `sql_error`: SQLite rejected the statement (syntax, unknown table or column, bad parameter).
 * - `forbidden_sql`: the statement would write, change the connection, or is not a single read.
 * - `timeout`: the query ran past its time limit and its process was killed.
 * - `result_too_large`: the result (or the memory the query needed) passed a cap.
 */
export type SqlSandboxErrorType = 'sql_error' | 'forbidden_sql' | 'timeout' | 'result_too_large';

/**
 * Every error type, in a fixed order (useful for metrics and exhaustive tests).
 *
 * @example
 * ```ts
 * const counts = Object.fromEntries(SQL_SANDBOX_ERROR_TYPES.map((t) => [t, 0]));
 * ```
 */
export const SQL_SANDBOX_ERROR_TYPES: readonly SqlSandboxErrorType[] = [
  'sql_error',
  'forbidden_sql',
  'timeout',
  'result_too_large',
];

/**
 * The only error a {@link QueryPool} rejects with. The message is written for the agent that
 * sent the query: it says what went wrong and what to do instead. Where SQLite named a table or
 * column that does not exist, `feedback` holds what the message lists (the tables, or the named
 * tables' columns) as data, and the message is rendered from it.
 *
 * @example
 * ```ts
 * try {
 *   await pool.run(dbPath, 'DELETE FROM singer');
 * } catch (e) {
 *   if (e instanceof SqlSandboxError) console.log(e.errorType, e.message); // forbidden_sql …
 * }
 * ```
 */
export class SqlSandboxError extends SqlEnvError {
  override readonly name = 'SqlSandboxError';

  constructor(
    readonly errorType: SqlSandboxErrorType,
    message: string,
    readonly feedback?: SqlSandboxFeedback,
  ) {
    super(message);
  }
}

/** The feedback a sandbox error can carry: an unknown table or column, with what exists. */
export type SqlSandboxFeedback = UnknownTableFeedback | UnknownColumnFeedback;

/**
 * True when `value` is a {@link SqlSandboxErrorType}.
 *
 * @example
 * ```ts
 * isSqlSandboxErrorType('timeout'); // true
 * ```
 */
export function isSqlSandboxErrorType(value: unknown): value is SqlSandboxErrorType {
  return typeof value === 'string' && (SQL_SANDBOX_ERROR_TYPES as readonly string[]).includes(value);
}
