/**
 * Guided decoding for SQLEnv episodes (the trainer's `DecodingGuide`, in the manner of PICARD's
 * schema-checked decoding for text-to-SQL): while a policy writes SQL, copies from the conversation
 * are favoured over spellings from memory. A small model knows *that* the question's name goes into
 * the `WHERE` clause and *which* of the listed tables it needs far more often than it can spell
 * either (docs/train.md, Attempts 13–15):
 *
 * - inside a string literal, tokens that continue a word sequence of the conversation (the question,
 *   the results and hints, earlier queries), or close the literal where such a sequence ends;
 * - inside a number, digits that continue a number of the conversation;
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
/** Logit bias of a listed table the question names, after FROM or JOIN, on top of {@link TABLE_BIAS} (chosen on `validation_unseen_db`: 8 and 100 tie, 4 loses; `validation` the same for each). */
export const TABLE_COPY_BIAS = 8;
/** Logit bias of a shown column the question names, where a query names a column (chosen on `validation_unseen_db`: 16 is two questions better on one seed, 32 and 100 lose the gain; 8 keeps a margin). */
export const COLUMN_COPY_BIAS = 8;
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

/** The tables of the last `Tables: ` line, as listed. */
function listedTables(context: string): string[] | undefined {
  return lastLine(context, 'Tables: ')?.split(',').map((t) => t.trim()).filter((t) => t.length > 0);
}

/** Whether the question names `table` as a word: itself, its plural, or with spaces for underscores (`ticket_sale`: "ticket sales"). */
function mentions(question: string, table: string): boolean {
  const name = table.toLowerCase().replace(/_/g, ' ');
  const forms = [name, `${name}s`, `${name}es`, ...(name.endsWith('y') ? [`${name.slice(0, -1)}ies`] : [])];
  return forms.some((form) => {
    for (let i = question.indexOf(form); i >= 0; i = question.indexOf(form, i + 1)) {
      if (!isWordChar(question[i - 1]) && !isWordChar(question[i + form.length])) return true;
    }
    return false;
  });
}

/**
 * After FROM or JOIN: a listed table (a constraint), and among them, more gently, one the question names (a copy:
 * "How many readings…" → `reading`). `typed` is what is written of the name so far, undefined before the space.
 */
function tableNudges(context: string, typed: string | undefined): SqlTokenNudge[] {
  const listed = listedTables(context);
  if (!listed) return [];
  // Before the space the next token brings it (` customer`); after it, the rest of the name.
  const pad = typed === undefined ? ' ' : '';
  const written = typed ?? '';
  const restsOf = (tables: readonly string[]) => tables.filter((t) => t.startsWith(written)).map((t) => pad + t.slice(written.length));
  const continuing = (rests: readonly string[]) => (t: string) => rests.some((r) => (r.length > 0 ? r.startsWith(t) : !/^[A-Za-z0-9_]/.test(t)));
  const rests = restsOf(listed);
  if (rests.length === 0) return [];
  const question = (/^Question: (.*)$/m.exec(context)?.[1] ?? '').toLowerCase();
  const named = restsOf(listed.filter((t) => mentions(question, t)));
  return [{ bias: TABLE_BIAS, favours: continuing(rests) }, ...(named.length > 0 ? [{ bias: TABLE_COPY_BIAS, favours: continuing(named) }] : [])];
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

/**
 * Each table's columns as the conversation shows them (lower case): the `Columns:` line, described tables, and the
 * lists in unknown-column errors (`Columns of chef: id, name; of port: …`). A list cut short (`and 3 more`) is not one.
 */
function shownColumns(context: string): Map<string, string[]> {
  const columns = new Map<string, string[]>();
  const lower = (names: readonly string[]) => names.map((n) => n.trim().toLowerCase());
  for (const m of lastLine(context, 'Columns: ')?.matchAll(/([^;()]+)\(([^)]*)\)/g) ?? []) columns.set(m[1]!.trim().toLowerCase(), lower(m[2]!.split(',')));
  for (const m of context.matchAll(/^TABLE (\S+) \(.*\n((?: {2}\S.*(?:\n|$))+)/gm)) {
    const names = m[2]!.split('\n').filter((l) => l.startsWith('  ') && !l.startsWith('  FOREIGN KEY ')).map((l) => l.trim().split(' ')[0]!);
    columns.set(m[1]!.toLowerCase(), lower(names));
  }
  for (const m of context.matchAll(/Columns of (.*)$/gm)) {
    for (const part of m[1]!.split('; ')) {
      const table = /^(?:of )?([A-Za-z0-9_]+): (.*)$/.exec(part);
      if (table && !/ and [0-9]+ more$/.test(table[2]!)) columns.set(table[1]!.toLowerCase(), lower(table[2]!.split(', ')));
    }
  }
  return columns;
}

/** The tables a query names after FROM or JOIN so far (lower case). */
function tablesNamed(sql: string): string[] {
  return [...sql.matchAll(/\b(?:FROM|JOIN)\s+([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])/gi)].map((m) => m[1]!.toLowerCase());
}

/**
 * The names a query may use (lower case): the listed tables and the shown columns — where every listed table's columns
 * are shown, or, where only some are (an error listed them), while the tables the query names so far (before its FROM,
 * those of the conversation's latest query, which it presumably rewrites) are all among those.
 */
function knownNames(context: string, sql: string): { tables: string[]; columns: string[] } | undefined {
  const tables = listedTables(context)?.map((t) => t.toLowerCase());
  if (!tables) return undefined;
  const columns = shownColumns(context);
  const known = (t: string) => columns.has(t);
  if (!tables.every(known)) {
    if (columns.size === 0) return undefined;
    const named = tablesNamed(sql);
    const scope = named.length > 0 ? named : tablesNamed(latestQuery(context)?.sql ?? '');
    if (scope.length === 0 || !scope.every(known)) return undefined;
  }
  return { tables, columns: [...columns.values()].flat() };
}

/** Inside a query's SQL (outside literals): each word a known name, keyword or alias. `sql` is the query written so far. */
function identifierNudges(context: string, sql: string): SqlTokenNudge[] {
  // A double-quoted identifier (JSON-escaped) or an alias being defined is the query's own name.
  if (sql.includes('\\"') || /\bAS\s+[A-Za-z0-9_]*$/i.test(sql)) return [];
  const names = knownNames(context, sql);
  if (!names) return [];
  const word = (/(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*$/.exec(sql)?.[0] ?? '').toLowerCase();
  if (word === '' && /[A-Za-z0-9_]$/.test(sql)) return [];
  const named = columnNudge(context, sql, word, names.columns);
  return [identifierCheck(sql, word, [...names.tables, ...names.columns]), ...(named ? [named] : [])];
}

/** The check itself: each word `sql` goes on to write (`word` is the one it is in) a name of `names`, a keyword or an alias. */
function identifierCheck(sql: string, word: string, names: readonly string[]): SqlTokenNudge {
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
      // Each word the token finishes must be whole (` title` after `WHERE` finishes `where` and writes `title`), and the word it ends in must start one.
      let stem = word;
      let start = 0;
      for (;;) {
        if (stem === '') {
          // At a word boundary: what starts no word (an operator, a number, a quote) is free.
          while (start < token.length && !isAsciiWordCode(token.charCodeAt(start)) && !isQuoteCode(token.charCodeAt(start))) start++;
          const first = token.charCodeAt(start);
          if (start === token.length || isQuoteCode(first) || (first >= 48 && first <= 57)) return true;
        }
        const end = wordEnd(token, start);
        const w = stem + token.slice(start, end).toLowerCase();
        if (end === token.length) return prefix(w);
        if (!whole(w)) return false;
        stem = '';
        start = end;
      }
    },
  };
}

/** Words after which a query names a column (besides `(` and `,`). */
const COLUMN_POSITIONS = new Set(['select', 'where', 'and', 'or', 'by', 'on', 'distinct']);
/** A query that ends where a column comes next. */
const COLUMN_POSITION_BEFORE = new RegExp(`(?:\\b(?:${[...COLUMN_POSITIONS].join('|')})\\s+|[(,]\\s*)$`, 'i');

/** Whether the question names `column`: as a whole (`start_date`: "start date"), or by its first part where it has several ("weight" for `weight_kg`). */
function columnMentioned(question: string, column: string): boolean {
  const first = column.split('_')[0]!;
  return mentions(question, column) || (first !== column && first.length >= 4 && mentions(question, first));
}

/**
 * Where a query names a column (after SELECT, WHERE, AND, OR, BY, ON, DISTINCT, `(` or `,`), a shown column the question
 * names, gently: a copy, as for tables ("the most recent start date" → `start_date`). `word` is the one `sql` is in.
 */
function columnNudge(context: string, sql: string, word: string, columns: readonly string[]): SqlTokenNudge | undefined {
  const question = (/^Question: (.*)$/m.exec(context)?.[1] ?? '').toLowerCase();
  const mentioned = byFirstChar([...new Set(columns.filter((c) => columnMentioned(question, c)))]);
  if (mentioned.size === 0) return undefined;
  const before = sql.slice(0, sql.length - word.length);
  const afterPosition = COLUMN_POSITION_BEFORE.test(before);
  return {
    bias: COLUMN_COPY_BIAS,
    favours: (token) => {
      let stem = word;
      let atPosition = afterPosition;
      let start = 0;
      for (;;) {
        if (stem === '') {
          // Between words only spaces, `(` and `,` lead to a column.
          for (; start < token.length && !isAsciiWordCode(token.charCodeAt(start)); start++) {
            const c = token.charCodeAt(start);
            if (c === 40 || c === 44) atPosition = true;
            else if (c !== 32) return false;
          }
          if (start === token.length) return false;
        }
        const end = wordEnd(token, start);
        const w = stem + token.slice(start, end).toLowerCase();
        if (end === token.length) return atPosition && startsOneOf(mentioned, w);
        if (atPosition && (mentioned.get(w[0]!)?.includes(w) ?? false)) return true;
        atPosition = COLUMN_POSITIONS.has(w);
        stem = '';
        start = end;
      }
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

/** The conversation's latest query (its SQL as JSON-escaped text), and the text after it (its result). */
function latestQuery(context: string): { sql: string; after: string } | undefined {
  const latest = [...context.matchAll(/"sql"\s*:\s*"((?:[^"\\]|\\.)*)"/g)].at(-1);
  return latest ? { sql: latest[1]!, after: context.slice(latest.index + latest[0].length) } : undefined;
}

/** In an answer's value, while it has repeated the conversation's latest query so far: that query's next characters (and the string's end). */
function repeatNudge(context: string, generatedText: string): SqlTokenNudge | undefined {
  const open = openString(generatedText);
  if (open?.key !== 'value') return undefined;
  const answer = open.text;
  const latest = latestQuery(context);
  if (latest === undefined || !latest.sql.startsWith(answer)) return undefined;
  // A query that failed is no answer: the model's own rewrite may be.
  if (/^Error: /m.test(latest.after)) return undefined;
  const rest = `${latest.sql.slice(answer.length)}"`;
  return { bias: REPEAT_BIAS, favours: (t) => rest.startsWith(t) || t.startsWith(rest) };
}

/** The spelling nudges for the next token: inside a literal, a number, a table name or a query's words. */
function spellingNudges(context: string, generatedText: string): SqlTokenNudge[] {
  const quotes = generatedText.split("'").length - 1;
  const one = (nudge: SqlTokenNudge | undefined) => (nudge ? [nudge] : []);
  if (quotes % 2 === 1) {
    const prefix = generatedText.slice(generatedText.lastIndexOf("'") + 1);
    // A quote in JSON text outside the SQL string (an answer's value, say) is not a literal.
    return prefix.includes('"') ? [] : one(literalNudge(context, prefix));
  }
  const table = /\b(?:FROM|JOIN)(\s+[A-Za-z0-9_]*)?$/i.exec(generatedText);
  if (table) return tableNudges(context, table[1]?.trimStart());
  const digits = /(?<![\p{L}\p{N}_.])[0-9]+$/u.exec(generatedText);
  if (digits) return one(numberNudge(context, digits[0]));
  const sql = openSql(generatedText);
  return sql === undefined ? [] : identifierNudges(context, sql);
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
  const repeat = repeatNudge(context, generatedText);
  const nudges = [...(repeat ? [repeat] : []), ...spellingNudges(context, generatedText)];
  return nudges.length === 0 ? undefined : nudges.length === 1 ? nudges[0] : nudges;
}
