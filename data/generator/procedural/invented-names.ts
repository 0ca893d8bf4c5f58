/**
 * Invented names for procedural databases: tables and attribute columns renamed to pronounceable
 * made-up words (`dravel`, `kosimar`). The entity catalog has about fifty table nouns; a model
 * pre-trained on databases built only from them learns those fifty names, not how to find a table
 * or column it has never seen in the prompt and the `describe` output. With some names invented,
 * the only way to the right table and column is to copy it from the question and the schema —
 * the skill unseen databases need. Questions use the invented words too (a table's noun, a
 * column's label), so a question still names what it asks about.
 */
import { Rng } from '../../../src/base/rng.js';
import type { ColumnSpec, DomainSpec, TableSpec } from '../schema.js';
import { stableHash } from '../stable-hash.js';

const ONSETS = ['b', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'br', 'dr', 'gl', 'kr', 'pl', 'st', 'tr', 'sk'] as const;
const VOWELS = ['a', 'e', 'i', 'o', 'u'] as const;
const CODAS = ['', '', '', 'n', 'r', 'l', 'm', 's', 'k', 't'] as const;

/** SQL words an invented name must never be (they would not parse as identifiers). */
const RESERVED = new Set(['as', 'by', 'do', 'if', 'in', 'is', 'no', 'of', 'on', 'or', 'to', 'and', 'not', 'set', 'all', 'end', 'for', 'key', 'add', 'asc', 'desc', 'from', 'into', 'join', 'like', 'limit', 'null', 'order', 'group', 'table', 'select', 'where', 'union', 'case', 'else', 'then', 'when', 'with', 'drop', 'values', 'index', 'view']);

/**
 * A made-up word of two or three syllables, lower case, never a SQL keyword.
 *
 * @example
 * ```ts
 * inventedWord(new Rng(1)); // e.g. 'kotiral'
 * ```
 */
export function inventedWord(rng: Rng): string {
  for (;;) {
    const syllables = rng.intBetween(2, 3);
    let word = '';
    for (let i = 0; i < syllables; i++) word += rng.choice(ONSETS) + rng.choice(VOWELS) + (i === syllables - 1 ? rng.choice(CODAS) : '');
    if (!RESERVED.has(word)) return word;
  }
}

/**
 * The domain with each table renamed with probability `share` (its name, singular and plural,
 * and every reference to it) and each attribute column (not keys, names or references) renamed
 * with probability `share` (its name and its label, so questions use the new word). Seeded by
 * the domain id: the same domain and share always give the same names.
 *
 * @example
 * ```ts
 * const spec = withInventedNames(proceduralDomain('pre_0', 1), 0.5);
 * spec.tables.map((t) => t.name); // some catalog nouns, some invented words
 * ```
 */
export function withInventedNames(spec: DomainSpec, share: number): DomainSpec {
  if (share <= 0) return spec;
  const rng = new Rng(stableHash(`invented:${spec.id}`));
  const used = new Set(spec.tables.flatMap((t) => [t.name, ...t.columns.map((c) => c.name)]));
  const fresh = (): string => {
    for (;;) {
      const w = inventedWord(rng);
      if (!used.has(w) && !used.has(`${w}_id`)) {
        used.add(w);
        return w;
      }
    }
  };
  const renamed = new Map<string, TableSpec>();
  for (const t of spec.tables) {
    if (rng.float() < share) {
      const word = fresh();
      renamed.set(t.name, { ...t, name: word, singular: word, plural: `${word}s` });
    }
  }
  const tables = spec.tables.map((t): TableSpec => {
    const base = renamed.get(t.name) ?? t;
    const columns = t.columns.map((c): ColumnSpec => {
      if (c.role === 'reference' && c.references && renamed.has(c.references)) {
        const target = renamed.get(c.references)!;
        // The generator's closure names the old table: pick keys from the renamed one.
        return { ...c, name: `${target.name}_id`, references: target.name, label: target.singular, generate: (ctx) => ctx.pick(target.name) };
      }
      if ((c.role === 'category' || c.role === 'number' || c.role === 'date') && rng.float() < share) {
        const word = fresh();
        return { ...c, name: word, label: word };
      }
      return c;
    });
    return { ...base, columns };
  });
  return { ...spec, tables, summary: `${spec.summary} (some names invented)` };
}
