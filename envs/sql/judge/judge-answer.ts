import { answerCandidates } from './answer-candidates.js';
import { resultsMatch } from './compare-results.js';
import { DEFAULT_JUDGE_CONFIG, type JudgeConfig, type NumberMatch } from './judge-config.js';
import { hasTopLevelOrderBy } from './order-by.js';

/** The gold side of a judgement: the gold SQL (for ORDER BY) and its full result rows. */
export interface GoldAnswer {
  sql: string;
  rows: readonly (readonly unknown[])[];
}

/** A verdict with the reason, for `info` and debugging. */
export interface Verdict {
  correct: boolean;
  reason: string;
}

/**
 * Judge an `answer(value)` against the gold result: every reading of the value (see
 * `answerCandidates`) is compared under Spider test-suite semantics (`resultsMatch`: a bag of
 * rows, any column order, numbers at display precision), ordered only when the gold SQL has a
 * top-level ORDER BY. A single-cell gold result therefore accepts the bare scalar, and
 * `"1, 2, 3"` matches a one-column gold result of 1, 2, 3.
 *
 * @example
 * ```ts
 * judgeValueAnswer('Answer: 1,234', { sql: 'SELECT count(*) FROM t', rows: [[1234]] }).correct; // true
 * ```
 */
export function judgeValueAnswer(value: unknown, gold: GoldAnswer, config: Partial<JudgeConfig> = {}): Verdict {
  const cfg = { ...DEFAULT_JUDGE_CONFIG, ...config };
  const candidates = answerCandidates(value);
  if (candidates.length === 0) return { correct: false, reason: 'the answer is empty' };
  const ordered = hasTopLevelOrderBy(gold.sql);
  for (const table of candidates) {
    if (resultsMatch(table, gold.rows, { ordered, numbers: cfg.numbers, ignoreDuplicates: cfg.acceptDistinctRows })) {
      return { correct: true, reason: 'the answer matches the gold result' };
    }
  }
  return { correct: false, reason: `the answer does not match the gold result (${gold.rows.length} row(s)${ordered ? ', ordered' : ''})` };
}

/**
 * Execution match for agents that answer with SQL: the predicted query's rows against the gold
 * rows with the same comparison as value answers (Spider's `result_eq`: bag of rows unless
 * `ordered`, any column order, NULL equals NULL, numbers at display precision by default).
 *
 * @example
 * ```ts
 * executionMatch([[2], [1]], [[1], [2]], { ordered: false }); // true
 * executionMatch([[2], [1]], [[1], [2]], { ordered: true });  // false
 * ```
 */
export function executionMatch(
  predRows: readonly (readonly unknown[])[],
  goldRows: readonly (readonly unknown[])[],
  options: { ordered: boolean; numbers?: NumberMatch; ignoreDuplicates?: boolean },
): boolean {
  return resultsMatch(predRows, goldRows, {
    ordered: options.ordered,
    numbers: options.numbers ?? DEFAULT_JUDGE_CONFIG.numbers,
    ignoreDuplicates: options.ignoreDuplicates ?? false,
  });
}

/**
 * Whether an answer value should be run as SQL under `answerMode: 'either'`: text that starts
 * like a query (`SELECT`, `WITH`), possibly in a code fence.
 *
 * @example
 * ```ts
 * looksLikeSql('SELECT name FROM singer'); // true
 * looksLikeSql('Joe');                     // false
 * ```
 */
export function looksLikeSql(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const text = value.trim().replace(/^```(?:sql)?\s*/i, '');
  return /^(?:SELECT|WITH)\b[\s\S]*\bFROM\b|^SELECT\b/i.test(text);
}

/**
 * The SQL text of an answer value (code fence removed).
 *
 * @example
 * ```ts
 * answerSqlText('```sql\nSELECT 1\n```'); // 'SELECT 1'
 * ```
 */
export function answerSqlText(value: string): string {
  return value.trim().replace(/^```(?:sql)?\s*/i, '').replace(/```\s*$/, '').trim();
}
