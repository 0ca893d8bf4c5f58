import type { FloatTolerance } from './cell.js';

/** How answers are judged. */
export type AnswerMode = 'value' | 'sql' | 'either';

/** Settings of the judge; every field has a documented default in {@link DEFAULT_JUDGE_CONFIG}. */
export interface JudgeConfig {
  /**
   * What `answer(value)` must hold: `value` (the answer itself, the default), `sql` (a query
   * whose result is execution-matched against the gold result), or `either` (SQL when the value
   * reads as a SELECT/WITH statement, else a value).
   */
  answerMode: AnswerMode;
  /** Tolerance for value answers: 1% relative, as the seed; integers always compare exactly. */
  valueTolerance: FloatTolerance;
  /** Tolerance for SQL answers: effectively exact, as Spider's evaluator (float noise only). */
  sqlTolerance: FloatTolerance;
  /** Accept a value answer that lists each distinct row once when the gold result repeats rows. */
  acceptDistinctRows: boolean;
}

/**
 * Defaults: answers are values, compared within 1% relative tolerance (integers exact), and may
 * list distinct rows; SQL answers compare within 1e-9 relative (float noise).
 *
 * @example
 * ```ts
 * const config = { ...DEFAULT_JUDGE_CONFIG, valueTolerance: { relative: 0, absolute: 0 } };
 * ```
 */
export const DEFAULT_JUDGE_CONFIG: Readonly<JudgeConfig> = Object.freeze({
  answerMode: 'value',
  valueTolerance: Object.freeze({ relative: 0.01, absolute: 1e-9 }),
  sqlTolerance: Object.freeze({ relative: 1e-9, absolute: 1e-12 }),
  acceptDistinctRows: true,
});
