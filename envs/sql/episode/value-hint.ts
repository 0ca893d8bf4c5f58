/**
 * The hint after a query that found nothing: when a text value it compares a column with is in no row
 * of that column, the column's closest values. A small model that copies "Victor Brooks" from a
 * question as `'Brooksi Is'` gets an empty result and nothing to repair it from; with the column's
 * closest values in the observation, the next query can copy the right spelling from there. The hint is data
 * ({@link ValueNotFoundFeedback}); `renderFeedback` writes its text.
 */
import { identifierOf, isSignificant, tokenizeSql } from '../sandbox/sql-tokens.js';
import type { ValueHolder, ValueNotFoundFeedback } from '../feedback/sql-feedback.js';
import { tablesInSql } from '../sandbox/tables-in-sql.js';
import { isWordChar } from './word-char.js';

/** A column compared with a text literal for equality: `name = 'Joe'`, `T1.name LIKE 'Joe'` (no wildcard). */
export interface TextComparison {
  column: string;
  value: string;
  /** LIKE: the value matches regardless of ASCII case. */
  ignoresCase: boolean;
}

/** Values a hint lists per column. */
const HINT_VALUES = 3;
/** Comparisons a hint looks at: the first few, so that a long WHERE clause cannot make the hint slow. */
const HINT_COMPARISONS = 2;

/**
 * The equality comparisons of a column with a text literal in `sql` (LIKE counts when its pattern has
 * no wildcard); SQL that does not lex has none.
 *
 * @example
 * ```ts
 * textComparisons("SELECT age FROM singer AS T1 WHERE T1.name = 'Joe' AND country LIKE 'F%'");
 * // [{ column: 'name', value: 'Joe', ignoresCase: false }]
 * ```
 */
export function textComparisons(sql: string): TextComparison[] {
  const lexed = tokenizeSql(sql);
  if (!lexed.ok) return [];
  const tokens = lexed.tokens.filter(isSignificant);
  const out: TextComparison[] = [];
  for (let i = 1; i + 1 < tokens.length; i++) {
    const op = tokens[i]!;
    const isEquality = (op.kind === 'punct' && (op.text === '=' || op.text === '==')) || (op.kind === 'word' && op.text.toLowerCase() === 'like');
    const literal = tokens[i + 1]!;
    const column = identifierOf(tokens[i - 1]);
    if (!isEquality || literal.kind !== 'string' || column === undefined) continue;
    const value = literal.text.slice(1, -1).split("''").join("'");
    if (op.kind === 'word' && /[%_]/.test(value)) continue;
    out.push({ column, value, ignoresCase: op.kind === 'word' });
  }
  return out;
}

/** Character bigrams of a lower-cased string, with their counts. */
function bigrams(text: string): Map<string, number> {
  const s = text.toLowerCase();
  const out = new Map<string, number>();
  for (let i = 0; i + 1 < s.length; i++) out.set(s.slice(i, i + 2), (out.get(s.slice(i, i + 2)) ?? 0) + 1);
  return out;
}

/**
 * Dice similarity of the two strings' character bigrams, case-insensitive: 1 for equal strings, 0 for
 * strings without a common bigram. Unlike edit distance it sees a misspelled name in a longer one
 * (`'Brooksi Is'` shares most bigrams with `'Victor Brooks'`) and word order does not matter.
 *
 * @example
 * ```ts
 * bigramSimilarity('Span', 'Spain'); // 0.571…
 * ```
 */
export function bigramSimilarity(a: string, b: string): number {
  if (a.toLowerCase() === b.toLowerCase()) return 1;
  const x = bigrams(a);
  const y = bigrams(b);
  let common = 0;
  let total = 0;
  for (const [g, n] of x) {
    common += Math.min(n, y.get(g) ?? 0);
    total += n;
  }
  for (const n of y.values()) total += n;
  return total === 0 ? 0 : (2 * common) / total;
}

/**
 * The `limit` values most similar to `value` by {@link bigramSimilarity} (ties keep the values' order).
 *
 * @example
 * ```ts
 * closestValues('Span', ['France', 'Spain', 'Japan']); // ['Spain', 'Japan', 'France']
 * ```
 */
export function closestValues(value: string, values: readonly string[], limit = HINT_VALUES): string[] {
  return values
    .map((v, index) => ({ v, index, score: bigramSimilarity(value, v) }))
    .sort((p, q) => q.score - p.score || p.index - q.index)
    .slice(0, limit)
    .map((p) => p.v);
}

/**
 * Whether a result says "nothing matched": no rows, or one row of zeros and NULLs (`COUNT(*)` is 0, `MAX(x)` is NULL).
 *
 * @example
 * ```ts
 * foundNothing([[0]]); // true
 * ```
 */
export function foundNothing(rows: readonly (readonly unknown[])[]): boolean {
  if (rows.length === 0) return true;
  return rows.length === 1 && rows[0]!.every((cell) => cell === 0 || cell === null);
}

/** The first of `tables` with a column named `column` (ignoring case), and the column as that table spells it. */
function columnOf(tables: readonly string[], column: string, source: ValueHintSource): { table: string; exact: string } | undefined {
  for (const table of tables) {
    const exact = source.columns(table).find((c) => c.toLowerCase() === column.toLowerCase());
    if (exact !== undefined) return { table, exact };
  }
  return undefined;
}

/**
 * Whether `question` (lower case) names `value` as whole words, ignoring case; a one-letter value is not a name.
 *
 * @example
 * ```ts
 * questionNames('how many ports are in lisbon?', 'Lisbon'); // true
 * questionNames('how many ports are in lisbon?', 'Lis'); // false
 * ```
 */
export function questionNames(question: string, value: string): boolean {
  const v = value.toLowerCase();
  if (v.length < 2) return false;
  for (let i = question.indexOf(v); i >= 0; i = question.indexOf(v, i + 1)) {
    if (!isWordChar(question[i - 1]) && !isWordChar(question[i + v.length])) return true;
  }
  return false;
}

/**
 * The values of the queried tables' text columns that the question names (value linking, as BRIDGE matches a
 * question's words against the database's cells): per column its longest such value, and of those the longest few.
 * A small model on a database it has never seen writes a value from memory (`city = 'Sals'` for "ports in Porto");
 * the link says which value of which column the question meant.
 */
async function questionValuesHeld(question: string, tables: readonly string[], source: ValueHintSource): Promise<ValueHolder[]> {
  const lower = question.toLowerCase();
  const out: ValueHolder[] = [];
  for (const table of tables) {
    for (const column of source.columns(table)) {
      const held = (await source.textValues(table, column)).filter((v) => questionNames(lower, v)).sort((a, b) => b.length - a.length)[0];
      if (held !== undefined) out.push({ column: `${table}.${column}`, value: held });
    }
  }
  return out.sort((a, b) => b.value.length - a.value.length).slice(0, HOLDING_COLUMNS);
}

/** What {@link valueFeedback} reads from the database. */
export interface ValueHintSource {
  /** The episode's question: where no column has a compared value, the question's values are looked for in the queried tables. */
  question?: string;
  /** The database's tables. */
  tables: readonly string[];
  /** Column names of a table. */
  columns(table: string): readonly string[];
  /** The distinct text values of a column (a bounded number). */
  textValues(table: string, column: string): Promise<readonly string[]>;
}

/**
 * For a query that found nothing: for each of the first text comparisons whose value is in no row of its column (looked
 * up in the tables the query names), that column's closest values, and where other text columns of those tables have
 * the value, which ones (`port.city` has 'Lisbon'); where none has it, the values of those tables that the question
 * names (the question's 'Lisbon' is in `port.city`). Empty when every compared value exists, so the hint never
 * contradicts the result.
 *
 * @example
 * ```ts
 * const [hint] = await valueFeedback("SELECT count(*) FROM venue WHERE country = 'Span'", source);
 * hint?.closest; // ['Spain', 'Japan', 'Sweden']
 * renderFeedback(hint!); // "No row has country = 'Span'. Closest values of venue.country: 'Spain', 'Japan', 'Sweden'."
 * ```
 */
export async function valueFeedback(sql: string, hintSource: ValueHintSource): Promise<ValueNotFoundFeedback[]> {
  // The comparisons, the columns holding a value and the question's linked values read the same columns: each once.
  const read = new Map<string, Promise<readonly string[]>>();
  const source: ValueHintSource = {
    ...hintSource,
    textValues: (table, column) => {
      const key = `${table}\u0000${column}`;
      if (!read.has(key)) read.set(key, hintSource.textValues(table, column));
      return read.get(key)!;
    },
  };
  const named = tablesInSql(sql, source.tables);
  const out: ValueNotFoundFeedback[] = [];
  for (const { column, value, ignoresCase } of textComparisons(sql).slice(0, HINT_COMPARISONS)) {
    const match = columnOf(named, column, source);
    if (match === undefined) continue;
    const { table, exact } = match;
    const values = await source.textValues(table, exact);
    const found = ignoresCase ? values.some((v) => v.toLowerCase() === value.toLowerCase()) : values.includes(value);
    if (values.length === 0 || found) continue;
    const heldBy = await columnsHolding(value, named, `${table}.${exact}`, source);
    // Where no column has the value, the model may have made it up: the question's own values that the tables hold.
    const questionValues = heldBy.length === 0 && source.question !== undefined ? await questionValuesHeld(source.question, named, source) : [];
    out.push({ kind: 'value_not_found', column, value, lookedUpIn: `${table}.${exact}`, closest: closestValues(value, values), heldBy, questionValues });
  }
  return out;
}

/** Columns a hint names as holding a compared value: the first few, so that a wide table cannot make the hint long or slow. */
const HOLDING_COLUMNS = 2;

/**
 * The other text columns of `tables` (`table.column`, skipping `compared`) with a row whose value is `value` ignoring
 * ASCII case, each with the value as that column spells it. A small model that reads "ports in Lisbon" as
 * `name = 'Lisbon'` finds nothing; a hint that `port.city` has 'Lisbon' is the schema link it could not make, as value
 * retrieval gives larger text-to-SQL systems (BRIDGE, CHESS).
 */
async function columnsHolding(value: string, tables: readonly string[], compared: string, source: ValueHintSource): Promise<ValueHolder[]> {
  const out: ValueHolder[] = [];
  const wanted = value.toLowerCase();
  for (const table of tables) {
    for (const column of source.columns(table)) {
      const name = `${table}.${column}`;
      if (name === compared) continue;
      const spelling = (await source.textValues(table, column)).find((v) => v.toLowerCase() === wanted);
      if (spelling === undefined) continue;
      out.push({ column: name, value: spelling });
      if (out.length === HOLDING_COLUMNS) return out;
    }
  }
  return out;
}
