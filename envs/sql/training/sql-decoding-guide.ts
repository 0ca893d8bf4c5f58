/**
 * Guided decoding for SQLEnv episodes (the trainer's `DecodingGuide`, in the manner of PICARD's
 * schema-checked decoding for text-to-SQL): while a policy writes SQL, copies from the conversation
 * are favoured over spellings from memory. A small model knows *that* the question's name goes into
 * the `WHERE` clause and *which* of the listed tables it needs far more often than it can spell
 * either (docs/train.md, Attempt 13):
 *
 * - inside a string literal, tokens that continue a word sequence of the conversation (the question,
 *   the results and hints, earlier queries), or close the literal where such a sequence ends;
 * - inside a number, digits that continue a number of the conversation;
 * - after `FROM` or `JOIN`, one of the tables the observation lists (a subquery there, `FROM (SELECT …`, is
 *   not favoured: for models that write them, `rollout.guidedDecoding: "off"`).
 *
 * The guide reads only what the policy sees: the conversation from the first observation on.
 */

/** The nudge for the next token (the trainer's `TokenNudge`). */
export interface SqlTokenNudge {
  readonly bias: number;
  favours(tokenText: string): boolean;
}

/** Logit bias of a copy inside a literal or a number: a nudge the model's own preference can overrule (chosen on `validation`: 2 and 4 tie, 8 loses). */
export const COPY_BIAS = 4;
/** Logit bias of a listed table after FROM or JOIN: in effect a constraint. */
export const TABLE_BIAS = 100;
/** Continuations looked at, at most: a short literal prefix can start hundreds of words. */
const MAX_CONTINUATIONS = 400;
/** Characters of each continuation kept: longer than any token. */
const CONTINUATION_CHARS = 24;

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Where each occurrence of `prefix` in `context` starts a word (or, for numbers, a number), and what follows it. */
function continuations(context: string, prefix: string, startsAt: (i: number) => boolean): string[] {
  const out = new Set<string>();
  for (let i = context.indexOf(prefix); i >= 0 && i < context.length && out.size < MAX_CONTINUATIONS; i = context.indexOf(prefix, i + 1)) {
    if (startsAt(i)) out.add(context.slice(i + prefix.length, i + prefix.length + CONTINUATION_CHARS));
  }
  return [...out];
}

/** Inside a single-quoted literal: continue a word sequence of the context, or close the literal after a whole word. */
function literalNudge(context: string, prefix: string): SqlTokenNudge | undefined {
  const wordStart = (i: number) => !isWordChar(context[i - 1]) && (prefix.length > 0 || isWordChar(context[i]));
  const rests = continuations(context, prefix, wordStart);
  const closable = prefix.length > 0 && rests.some((r) => !isWordChar(r[0]));
  const opens = byFirstChar(rests.filter((r) => r.length > 0));
  if (opens.size === 0 && !closable) return undefined;
  return { bias: COPY_BIAS, favours: (t) => (closable && t.startsWith("'")) || startsOneOf(opens, t) };
}

/** Strings grouped by their first character: a guide is asked about every token of the vocabulary at each step. */
function byFirstChar(strings: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const s of strings) {
    const list = out.get(s[0]!);
    if (list) list.push(s);
    else out.set(s[0]!, [s]);
  }
  return out;
}

/** Whether `token` is a prefix of one of the grouped strings. */
function startsOneOf(grouped: ReadonlyMap<string, readonly string[]>, token: string): boolean {
  return grouped.get(token[0]!)?.some((s) => s.startsWith(token)) ?? false;
}

/** Inside a number: continue a number of the context, or end it where such a number ends. */
function numberNudge(context: string, digits: string): SqlTokenNudge | undefined {
  const numberStart = (i: number) => !/[\p{L}\p{N}_.]/u.test(context[i - 1] ?? ' ');
  const rests = continuations(context, digits, numberStart);
  const longer = byFirstChar(rests.filter((r) => /^[0-9.]/.test(r)));
  const closable = rests.some((r) => !/^[0-9.]/.test(r) && !isWordChar(r[0]));
  if (longer.size === 0 && !closable) return undefined;
  return { bias: COPY_BIAS, favours: (t) => (closable && !/^[0-9]/.test(t)) || startsOneOf(longer, t) };
}

/** After FROM or JOIN: a listed table. `typed` is what is written of the name so far, undefined before the space. */
function tableNudge(context: string, typed: string | undefined): SqlTokenNudge | undefined {
  const listed = [...context.matchAll(/^Tables: (.*)$/gm)].at(-1)?.[1];
  if (!listed) return undefined;
  // Before the space the next token brings it (` customer`); after it, the rest of the name.
  const pad = typed === undefined ? ' ' : '';
  const written = typed ?? '';
  const rests = listed
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0 && t.startsWith(written))
    .map((t) => pad + t.slice(written.length));
  if (rests.length === 0) return undefined;
  return {
    bias: TABLE_BIAS,
    favours: (t) => rests.some((r) => (r.length > 0 ? r.startsWith(t) : !/^[A-Za-z0-9_]/.test(t))),
  };
}

/**
 * The nudge for the next token of a SQLEnv turn, or undefined where the guide has nothing to say.
 * `promptText` is the whole prompt (system prompt, observations, earlier turns); `generatedText`
 * what this turn has written so far.
 *
 * @example
 * ```ts
 * const prompt = 'Question: Count the venues in Hamburg.\n\nDatabase: concerts\n\nTables: artist, venue';
 * sqlDecodingGuide(prompt, '{"sql":"SELECT COUNT(*) FROM venue WHERE city = \'Ham')?.favours('burg'); // true
 * sqlDecodingGuide(prompt, '{"sql":"SELECT COUNT(*) FROM')?.favours(' venue'); // true
 * ```
 */
export function sqlDecodingGuide(promptText: string, generatedText: string): SqlTokenNudge | undefined {
  // The first observation starts a line with its question (renderObservation); the system prompt before it is not copied from.
  const start = /^Question: /m.exec(promptText)?.index;
  const context = start === undefined ? promptText : promptText.slice(start);
  const quotes = generatedText.split("'").length - 1;
  if (quotes % 2 === 1) {
    const prefix = generatedText.slice(generatedText.lastIndexOf("'") + 1);
    // A quote in JSON text outside the SQL string (an answer's value, say) is not a literal.
    return prefix.includes('"') ? undefined : literalNudge(context, prefix);
  }
  const table = /\b(?:FROM|JOIN)(\s+[A-Za-z0-9_]*)?$/i.exec(generatedText);
  if (table) return tableNudge(context, table[1]?.trimStart());
  const digits = /(?<![\p{L}\p{N}_.])[0-9]+$/u.exec(generatedText);
  return digits ? numberNudge(context, digits[0]) : undefined;
}
