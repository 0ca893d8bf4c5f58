/**
 * Copies inside a value: a string literal or a number of a query continues one of the conversation's (the
 * question, the results and hints, earlier queries) rather than the model's spelling from memory.
 */
import type { TokenNudge } from '../../../lm/compute/decoding-guide.js';
import { isWordChar } from './conversation.js';
import { CONTINUATION_CHARS, numbersIn, type QuestionValues } from './question-values.js';
import { byFirstChar, startsOneOf } from './word-groups.js';

/**
 * Logit bias of a copy inside a literal or a number: a nudge the model's own preference can overrule, so a value the
 * model means to write differently (a date it turns into ISO form) is not forced into the conversation's spelling.
 */
export const COPY_BIAS = 8;
/**
 * Logit bias, on top of the copy, of a value of the question that the query has not written yet, where a value starts:
 * a small model that has written one of the values a question lists tends to write it again (`IN ('gold', 'gold',
 * 'gold')` for "bronze, silver or gold"; `BETWEEN 59 AND 59` for "from $39 to $65"). A coverage penalty, as
 * translation decoders have one for source words already translated.
 */
export const UNUSED_VALUE_BIAS = 8;
/** Logit bias, on top of the copy, of a question's date in ISO form that the query has not written yet: gentler than a copy, as a date's form is the model's to choose. */
export const DATE_BIAS = 4;
/** Continuations looked at, at most: a short literal prefix can start hundreds of words. */
const MAX_CONTINUATIONS = 400;

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
export function literalNudge(text: string, prefix: string): TokenNudge | undefined {
  // A LIKE pattern's words are copies too: `'%Semi` continues "Seminar", and `%'` closes it.
  const pattern = prefix.startsWith('%');
  const typed = pattern ? prefix.slice(1) : prefix;
  const wordStart = (i: number) => !isWordChar(text[i - 1]) && (typed.length > 0 || isWordChar(text[i]));
  const rests = continuations(text, typed, wordStart);
  const closable = typed.length > 0 && rests.some((r) => !isWordChar(r[0]));
  const opens = byFirstChar(rests);
  if (opens.size === 0 && !closable) return undefined;
  const closes = (t: string) => t.startsWith("'") || (pattern && t.startsWith('%'));
  return { bias: COPY_BIAS, favours: (t) => (closable && closes(t)) || startsOneOf(opens, t) };
}

/**
 * Inside a number whose digits so far are `digits`: continue a number of `text`, or end it where such a number ends.
 *
 * @example
 * ```ts
 * numberNudge('Question: Rated above 1200?', '12')?.favours('00'); // true
 * ```
 */
export function numberNudge(text: string, digits: string): TokenNudge | undefined {
  const numberStart = (i: number) => !/[\p{L}\p{N}_.]/u.test(text[i - 1] ?? ' ');
  const rests = continuations(text, digits, numberStart);
  // A point continues a number only before a digit: "at most 1900." ends its sentence, not a decimal.
  const continues = (r: string) => /^(?:[0-9]|\.[0-9])/.test(r);
  const longer = byFirstChar(rests.filter(continues));
  const closable = rests.some((r) => !continues(r) && !isWordChar(r[0]));
  if (longer.size === 0 && !closable) return undefined;
  return { bias: COPY_BIAS, favours: (t) => (closable && !/^[0-9]/.test(t)) || startsOneOf(longer, t) };
}

/**
 * Where a literal opens in a query that has already written `written` literals: the question's word sequences that
 * do not start with one of them. Undefined before the query's first literal (the copy nudge alone speaks there) and
 * where every value is written.
 *
 * @example
 * ```ts
 * const values = questionValues('Tiers bronze, silver or gold?');
 * unusedLiteralNudge(values, ['gold'])?.favours('silver'); // true
 * unusedLiteralNudge(values, ['gold'])?.favours('gold'); // false
 * ```
 */
export function unusedLiteralNudge(values: QuestionValues, written: readonly string[]): TokenNudge | undefined {
  if (written.length === 0) return undefined;
  const used = written.map((w) => w.toLowerCase()).filter((w) => w.length > 0);
  const isUsed = (start: string) => used.some((w) => start.toLowerCase().startsWith(w) && !isWordChar(start[w.length]));
  const unused = byFirstChar([...values.words, ...values.dates].filter((start) => !isUsed(start)));
  return unused.size === 0 ? undefined : { bias: UNUSED_VALUE_BIAS, favours: (t) => startsOneOf(unused, t) };
}

/**
 * Where a number may start in the query written so far (after a comparison, `BETWEEN`, a `BETWEEN`'s `AND`, `LIMIT`,
 * or in an `IN` list of numbers): the first digits of the question's first number that the query has not written yet
 * (with the space before it, unless `sqlSoFar` ends in one). The model's own first digit is otherwise unguided, and
 * wrong in ways no later copy mends (`59` for "$39").
 *
 * @example
 * ```ts
 * const values = questionValues('Between 230 and 1200?');
 * numberStartNudge(values, 'SELECT * FROM t WHERE n BETWEEN 230 AND')?.favours(' 12'); // true
 * numberStartNudge(values, 'SELECT * FROM t WHERE n BETWEEN 230 AND')?.favours(' 23'); // false
 * ```
 */
export function numberStartNudge(values: QuestionValues, sqlSoFar: string): TokenNudge | undefined {
  if (!NUMBER_SLOT.test(sqlSoFar)) return undefined;
  const written = new Set(numbersIn(sqlSoFar.replace(/'(?:[^']|'')*'/g, "''")));
  // The first in the question's order: a range is said low to high, as BETWEEN wants it ("from $39 to $65").
  const unused = values.numbers.filter((n) => !written.has(n)).slice(0, 1);
  const starts = /\s$/.test(sqlSoFar) ? unused : [...unused, ...unused.map((n) => ` ${n}`)];
  return unused.length === 0 ? undefined : { bias: UNUSED_VALUE_BIAS, favours: (t) => starts.some((s) => s.startsWith(t)) };
}

/** The end of a query where a number may come next. */
const NUMBER_SLOT = /(?:[<>]=?|=|\bBETWEEN|\bBETWEEN\s+-?[0-9.]+\s+AND|\bLIMIT|\bIN\s*\((?:\s*-?[0-9.]+\s*,)*)\s*$/i;

/**
 * Inside a literal that has begun with a digit: continue one of the question's dates in ISO form that the query has not
 * written yet (any of them once all are written), or close the literal after a whole one.
 *
 * @example
 * ```ts
 * dateNudge(questionValues('Born after June 29, 2010?'), '2010-0', [])?.favours('6'); // true
 * ```
 */
export function dateNudge(values: QuestionValues, prefix: string, written: readonly string[]): TokenNudge | undefined {
  if (!/^[0-9]/.test(prefix)) return undefined;
  const dates = values.dates.filter((d) => d.startsWith(prefix));
  const unused = dates.filter((d) => !written.includes(d));
  const rests = (unused.length > 0 ? unused : dates).map((d) => d.slice(prefix.length));
  if (rests.length === 0) return undefined;
  const closable = rests.includes('');
  const longer = rests.filter((r) => r.length > 0);
  return { bias: DATE_BIAS, favours: (t) => (closable && t.startsWith("'")) || longer.some((r) => r.startsWith(t)) };
}
