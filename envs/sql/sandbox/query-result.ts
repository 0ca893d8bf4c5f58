/**
 * One cell as returned by the sandbox: SQLite's NULL, a number (integers beyond 2^53 and
 * ±Infinity become strings), text, or a blob rendered as SQLite's literal `x'0a1b…'`.
 */
export type SqlCell = string | number | null;

/**
 * The result of one sandboxed query.
 *
 * @example
 * ```ts
 * const r = await pool.run(dbPath, 'SELECT name FROM singer');
 * console.log(`showing ${r.rows.length} of ${r.rowCount}${r.rowCountExact ? '' : '+'} rows`);
 * ```
 */
export interface QueryResult {
  /** Column names, in select order (duplicates kept). */
  columns: string[];
  /** At most `maxRows` rows; cells longer than `maxCellChars` are cut and end with "…". */
  rows: SqlCell[][];
  /** Rows counted: exact up to `fetchRows`, else `fetchRows` with `rowCountExact` false. */
  rowCount: number;
  /** False when the query had more than `fetchRows` rows and counting stopped. */
  rowCountExact: boolean;
  /** True when `rows` is not the whole result: rows dropped or cells cut. */
  truncated: boolean;
  /** Milliseconds from sending the query to receiving its result. */
  elapsedMs: number;
  /** Every fetched row (up to `fetchRows`), cells uncut: for judging and progress rewards. */
  fullRows?: SqlCell[][];
}
