import type { SqlCell } from '../sandbox/query-result.js';

/**
 * One text-to-SQL question.
 *
 * @example
 * ```ts
 * const q: SqlQuestion = {
 *   id: 'train-0007', question: 'How many singers are there?',
 *   goldSql: 'SELECT count(*) FROM singer', dbId: 'concert_singer', tables: ['singer'],
 * };
 * ```
 */
export interface SqlQuestion {
  /** Stable id: `<split>-<index in the question file>` (BIRD: `<split>-<question_id>`), or the file's own `id`. */
  id: string;
  question: string;
  goldSql: string;
  dbId: string;
  /** As given by the dataset (bundled: easy/medium/hard/extra; BIRD: simple/moderate/challenging). */
  difficulty?: string;
  /** BIRD's external-knowledge hint, shown to the agent with the question. */
  evidence?: string;
  /** Tables the gold SQL reads (from the file, else found in the gold SQL). */
  tables?: string[];
}

/** The gold SQL's result, kept whole (up to the gold row cap) for judging answers against it. */
export interface GoldResult {
  columns: string[];
  /** Every row of the gold result (cells uncut), in the order SQLite returned them. */
  rows: SqlCell[][];
  rowCount: number;
  /** False when the gold result had more rows than the gold `fetchRows` cap. */
  rowCountExact: boolean;
}

/** A question left out of a dataset, and why (gold SQL failed, database missing, entry malformed). */
export interface SkippedQuestion {
  id: string;
  reason: string;
}
