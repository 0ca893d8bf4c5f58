/**
 * What a query may name: a listed table after FROM or JOIN, and where the conversation shows the columns, only
 * names the schema has (PICARD's check); more gently, the tables and columns the question names.
 */
import { mentions, tablesNamed, type Conversation } from './conversation.js';
import type { TokenNudge } from '../../../lm/compute/decoding-guide.js';
import { SQL_WORDS } from './sql-words.js';
import { prefixSet } from './word-groups.js';

/** Logit bias of a listed table after FROM or JOIN: in effect a constraint. */
export const TABLE_BIAS = 100;
/** Logit bias of a listed table the question names, after FROM or JOIN, on top of {@link TABLE_BIAS}: a preference among the allowed tables, not a constraint. */
export const TABLE_COPY_BIAS = 8;
/** Logit bias of a known word in a query (a column, a table, a keyword): in effect a constraint, as for tables. */
export const IDENTIFIER_BIAS = 100;
/** Logit bias of a shown column the question names, where a query names a column: gentle, because a question's words often name a column the query does not need. */
export const COLUMN_COPY_BIAS = 8;

/** Words after which a query names a column (besides `(` and `,`). */
const COLUMN_POSITIONS = new Set(['select', 'where', 'and', 'or', 'by', 'on', 'distinct']);
/** A query that ends where a column comes next. */
const COLUMN_POSITION_BEFORE = new RegExp(`(?:\\b(?:${[...COLUMN_POSITIONS].join('|')})\\s+|[(,]\\s*)$`, 'i');

/** Letters, digits and `_` (ASCII): what an unquoted SQL name is made of here. */
const isNameCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
const isQuoteCode = (c: number): boolean => c === 39 || c === 34;

/** Where the run of name characters that starts at `from` ends. */
function nameEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && isNameCode(text.charCodeAt(i))) i++;
  return i;
}

/** Whether the question names `column`: as a whole (`start_date`: "start date"), or by its first part where it has several ("weight" for `weight_kg`). */
function columnMentioned(question: string, column: string): boolean {
  const first = column.split('_')[0]!;
  return mentions(question, column) || (first !== column && first.length >= 4 && mentions(question, first));
}

/** The schema's nudges for one prompt: what they look up is read once, when the guide is made. */
export interface SchemaNudges {
  /** After FROM or JOIN; `typed` is what is written of the name so far, undefined before the space. */
  afterFromOrJoin(typed: string | undefined): TokenNudge[];
  /** Inside a query's SQL (outside literals); `sql` is the query written so far. */
  inQuery(sql: string): TokenNudge[];
}

/**
 * The schema's nudges for a conversation.
 *
 * @example
 * ```ts
 * const nudges = schemaNudges(readConversation(context)); // the question "How many ports?", tables port and chef
 * nudges.afterFromOrJoin(undefined).map((n) => n.favours(' port')); // [true, true]: listed, and named by the question
 * ```
 */
export function schemaNudges(conversation: Conversation): SchemaNudges {
  const { question, columns } = conversation;
  const listed = conversation.tables ?? [];
  const named = listed.filter((t) => mentions(question, t));
  const tables = listed.map((t) => t.toLowerCase());
  const shownColumns = [...columns.values()].flat();
  const everyTableShown = tables.length > 0 && tables.every((t) => columns.has(t));
  // The checks run over the whole vocabulary at each step: words and their prefixes as sets, built once per prompt.
  const words = new Set([...tables, ...shownColumns, ...SQL_WORDS]);
  const wordPrefixes = prefixSet(words);
  const namedColumns = new Set(shownColumns.filter((c) => columnMentioned(question, c)));
  const namedColumnPrefixes = prefixSet(namedColumns);
  // Before its FROM, a query after an unknown-column error is taken to rewrite the failed one: its tables.
  const latestTables = conversation.latestQuery?.tables ?? [];

  const made = new Map<string, TokenNudge>();
  const remembered = (key: string, make: () => TokenNudge): TokenNudge => made.get(key) ?? (made.set(key, make()), made.get(key)!);

  /** Where only some tables' columns are shown: whether the query's tables (so far, else the latest query's) are among them. */
  const checkable = (sql: string): boolean => {
    if (everyTableShown) return true;
    if (tables.length === 0 || columns.size === 0) return false;
    const inQuery = tablesNamed(sql);
    const scope = inQuery.length > 0 ? inQuery : latestTables;
    return scope.length > 0 && scope.every((t) => columns.has(t));
  };

  return {
    afterFromOrJoin(typed) {
      // Before the space the next token brings it (` customer`); after it, the rest of the name.
      const pad = typed === undefined ? ' ' : '';
      const written = typed ?? '';
      const restsOf = (names: readonly string[]) => names.filter((t) => t.startsWith(written)).map((t) => pad + t.slice(written.length));
      const continuing = (rests: readonly string[]) => (t: string) => rests.some((r) => (r.length > 0 ? r.startsWith(t) : !/^[A-Za-z0-9_]/.test(t)));
      const rests = restsOf(listed);
      if (rests.length === 0) return [];
      const namedRests = restsOf(named);
      return [{ bias: TABLE_BIAS, favours: continuing(rests) }, ...(namedRests.length > 0 ? [{ bias: TABLE_COPY_BIAS, favours: continuing(namedRests) }] : [])];
    },
    inQuery(sql) {
      // A double-quoted identifier (JSON-escaped) or an alias being defined is the query's own name.
      if (sql.includes('\\"') || /\bAS\s+[A-Za-z0-9_]*$/i.test(sql) || !checkable(sql)) return [];
      const word = (/(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*$/.exec(sql)?.[0] ?? '').toLowerCase();
      if (word === '' && /[A-Za-z0-9_]$/.test(sql)) return [];
      const aliases = [...sql.matchAll(/\bAS\s+([A-Za-z_][A-Za-z0-9_]*)/gi)].map((m) => m[1]!.toLowerCase());
      const afterPosition = COLUMN_POSITION_BEFORE.test(sql.slice(0, sql.length - word.length));
      // The same state gives the same nudge object, whose favoured tokens the trainer's NudgeApplier then finds once
      // (between two words of a query the state is the same at most steps).
      const check = remembered(`${word} ${aliases.join(',')}`, () => identifierCheck(word, aliases, words, wordPrefixes));
      const column = namedColumns.size > 0 ? remembered(`${word} ${afterPosition}`, () => columnNudge(word, afterPosition, namedColumns, namedColumnPrefixes)) : undefined;
      return [check, ...(column ? [column] : [])];
    },
  };
}

/** PICARD's check: each word a query goes on to write (`word` is the one it is in) one of `words` (`prefixes`: theirs), or one of its `aliases`. */
function identifierCheck(word: string, aliases: readonly string[], words: ReadonlySet<string>, prefixes: ReadonlySet<string>): TokenNudge {
  // `T1`, `T2`… are the aliases Spider's SQL style uses before it defines them.
  const alias = (w: string, digitsNeeded: boolean) => w[0] === 't' && (digitsNeeded ? /^t[0-9]+$/ : /^t[0-9]*$/).test(w);
  const whole = (w: string) => words.has(w) || alias(w, true) || aliases.includes(w);
  const prefix = (w: string) => prefixes.has(w) || alias(w, false) || aliases.some((a) => a.startsWith(w));
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
          while (start < token.length && !isNameCode(token.charCodeAt(start)) && !isQuoteCode(token.charCodeAt(start))) start++;
          const first = token.charCodeAt(start);
          if (start === token.length || isQuoteCode(first) || (first >= 48 && first <= 57)) return true;
        }
        const end = nameEnd(token, start);
        const w = stem + token.slice(start, end).toLowerCase();
        if (end === token.length) return prefix(w);
        if (!whole(w)) return false;
        stem = '';
        start = end;
      }
    },
  };
}

/**
 * Where a query names a column (after SELECT, WHERE, AND, OR, BY, ON, DISTINCT, `(` or `,`), a shown column the question
 * names, gently: a copy, as for tables ("the most recent start date" → `start_date`). `word` is the one the query is in,
 * `afterPosition` whether a column may start there.
 */
function columnNudge(word: string, afterPosition: boolean, namedColumns: ReadonlySet<string>, prefixes: ReadonlySet<string>): TokenNudge {
  return {
    bias: COLUMN_COPY_BIAS,
    favours: (token) => {
      let stem = word;
      let atPosition = afterPosition;
      let start = 0;
      for (;;) {
        if (stem === '') {
          // Between words only spaces, `(` and `,` lead to a column.
          for (; start < token.length && !isNameCode(token.charCodeAt(start)); start++) {
            const c = token.charCodeAt(start);
            if (c === 40 || c === 44) atPosition = true;
            else if (c !== 32) return false;
          }
          if (start === token.length) return false;
        }
        const end = nameEnd(token, start);
        const w = stem + token.slice(start, end).toLowerCase();
        if (end === token.length) return atPosition && prefixes.has(w);
        if (atPosition && namedColumns.has(w)) return true;
        atPosition = COLUMN_POSITIONS.has(w);
        stem = '';
        start = end;
      }
    },
  };
}
