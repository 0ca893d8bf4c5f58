import type { SqlDataset } from '../datasets/sql-dataset.js';
import { tablesInSql } from '../sandbox/tables-in-sql.js';
import { SqlEnvError } from '../sql-env-error.js';

/** What the privileged baseline agents may know about a question: its gold SQL, tables and result. */
export interface GoldPlan {
  goldSql: string;
  tables: string[];
  rows: unknown[][];
}

/**
 * Looks up the gold plan of a question for the oracle and noisy baselines (which are allowed to
 * cheat: they measure the environment, not a policy).
 *
 * @example
 * ```ts
 * const plan = await goldPlan(dataset, info.question_id as string, obs.tables);
 * ```
 */
export async function goldPlan(dataset: SqlDataset, questionId: string, dbTables: readonly string[]): Promise<GoldPlan> {
  const question = dataset.question(questionId);
  if (!question) throw new SqlEnvError(`the oracle has no question "${questionId}" in ${dataset.name}/${dataset.split}`);
  const gold = await dataset.goldResult(question);
  const tables = question.tables && question.tables.length > 0 ? question.tables : tablesInSql(question.goldSql, dbTables);
  return { goldSql: question.goldSql, tables: [...tables], rows: gold.rows };
}
