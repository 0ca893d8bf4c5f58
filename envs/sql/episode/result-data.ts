import type { QueryResult, SqlCell } from '../sandbox/query-result.js';

/**
 * A query's result as data, beside the text table the model reads (`info.result`): the same rows
 * the table shows, so a scripted agent reads values without parsing Markdown. Cells are JSON-safe
 * (`SqlCell`: text, finite numbers, NULL as `null`; integers past 2^53 and blobs as text), so they
 * cross the server unchanged in JSON and MessagePack.
 */
export interface SqlResultData {
  /** Column names, in select order (duplicates kept). */
  columns: string[];
  /** The rows shown (at most `maxRows`, 20 by default), cells cut to `maxCellChars` as in the text. */
  rows: SqlCell[][];
  /** Rows the query returned: exact up to `fetchRows` (10,000), else that many with `row_count_exact` false. */
  row_count: number;
  /** False when counting stopped at `fetchRows`. */
  row_count_exact: boolean;
  /** True when `rows` is not the whole result: rows left out or cells cut. */
  truncated: boolean;
}

/**
 * The data of a sandboxed query's result, as `info.result` carries it.
 *
 * @example
 * ```ts
 * resultData(await pool.run(dbPath, 'SELECT count(*) FROM singer'));
 * // { columns: ['count(*)'], rows: [[6]], row_count: 1, row_count_exact: true, truncated: false }
 * ```
 */
export function resultData(result: QueryResult): SqlResultData {
  return {
    columns: [...result.columns],
    rows: result.rows.map((row) => [...row]),
    row_count: result.rowCount,
    row_count_exact: result.rowCountExact,
    truncated: result.truncated,
  };
}
