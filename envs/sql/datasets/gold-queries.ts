import type { QueryLimits } from '../sandbox/limits.js';
import type { QueryPool } from '../sandbox/query-pool.js';
import type { QueryResult } from '../sandbox/query-result.js';
import { databaseFile } from './dataset-layout.js';
import type { GoldResult, SkippedQuestion, SqlQuestion } from './sql-question.js';

/**
 * Run the gold SQL of `questions` on `pool` (all queued at once; the pool runs as many at a time
 * as it has processes). Returns the result of each question that ran and a skip entry, with the
 * sandbox's error, for each that failed.
 *
 * @example
 * ```ts
 * const { results, failed } = await runGoldQueries(pool, questions, databaseDir, GOLD_QUERY_LIMITS);
 * ```
 */
export async function runGoldQueries(
  pool: QueryPool,
  questions: readonly SqlQuestion[],
  databaseDir: string,
  limits: Partial<QueryLimits>,
): Promise<{ results: Map<string, GoldResult>; failed: SkippedQuestion[] }> {
  const results = new Map<string, GoldResult>();
  const failed: SkippedQuestion[] = [];
  await Promise.all(
    questions.map((q) =>
      pool.run(databaseFile(databaseDir, q.dbId), q.goldSql, limits).then(
        (result) => void results.set(q.id, toGoldResult(result)),
        (e: unknown) => void failed.push({ id: q.id, reason: `gold SQL failed (${errorLabel(e)})` }),
      ),
    ),
  );
  // Promise completion order varies; report skips in file order.
  const order = new Map(questions.map((q, i) => [q.id, i]));
  failed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return { results, failed };
}

/**
 * The gold view of a query result: every fetched row, cells uncut.
 *
 * @example
 * ```ts
 * toGoldResult(await pool.run(dbPath, goldSql, GOLD_QUERY_LIMITS)).rows;
 * ```
 */
export function toGoldResult(result: QueryResult): GoldResult {
  return {
    columns: result.columns,
    rows: result.fullRows ?? result.rows,
    rowCount: result.rowCount,
    rowCountExact: result.rowCountExact,
  };
}

function errorLabel(e: unknown): string {
  const type = (e as { errorType?: unknown }).errorType;
  const message = e instanceof Error ? e.message : String(e);
  return typeof type === 'string' ? `${type}: ${message}` : message;
}
