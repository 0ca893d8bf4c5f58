/**
 * Caps applied to one query. Every cap keeps the memory and time of a query bounded whatever the
 * SQL asks for; the defaults suit an agent reading results as text.
 */
export interface QueryLimits {
  /** Wall-clock limit for one query, in milliseconds; past it the query's process is killed. */
  timeoutMs: number;
  /** Rows returned in {@link QueryResult.rows} (what an agent reads). */
  maxRows: number;
  /** Rows fetched and counted before counting stops (`rowCountExact` becomes false). */
  fetchRows: number;
  /** Characters kept per cell in {@link QueryResult.rows}; longer cells are cut with "…". */
  maxCellChars: number;
  /** Approximate size cap, in bytes, of all fetched rows; past it the query fails with `result_too_large`. */
  maxResultBytes: number;
}

/**
 * Defaults: 2 s, 20 rows shown, 10,000 rows counted, 200 characters per cell, 1 MiB per result.
 *
 * @example
 * ```ts
 * const limits = { ...DEFAULT_QUERY_LIMITS, timeoutMs: 5_000 };
 * ```
 */
export const DEFAULT_QUERY_LIMITS: Readonly<QueryLimits> = Object.freeze({
  timeoutMs: 2_000,
  maxRows: 20,
  fetchRows: 10_000,
  maxCellChars: 200,
  maxResultBytes: 1024 * 1024,
});

/**
 * Defaults for executing a dataset's gold SQL: BIRD's 30 s, and room to keep whole results
 * (up to 100,000 rows, 64 MiB) so that answers can be judged against them.
 *
 * @example
 * ```ts
 * await pool.run(dbPath, goldSql, GOLD_QUERY_LIMITS);
 * ```
 */
export const GOLD_QUERY_LIMITS: Readonly<QueryLimits> = Object.freeze({
  timeoutMs: 30_000,
  maxRows: 20,
  fetchRows: 100_000,
  maxCellChars: 200,
  maxResultBytes: 64 * 1024 * 1024,
});

/**
 * Merge `overrides` over `base` and check every value is a positive integer.
 * Throws a RangeError naming the bad field.
 *
 * @example
 * ```ts
 * resolveQueryLimits({ timeoutMs: 500 }); // { timeoutMs: 500, maxRows: 20, … }
 * ```
 */
export function resolveQueryLimits(
  overrides: Partial<QueryLimits> = {},
  base: Readonly<QueryLimits> = DEFAULT_QUERY_LIMITS,
): QueryLimits {
  const merged: QueryLimits = { ...base };
  for (const key of Object.keys(base) as (keyof QueryLimits)[]) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 1 || !Number.isInteger(value)) {
      throw new RangeError(`query limit ${key} must be a positive integer, got ${String(value)}`);
    }
    merged[key] = value;
  }
  return merged;
}
