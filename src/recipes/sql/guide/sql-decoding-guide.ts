/**
 * Guided decoding for SQLEnv episodes (the trainer's `DecodingGuide`, in the manner of PICARD's
 * schema-checked decoding for text-to-SQL): while a policy writes SQL, copies from the conversation
 * are favoured over spellings from memory. A small model knows *that* the question's name goes into
 * the `WHERE` clause and *which* of the listed tables it needs far more often than it can spell
 * either:
 *
 * - inside a string literal, tokens that continue a word sequence of the conversation (the question,
 *   the results and hints, earlier queries) or one of the question's dates in ISO form ("June 29, 2010" is
 *   `2010-06-29`), or close the literal where such a sequence ends; a LIKE pattern's `%` aside;
 * - inside a number, digits that continue a number of the conversation;
 * - where a value starts, the question's values that the query has not written yet (BRIDGE-style value linking with
 *   a coverage penalty): a literal after the query's first one, a date begun, and a number where the query may
 *   write one — the question's first number not written yet, as ranges are said low to high;
 * - after `FROM` or `JOIN`, one of the tables the observation lists (a subquery there, `FROM (SELECT …`, is
 *   not favoured: for models that write them, `rollout.guidedDecoding: "off"`), and more gently one the
 *   question names ("How many readings…" → `reading`);
 * - elsewhere in a query, where the conversation shows every table's columns (SQLEnv's `listColumns`, or
 *   every table described), a word of the query stays a name the schema has, a keyword or function of
 *   SQLite, or an alias the query defines: PICARD's check that a query names only what exists. Where it
 *   shows only some tables' columns (an unknown-column error lists those of the tables the query named),
 *   the check holds while the query names only those tables: the rewrite after such an error;
 * - where such a query names a column, more gently, a shown column the question names ("start date" →
 *   `start_date`);
 * - in an answer's SQL, while it repeats the latest query that ran, that query's continuation, on top of
 *   the nudges above: the protocol SFT teaches (answer with the query whose result you saw);
 * - at the start of a turn after a failed query (the first), a query call's opening: the rewrite the error
 *   asks for, held to the names the error lists, rather than an answer with SQL that already failed; in that
 *   rewrite, after an unknown-column error, the failed query's text, and in the column's place a column the
 *   error listed. The same after a query that found nothing where SQLEnv's value hint names another column that
 *   holds a compared value (`port.city has 'Lisbon'`): that column in the compared one's place; and where the hint
 *   links a value of the question to a column instead (`The question's 'Porto' is in port.city.`), the failed query
 *   with that comparison (`city = 'Porto'`) in place of the one that found nothing.
 *
 * The guide reads only what the policy has been shown, and reads it as data: the episode's observations, the feedback
 * in its infos (unknown columns with the columns that exist, values found in no row with where they are), the
 * policy's earlier turns, and for copies the transcript's text. It reads the episode once per turn, when made for a
 * row (`guide/conversation.ts`), and at each token only what the turn has written.
 */

import { readConversation, type SqlGuideContext } from './conversation.js';
import { dateNudge, literalNudge, numberNudge, numberStartNudge, unusedLiteralNudge } from './copy-nudges.js';
import { questionValues } from './question-values.js';
import { repeatNudge } from './repeat-nudge.js';
import { linkedRewriteNudges, repairNudges, repairSite, retryNudge } from './retry-nudge.js';
import { schemaNudges } from './schema-nudges.js';
import type { NextTokenGuide, TokenNudge } from '../../../lm/compute/decoding-guide.js';

export { COPY_BIAS, DATE_BIAS, UNUSED_VALUE_BIAS } from './copy-nudges.js';
export { REPEAT_BIAS } from './repeat-nudge.js';
export { REPAIR_BIAS, REPAIR_SLOT_BIAS, RETRIES, RETRY_BIAS } from './retry-nudge.js';
export { COLUMN_COPY_BIAS, IDENTIFIER_BIAS, TABLE_BIAS, TABLE_COPY_BIAS } from './schema-nudges.js';

/** The JSON string value still being written at the end of `generatedText` (`"key": "text…`), with its key, or undefined. */
function openString(generatedText: string): { key: string; text: string } | undefined {
  const m = /"([^"\\]*)"\s*:\s*"((?:[^"\\]|\\.)*)$/.exec(generatedText);
  return m ? { key: m[1]!, text: m[2]! } : undefined;
}

/**
 * The guide of a SQLEnv turn (the trainer's `DecodingGuide`): made once from the episode so far (its observations and
 * infos, the policy's turns, the transcript), it returns for the text the turn has written so far the nudges for its next token —
 * the spelling nudges, and in an answer that has so far repeated the latest query, the repeat nudge too (their
 * biases add up) — or undefined where it has nothing to say.
 *
 * @example
 * ```ts
 * const [obs, info] = await env.reset({ seed: 0 }); // 'Count the venues in Hamburg.', tables artist and venue
 * const next = sqlDecodingGuide({ observations: [obs], infos: [info], turns: [], transcript: [renderObservation(obs)] });
 * [next('{"sql":"SELECT COUNT(*) FROM venue WHERE city = \'Ham')].flat()[0]?.favours('burg'); // true
 * [next('{"sql":"SELECT COUNT(*) FROM')].flat()[0]?.favours(' venue'); // true
 * ```
 */
export function sqlDecodingGuide(context: SqlGuideContext): NextTokenGuide {
  const conversation = readConversation(context);
  const schema = schemaNudges(conversation);
  const values = questionValues(conversation.questionText);
  const linked = conversation.latestQuery?.linkedRewrite;
  const repair = linked !== undefined ? linkedRewriteNudges(linked) : repairNudges(conversation.latestQuery?.sql ?? '', repairSite(conversation));
  // A literal copies from the conversation and from the question's dates as SQLite writes them.
  const copyText = [conversation.text, ...values.dates].join('\n');
  /** Inside a literal, a number, a table name or a query's words. */
  const spelling = (generatedText: string, open: { key: string; text: string } | undefined): TokenNudge[] => {
    const one = (nudge: TokenNudge | undefined) => (nudge ? [nudge] : []);
    if ((generatedText.split("'").length - 1) % 2 === 1) {
      const prefix = generatedText.slice(generatedText.lastIndexOf("'") + 1);
      // A quote in JSON text outside the SQL string (an answer's value, say) is not a literal.
      if (prefix.includes('"')) return [];
      const copy = one(literalNudge(copyText, prefix));
      if (open === undefined) return copy;
      const before = open.text.slice(0, open.text.lastIndexOf("'"));
      const written = [...before.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!);
      return [...copy, ...one(prefix === '' ? unusedLiteralNudge(values, written) : dateNudge(values, prefix, written))];
    }
    const table = /\b(?:FROM|JOIN)(\s+[A-Za-z0-9_]*)?$/i.exec(generatedText);
    if (table) return schema.afterFromOrJoin(table[1]?.trimStart());
    const digits = /(?<![\p{L}\p{N}_.])[0-9]+$/u.exec(generatedText);
    if (digits) return one(numberNudge(conversation.text, digits[0]));
    // The SQL of a query or SQL answer being written: an open JSON string that starts with SELECT or WITH.
    const sql = open?.text;
    return sql !== undefined && /^\s*(?:SELECT|WITH)\b/i.test(sql) ? [...schema.inQuery(sql), ...one(numberStartNudge(values, sql))] : [];
  };
  return (generatedText) => {
    const retry = retryNudge(conversation, generatedText);
    if (retry) return retry;
    const open = openString(generatedText);
    const repeat = open?.key === 'value' ? repeatNudge(conversation.latestQuery, open.text) : open?.key === 'sql' ? repair(open.text) : undefined;
    const nudges = [...(repeat ? [repeat] : []), ...spelling(generatedText, open)];
    return nudges.length === 0 ? undefined : nudges.length === 1 ? nudges[0] : nudges;
  };
}
