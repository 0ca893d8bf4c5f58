/**
 * Copies inside a value: a string literal or a number of a query continues one of the conversation's (the
 * question, the results and hints, earlier queries) rather than the model's spelling from memory.
 */
import type { SqlTokenNudge } from './sql-token-nudge.js';
import { isWordChar } from './conversation.js';
import { byFirstChar, startsOneOf } from './word-groups.js';

/** Logit bias of a copy inside a literal or a number: a nudge the model's own preference can overrule (chosen on `validation`: 2 and 4 tie, 8 loses). */
export const COPY_BIAS = 4;
/** Continuations looked at, at most: a short literal prefix can start hundreds of words. */
const MAX_CONTINUATIONS = 400;
/** Characters of each continuation kept: longer than any token. */
const CONTINUATION_CHARS = 24;

/** Where each occurrence of `prefix` in `text` starts a word (or, for numbers, a number), and what follows it. */
function continuations(text: string, prefix: string, startsAt: (i: number) => boolean): string[] {
  const out = new Set<string>();
  for (let i = text.indexOf(prefix); i >= 0 && i < text.length && out.size < MAX_CONTINUATIONS; i = text.indexOf(prefix, i + 1)) {
    if (startsAt(i)) out.add(text.slice(i + prefix.length, i + prefix.length + CONTINUATION_CHARS));
  }
  return [...out];
}

/**
 * Inside a single-quoted literal whose text so far is `prefix`: continue a word sequence of `text`, or close the
 * literal after a whole word.
 *
 * @example
 * ```ts
 * literalNudge('Question: Who is Victor Brooks?', 'Vic')?.favours('tor'); // true
 * ```
 */
export function literalNudge(text: string, prefix: string): SqlTokenNudge | undefined {
  const wordStart = (i: number) => !isWordChar(text[i - 1]) && (prefix.length > 0 || isWordChar(text[i]));
  const rests = continuations(text, prefix, wordStart);
  const closable = prefix.length > 0 && rests.some((r) => !isWordChar(r[0]));
  const opens = byFirstChar(rests);
  if (opens.size === 0 && !closable) return undefined;
  return { bias: COPY_BIAS, favours: (t) => (closable && t.startsWith("'")) || startsOneOf(opens, t) };
}

/**
 * Inside a number whose digits so far are `digits`: continue a number of `text`, or end it where such a number ends.
 *
 * @example
 * ```ts
 * numberNudge('Question: Rated above 1200?', '12')?.favours('00'); // true
 * ```
 */
export function numberNudge(text: string, digits: string): SqlTokenNudge | undefined {
  const numberStart = (i: number) => !/[\p{L}\p{N}_.]/u.test(text[i - 1] ?? ' ');
  const rests = continuations(text, digits, numberStart);
  // A point continues a number only before a digit: "at most 1900." ends its sentence, not a decimal.
  const continues = (r: string) => /^(?:[0-9]|\.[0-9])/.test(r);
  const longer = byFirstChar(rests.filter(continues));
  const closable = rests.some((r) => !continues(r) && !isWordChar(r[0]));
  if (longer.size === 0 && !closable) return undefined;
  return { bias: COPY_BIAS, favours: (t) => (closable && !/^[0-9]/.test(t)) || startsOneOf(longer, t) };
}
