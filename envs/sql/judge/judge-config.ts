import type { FloatTolerance } from './cell.js';

/** How answers are judged. */
export type AnswerMode = 'value' | 'sql' | 'either';

/**
 * How two numbers that are not both integers are compared: `'display'` (the default) — equal
 * when they are equal at the precision SQLEnv displays them (`roundForDisplay`: six significant
 * digits, at least two decimals) — or within a {@link FloatTolerance}. Integers always compare
 * exactly.
 */
export type NumberMatch = 'display' | FloatTolerance;

/** Settings of the judge; every field has a documented default in {@link DEFAULT_JUDGE_CONFIG}. */
export interface JudgeConfig {
  /**
   * What `answer(value)` must hold: `value` (the answer itself, the default), `sql` (a query
   * whose result is execution-matched against the gold result), or `either` (SQL when the value
   * reads as a SELECT/WITH statement, else a value). Both kinds use the same comparison.
   */
  answerMode: AnswerMode;
  /** How non-integer numbers compare, for value and SQL answers alike (default `'display'`). */
  numbers: NumberMatch;
  /**
   * Also accept an answer that lists each distinct row once when the gold result repeats rows.
   * Off by default: Spider compares bags, so a listing missing a duplicate row is wrong.
   */
  acceptDistinctRows: boolean;
}

/**
 * The seed project's float rule, 1% relative: available as `judge: { numbers: SEED_FLOAT_TOLERANCE }`,
 * never the default (an average of 1326.4 would accept 1327.4).
 *
 * @example
 * ```ts
 * const env = make('SQLEnv-v0', { judge: { numbers: SEED_FLOAT_TOLERANCE } });
 * ```
 */
export const SEED_FLOAT_TOLERANCE: Readonly<FloatTolerance> = Object.freeze({ relative: 0.01, absolute: 1e-9 });

/**
 * Defaults: answers are values; numbers compare at display precision; rows are a bag
 * (duplicates count) — the official Spider test-suite `result_eq`, read at the precision the
 * environment shows.
 *
 * @example
 * ```ts
 * const config = { ...DEFAULT_JUDGE_CONFIG, numbers: SEED_FLOAT_TOLERANCE };
 * ```
 */
export const DEFAULT_JUDGE_CONFIG: Readonly<JudgeConfig> = Object.freeze({
  answerMode: 'value',
  numbers: 'display',
  acceptDistinctRows: false,
});
