/**
 * The values a question states, as a query writes them (value linking, as text-to-SQL parsers such as BRIDGE do
 * it): its numbers, its dates in SQLite's ISO form ("June 29, 2010" is `'2010-06-29'`, "March 2021" is `'2021-03'`),
 * and its words. A small model copies a value it can see far more reliably than it turns one into another
 * form, and it repeats the value it wrote last where the question lists several.
 */
import { isWordChar } from './conversation.js';

/** Characters of each continuation a copy looks at: longer than any token. */
export const CONTINUATION_CHARS = 24;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')})`;
const pad2 = (n: string | number) => String(n).padStart(2, '0');

/**
 * The question's dates in ISO form: "Month D, YYYY" as `YYYY-MM-DD`, "Month YYYY" as `YYYY-MM`.
 *
 * @example
 * ```ts
 * isoDates('Born between June 29, 2010 and July 2010?'); // ['2010-06-29', '2010-07']
 * ```
 */
export function isoDates(question: string): string[] {
  const out: string[] = [];
  const month = (name: string) => pad2(MONTHS.indexOf(name.toLowerCase()) + 1);
  for (const m of question.matchAll(new RegExp(`\\b${MONTH}\\s+([0-9]{1,2}),?\\s+([0-9]{4})\\b`, 'gi'))) out.push(`${m[3]}-${month(m[1]!)}-${pad2(m[2]!)}`);
  for (const m of question.matchAll(new RegExp(`\\b${MONTH}\\s+([0-9]{4})\\b`, 'gi'))) out.push(`${m[2]}-${month(m[1]!)}`);
  return out;
}

/**
 * The numbers a question states (a currency sign or a thousands comma is not part of one: "$1,200.50" is 1200.50).
 *
 * @example
 * ```ts
 * questionNumbers('Tickets from $39 to $1,200.50?'); // ['39', '1200.50']
 * ```
 */
export function questionNumbers(question: string): string[] {
  return numbersIn(question.replace(/(?<=[0-9]),(?=[0-9]{3}\b)/g, ''));
}

/**
 * The numbers written in `text`, in order; digits inside a name (`t1`, `col_2`) are not numbers.
 *
 * @example
 * ```ts
 * numbersIn('SELECT * FROM t1 WHERE n BETWEEN 230 AND 1200'); // ['230', '1200']
 * ```
 */
export function numbersIn(text: string): string[] {
  return [...text.matchAll(/(?<![\p{L}\p{N}_.-])[0-9]+(?:\.[0-9]+)?(?![\p{L}_])/gu)].map((m) => m[0]);
}

/**
 * Where each word of `text` starts, and the text from there (at most `chars` characters): the sequences a literal
 * may copy.
 *
 * @example
 * ```ts
 * wordStarts('bronze, silver', 6); // ['bronze', 'silver']
 * ```
 */
export function wordStarts(text: string, chars: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) if (isWordChar(text[i]) && !isWordChar(text[i - 1])) out.push(text.slice(i, i + chars));
  return out;
}

/** What {@link questionValues} reads from a question, once per prompt. */
export interface QuestionValues {
  /** Its dates in ISO form ({@link isoDates}). */
  readonly dates: readonly string[];
  /** Its numbers, in order ({@link questionNumbers}). */
  readonly numbers: readonly string[];
  /** Where each of its words starts, with what follows ({@link wordStarts}, {@link CONTINUATION_CHARS} characters). */
  readonly words: readonly string[];
}

/**
 * The question's values, read once for a prompt: the guide's value nudges look them up at every token.
 *
 * @example
 * ```ts
 * questionValues('Fees from $39 to $65 before June 29, 2010?').numbers; // ['39', '65', '29', '2010']
 * ```
 */
export function questionValues(question: string): QuestionValues {
  return { dates: isoDates(question), numbers: questionNumbers(question), words: wordStarts(question, CONTINUATION_CHARS) };
}
