/**
 * The rules a gold answer must meet to be kept: something to answer (at least one row, not a
 * bare zero count, no NULL cells) and small enough to say back as a value or a short list.
 */

/** At most this many rows in a gold result, so an agent can answer with the list itself. */
export const MAX_GOLD_ROWS = 20;

/** Longest cell text a gold answer may hold. */
export const MAX_GOLD_CELL_CHARS = 120;

/**
 * Why a gold result is unusable, or `undefined` when it is fine.
 *
 * @example
 * ```ts
 * goldResultProblem([[0]]);      // 'zero count'
 * goldResultProblem([['Jazz']]); // undefined
 * ```
 */
export function goldResultProblem(rows: readonly (readonly unknown[])[]): string | undefined {
  if (rows.length === 0) return 'empty result';
  if (rows.length > MAX_GOLD_ROWS) return `more than ${MAX_GOLD_ROWS} rows`;
  if (rows.some((r) => r.some((cell) => cell === null || cell === undefined))) return 'NULL cell';
  if (rows.length === 1 && rows[0]!.length === 1 && rows[0]![0] === 0) return 'zero count';
  if (rows.some((r) => r.some((cell) => typeof cell === 'string' && cell.length > MAX_GOLD_CELL_CHARS))) return 'cell too long';
  return undefined;
}
