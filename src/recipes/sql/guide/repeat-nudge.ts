/** The answer that repeats its query: the protocol SFT teaches (answer with the query whose result you saw). */
import type { ConversationQuery } from './conversation.js';
import type { TokenNudge } from '../../../lm/compute/decoding-guide.js';
import { continuesText } from './word-groups.js';

/**
 * Logit bias of repeating the latest query in an SQL answer: in effect a constraint, because after a retry a gentler
 * nudge lets the model's memory of the failed query take over again (`MAX(sign)` after `MAX(start_date)` ran).
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
export function repeatNudge(latest: ConversationQuery | undefined, answer: string): TokenNudge | undefined {
  if (latest === undefined || latest.failed || !latest.sql.startsWith(answer)) return undefined;
  const rest = `${latest.sql.slice(answer.length)}"`;
  return { bias: REPEAT_BIAS, favours: (t) => continuesText(rest, t) };
}
