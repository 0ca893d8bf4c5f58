import type { ActionForm, ActionRepair, SqlErrorType } from './actions/action-types.js';
import type { SqlResultData } from './episode/result-data.js';
import type { SqlFeedback } from './feedback/sql-feedback.js';
import type { RewardComponents } from './reward/step-reward.js';

/**
 * The `info` of a SQLEnv step (docs/sql.md, "Observation"). A type alias, not an interface, so it
 * is a Gymnasium `Info` (`Record<string, unknown>`) as it is.
 *
 * @example
 * ```ts
 * const [, , , , info] = await env.step({ name: 'query', arguments: { sql: 'SELECT count(*) FROM singer' } });
 * if (info.result) console.log(info.result.columns, info.result.rows[0]); // ['count(*)'] [6]
 * ```
 */
export type SqlStepInfo = {
  /** The tool that ran, or `null` when the action could not be read. */
  tool: string | null;
  /** The shape the action arrived in. */
  action_form: ActionForm | null;
  error_type: SqlErrorType | null;
  repairs: ActionRepair[];
  reward_components: RewardComponents;
  /** The shaping potential Φ after the step. */
  potential: number;
  /**
   * The progress shaping paid so far, which the episode's end takes back: a trainer that cuts an
   * episode before it ends subtracts it, so shaping sums to zero over every episode (0 once over).
   */
  shaping_potential: number;
  /** What went wrong or what a query found, as data (docs/sql.md, "Feedback"); the observation's text renders it. */
  feedback?: SqlFeedback[];
  question_id: string;
  /** A successful query's result as data (the rows its text table shows); `null` on every other step. */
  result: SqlResultData | null;
  /** After an answer: why it was judged so. */
  verdict_reason?: string;
  /** At the end of an episode (see docs/sql.md for each). */
  is_correct?: boolean;
  gold_result_seen?: boolean;
  answer_repeats_query?: boolean;
  gold_literals_written?: boolean;
  retried_after_failure?: boolean;
  recovered_after_failure?: boolean;
  gold_sql?: string;
};
