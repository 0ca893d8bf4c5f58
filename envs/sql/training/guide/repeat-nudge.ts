/** The answer that repeats its query: the protocol SFT teaches (answer with the query whose result you saw). */
import type { ConversationQuery } from './conversation.js';
import type { SqlTokenNudge } from './sql-token-nudge.js';
import { continuesText } from './word-groups.js';

/**
 * Logit bias of repeating the latest query in an SQL answer: in effect a constraint. On `validation` 4, 8 and 100 tie;
 * since the guide asks for a retry after a failed query (Attempt 24), 100 keeps the answer to the retry that ran where 4
 * let the model's memory take over (`MAX(sign)` after `MAX(start_date)` ran): +2 and +4 questions of 226 on
 * `validation_unseen_db`.
 */
export const REPEAT_BIAS = 100;

/**
 * In an answer's value whose SQL so far (`answer`) has repeated the latest query: that query's next characters, and
 * the string's end after them. Not after a query that failed: no answer, and the model's own rewrite may be one.
 *
 * @example
 * ```ts
 * repeatNudge({ sql: 'SELECT 1', tables: [], failed: false, opening: undefined, unknownColumn: undefined, misplacedValue: undefined, linkedRewrite: undefined }, 'SELECT ')?.favours('1'); // true
 * ```
 */
export function repeatNudge(latest: ConversationQuery | undefined, answer: string): SqlTokenNudge | undefined {
  if (latest === undefined || latest.failed || !latest.sql.startsWith(answer)) return undefined;
  const rest = `${latest.sql.slice(answer.length)}"`;
  return { bias: REPEAT_BIAS, favours: (t) => continuesText(rest, t) };
}
