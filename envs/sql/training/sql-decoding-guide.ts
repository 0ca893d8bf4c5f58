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
 *   not favoured: for models that write them, `rollout.guidedDecoding: "off"`);
 * - elsewhere in a query, where the conversation shows every table's columns (SQLEnv's `listColumns`, or
 *   every table described), a word of the query stays a name the schema has, a keyword or function of
 *   SQLite, or an alias the query defines: PICARD's check that a query names only what exists;
 * - in an answer's SQL, while it repeats the latest query that ran, that query's continuation, on top of
 *   the nudges above: the protocol SFT teaches (answer with the query whose result you saw).
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
/** Logit bias of a known word in a query (a column, a table, a keyword): in effect a constraint, as for tables. */
export const IDENTIFIER_BIAS = 100;
/** Logit bias of repeating the latest query in an SQL answer (chosen on `validation`: 4, 8 and 100 tie). */
export const REPEAT_BIAS = 4;
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
  // A point continues a number only before a digit: "at most 1900." ends its sentence, not a decimal.
  const continues = (r: string) => /^(?:[0-9]|\.[0-9])/.test(r);
  const longer = byFirstChar(rests.filter(continues));
  const closable = rests.some((r) => !continues(r) && !isWordChar(r[0]));
  if (longer.size === 0 && !closable) return undefined;
  return { bias: COPY_BIAS, favours: (t) => (closable && !/^[0-9]/.test(t)) || startsOneOf(longer, t) };
}

/** The text of the last line that starts with `label` (`Tables: `), up to a chat template's special token if one follows on the line. */
function lastLine(context: string, label: string): string | undefined {
  const line = [...context.matchAll(new RegExp(`^${label}(.*)$`, 'gm'))].at(-1)?.[1];
  return line?.split('<|')[0];
}

/** After FROM or JOIN: a listed table. `typed` is what is written of the name so far, undefined before the space. */
function tableNudge(context: string, typed: string | undefined): SqlTokenNudge | undefined {
  const listed = lastLine(context, 'Tables: ');
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

/** SQLite's keywords, its core, aggregate, date, window, math and JSON functions, collations and common type names (lower case): words of a query besides the schema's names. */
const SQL_WORDS = (
  'abort action add after all alter always analyze and as asc attach autoincrement before begin between by cascade case cast check ' +
  'collate column commit conflict constraint create cross current current_date current_time current_timestamp database default ' +
  'deferrable deferred delete desc detach distinct do drop each else end escape except exclude exclusive exists explain fail filter ' +
  'first following for foreign from full generated glob group groups having if ignore immediate in index indexed initially inner insert ' +
  'instead intersect into is isnull join key last left like limit match materialized natural no not nothing notnull null nulls of ' +
  'offset on or order others outer over partition plan pragma preceding primary query raise range recursive references regexp reindex ' +
  'release rename replace restrict returning right rollback row rows savepoint select set table temp temporary then ties to transaction ' +
  'trigger unbounded union unique update using vacuum values view virtual when where window with without true false rowid ' +
  'abs avg changes char coalesce concat concat_ws count date datetime format group_concat hex ifnull iif instr julianday length likelihood ' +
  'lower ltrim max min nullif printf quote random round rtrim sign strftime string_agg substr substring sum time total trim typeof ' +
  'unicode unixepoch upper integer int real text numeric blob float varchar double boolean ' +
  'nocase binary likely unlikely soundex zeroblob randomblob last_insert_rowid total_changes sqlite_version ' +
  'row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value ' +
  'acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh degrees exp floor ln log log10 log2 mod pi pow power radians sin sinh sqrt tan tanh trunc ' +
  'json json_array json_array_length json_extract json_group_array json_group_object json_object json_type json_valid json_each json_tree'
).split(' ');

/** The listed tables and the columns the conversation shows (lower case: a `Columns:` line, described tables); undefined unless every listed table's columns are shown. */
function knownNames(context: string): string[] | undefined {
  const listed = lastLine(context, 'Tables: ');
  if (!listed) return undefined;
  const columns = new Map<string, string[]>();
  const line = lastLine(context, 'Columns: ');
  for (const m of line?.matchAll(/([^;()]+)\(([^)]*)\)/g) ?? []) columns.set(m[1]!.trim().toLowerCase(), m[2]!.split(',').map((c) => c.trim()));
  for (const m of context.matchAll(/^TABLE (\S+) \(.*\n((?: {2}\S.*(?:\n|$))+)/gm)) {
    const names = m[2]!.split('\n').filter((l) => l.startsWith('  ') && !l.startsWith('  FOREIGN KEY ')).map((l) => l.trim().split(' ')[0]!);
    columns.set(m[1]!.toLowerCase(), names);
  }
  const tables = listed.split(',').map((t) => t.trim().toLowerCase()).filter((t) => t.length > 0);
  if (!tables.every((t) => columns.has(t))) return undefined;
  return [...tables, ...tables.flatMap((t) => columns.get(t)!)].map((n) => n.toLowerCase());
}

/** Inside a query's SQL (outside literals): each word a known name, keyword or alias. `sql` is the query written so far. */
function identifierNudge(context: string, sql: string): SqlTokenNudge | undefined {
  // A double-quoted identifier (JSON-escaped) or an alias being defined is the query's own name.
  if (sql.includes('\\"') || /\bAS\s+[A-Za-z0-9_]*$/i.test(sql)) return undefined;
  const names = knownNames(context);
  if (!names) return undefined;
  const word = (/(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*$/.exec(sql)?.[0] ?? '').toLowerCase();
  if (word === '' && /[A-Za-z0-9_]$/.test(sql)) return undefined;
  const aliases = [...sql.matchAll(/\bAS\s+([A-Za-z_][A-Za-z0-9_]*)/gi)].map((m) => m[1]!.toLowerCase());
  const words = byFirstChar([...new Set([...names, ...SQL_WORDS, ...aliases])]);
  // `T1`, `T2`… are the aliases Spider's SQL style uses before it defines them.
  const alias = (w: string, digitsNeeded: boolean) => w[0] === 't' && (digitsNeeded ? /^t[0-9]+$/ : /^t[0-9]*$/).test(w);
  const whole = (w: string) => alias(w, true) || (words.get(w[0]!)?.includes(w) ?? false);
  const prefix = (w: string) => alias(w, false) || startsOneOf(words, w);
  // Asked about every token of the vocabulary at each step: character codes, not regular expressions.
  return {
    bias: IDENTIFIER_BIAS,
    favours: (token) => {
      if (word !== '') {
        const end = wordEnd(token, 0);
        const stem = word + token.slice(0, end).toLowerCase();
        return end === token.length ? prefix(stem) : whole(stem);
      }
      // At a word boundary: a token that starts no word (an operator, a number, a quote) is free.
      let start = 0;
      while (start < token.length && !isAsciiWordCode(token.charCodeAt(start)) && !isQuoteCode(token.charCodeAt(start))) start++;
      const first = token.charCodeAt(start);
      if (start === token.length || isQuoteCode(first) || (first >= 48 && first <= 57)) return true;
      const end = wordEnd(token, start);
      const w = token.slice(start, end).toLowerCase();
      return end === token.length ? prefix(w) : whole(w);
    },
  };
}

/** Letters, digits and `_` (ASCII): what an unquoted SQL name is made of here. */
const isAsciiWordCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
const isQuoteCode = (c: number): boolean => c === 39 || c === 34;

/** Where the run of name characters that starts at `from` ends. */
function wordEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && isAsciiWordCode(text.charCodeAt(i))) i++;
  return i;
}

/** The JSON string value still being written at the end of `generatedText` (`"key": "text…`), with its key, or undefined. */
function openString(generatedText: string): { key: string; text: string } | undefined {
  const m = /"([^"\\]*)"\s*:\s*"((?:[^"\\]|\\.)*)$/.exec(generatedText);
  return m ? { key: m[1]!, text: m[2]! } : undefined;
}

/** The SQL of a query or SQL answer being written (an open JSON string that starts with SELECT or WITH), or undefined. */
function openSql(generatedText: string): string | undefined {
  const open = openString(generatedText)?.text;
  return open !== undefined && /^\s*(?:SELECT|WITH)\b/i.test(open) ? open : undefined;
}

/** In an answer's value, while it has repeated the conversation's latest query so far: that query's next characters (and the string's end). */
function repeatNudge(context: string, generatedText: string): SqlTokenNudge | undefined {
  const open = openString(generatedText);
  if (open?.key !== 'value') return undefined;
  const answer = open.text;
  const latest = [...context.matchAll(/"sql"\s*:\s*"((?:[^"\\]|\\.)*)"/g)].at(-1);
  const query = latest?.[1];
  if (query === undefined || !query.startsWith(answer)) return undefined;
  // A query that failed is no answer: the model's own rewrite may be.
  if (/^Error: /m.test(context.slice(latest!.index + latest![0].length))) return undefined;
  const rest = `${query.slice(answer.length)}"`;
  return { bias: REPEAT_BIAS, favours: (t) => rest.startsWith(t) || t.startsWith(rest) };
}

/** The spelling nudge for the next token: inside a literal, a number, a table name or a query's words. */
function spellingNudge(context: string, generatedText: string): SqlTokenNudge | undefined {
  const quotes = generatedText.split("'").length - 1;
  if (quotes % 2 === 1) {
    const prefix = generatedText.slice(generatedText.lastIndexOf("'") + 1);
    // A quote in JSON text outside the SQL string (an answer's value, say) is not a literal.
    return prefix.includes('"') ? undefined : literalNudge(context, prefix);
  }
  const table = /\b(?:FROM|JOIN)(\s+[A-Za-z0-9_]*)?$/i.exec(generatedText);
  if (table) return tableNudge(context, table[1]?.trimStart());
  const digits = /(?<![\p{L}\p{N}_.])[0-9]+$/u.exec(generatedText);
  if (digits) return numberNudge(context, digits[0]);
  const sql = openSql(generatedText);
  return sql === undefined ? undefined : identifierNudge(context, sql);
}

/**
 * The nudges for the next token of a SQLEnv turn — the spelling nudge, and in an answer that has so far
 * repeated the latest query, the repeat nudge too (their biases add up) — or undefined where the guide has
 * nothing to say. `promptText` is the whole prompt (system prompt, observations, earlier turns);
 * `generatedText` what this turn has written so far.
 *
 * @example
 * ```ts
 * const prompt = 'Question: Count the venues in Hamburg.\n\nDatabase: concerts\n\nTables: artist, venue';
 * (sqlDecodingGuide(prompt, '{"sql":"SELECT COUNT(*) FROM venue WHERE city = \'Ham') as SqlTokenNudge).favours('burg'); // true
 * (sqlDecodingGuide(prompt, '{"sql":"SELECT COUNT(*) FROM') as SqlTokenNudge).favours(' venue'); // true
 * ```
 */
export function sqlDecodingGuide(promptText: string, generatedText: string): SqlTokenNudge | SqlTokenNudge[] | undefined {
  // The first observation starts a line with its question (renderObservation); the system prompt before it is not copied from.
  const start = /^Question: /m.exec(promptText)?.index;
  const context = start === undefined ? promptText : promptText.slice(start);
  const spelling = spellingNudge(context, generatedText);
  const repeat = repeatNudge(context, generatedText);
  return repeat && spelling ? [repeat, spelling] : (repeat ?? spelling);
}
