import type { Rng } from '../../../src/base/rng.js';
import { identifierOf, isSignificant, tokenizeSql, type SqlToken } from '../sandbox/sql-tokens.js';

/**
 * The ways a small model's first query goes wrong that the environment's feedback can reveal: a value
 * copied from the question with a typo (an empty result or a zero), a table that is not in this
 * database (the error lists the tables), a column that is not in the table (the error lists the columns).
 * A wrong value that still matches rows is left out: nothing in the feedback says it is wrong.
 */
export type MistakeKind = 'misspelled_value' | 'unknown_table' | 'unknown_column';

/** A wrong version of a gold query, and what is wrong with it. */
export interface RehearsedMistake {
  kind: MistakeKind;
  sql: string;
}

const COMPARISONS = new Set(['=', '==', '!=', '<>', '<', '<=', '>', '>=']);
const COMPARISON_WORDS = new Set(['like', 'between', 'in', 'is', 'not', 'glob']);

/** One typo in a word of at least 3 letters: two neighbours swapped, one letter dropped or doubled. */
function typo(text: string, rng: Rng): string {
  if (text.length < 3) return text + text.slice(-1);
  const i = 1 + rng.int(text.length - 2);
  switch (rng.int(3)) {
    case 0:
      return text[i] === text[i + 1] ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2);
    case 1:
      return text.slice(0, i) + text.slice(i + 1);
    default:
      return text.slice(0, i) + text[i] + text.slice(i);
  }
}

/** `sql` with the tokens at `indices` replaced by `text`. */
function replaced(tokens: readonly SqlToken[], indices: ReadonlySet<number>, text: string): string {
  return tokens.map((t, i) => (indices.has(i) ? text : t.text)).join('');
}

/** The next significant token after index `i`. */
function nextSignificant(tokens: readonly SqlToken[], i: number): SqlToken | undefined {
  for (let j = i + 1; j < tokens.length; j++) if (isSignificant(tokens[j]!)) return tokens[j];
  return undefined;
}

/**
 * A plausible wrong first query for SFT to recover from, or undefined when `goldSql` offers none of the
 * kinds. `tables` are this database's tables; `strangers` are table names of other databases, the names
 * a model that memorised its training databases writes on a new one.
 *
 * @example
 * ```ts
 * rehearsedMistake("SELECT count(*) FROM singer WHERE country = 'France'", ['singer', 'concert'], ['doctor'], new Rng(1));
 * // e.g. { kind: 'misspelled_value', sql: "SELECT count(*) FROM singer WHERE country = 'Frnace'" }
 * ```
 */
export function rehearsedMistake(goldSql: string, tables: readonly string[], strangers: readonly string[], rng: Rng): RehearsedMistake | undefined {
  const lexed = tokenizeSql(goldSql);
  if (!lexed.ok) return undefined;
  const tokens = lexed.tokens;
  const tableSet = new Set(tables.map((t) => t.toLowerCase()));
  const options: Array<() => RehearsedMistake | undefined> = [];

  const strings = tokens.map((t, i) => (t.kind === 'string' && t.text.length >= 5 ? i : -1)).filter((i) => i >= 0);
  if (strings.length > 0) {
    options.push(() => {
      const i = rng.choice(strings);
      const inner = tokens[i]!.text.slice(1, -1);
      const wrong = typo(inner, rng);
      return wrong === inner ? undefined : { kind: 'misspelled_value', sql: replaced(tokens, new Set([i]), `'${wrong}'`) };
    });
  }

  const named = [...new Set(tokens.map((t) => identifierOf(t)?.toLowerCase()).filter((n): n is string => n !== undefined && tableSet.has(n)))];
  const otherNames = strangers.filter((s) => !tableSet.has(s.toLowerCase()));
  if (named.length > 0) {
    options.push(() => {
      const table = rng.choice(named);
      const wrong = otherNames.length > 0 && rng.float() < 0.5 ? rng.choice(otherNames) : table.endsWith('s') ? table.slice(0, -1) : `${table}s`;
      if (tableSet.has(wrong.toLowerCase())) return undefined;
      const at = new Set(tokens.map((t, i) => (identifierOf(t)?.toLowerCase() === table ? i : -1)).filter((i) => i >= 0));
      return { kind: 'unknown_table', sql: replaced(tokens, at, wrong) };
    });
  }

  // Columns compared in a filter: a bare word just before a comparison.
  const compared = tokens
    .map((t, i) => {
      if (t.kind !== 'word' || tableSet.has(t.text.toLowerCase())) return -1;
      const next = nextSignificant(tokens, i);
      if (!next) return -1;
      const isComparison = (next.kind === 'punct' && COMPARISONS.has(next.text)) || (next.kind === 'word' && COMPARISON_WORDS.has(next.text.toLowerCase()));
      return isComparison ? i : -1;
    })
    .filter((i) => i >= 0);
  if (compared.length > 0) {
    options.push(() => {
      const i = rng.choice(compared);
      const column = tokens[i]!.text;
      const wrong = typo(column, rng);
      return wrong.toLowerCase() === column.toLowerCase() || tableSet.has(wrong.toLowerCase()) ? undefined : { kind: 'unknown_column', sql: replaced(tokens, new Set([i]), wrong) };
    });
  }

  if (options.length === 0) return undefined;
  return rng.choice(options)();
}
