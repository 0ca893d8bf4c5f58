/**
 * Procedurally generated domains: a seed picks 3–5 entity kinds, 2–4 attributes for each, the
 * foreign keys between them and the row counts. The generic question templates then ask
 * questions on them like on any hand-written domain, so one generator yields as many distinct
 * databases as wanted — for a validation split of unseen databases and for pre-training corpora
 * in which no schema repeats often enough to be memorised.
 */
import { Rng } from '../../../src/base/rng.js';
import { key, ref } from '../columns.js';
import type { ColumnSpec, DomainSpec, TableSpec } from '../schema.js';
import { stableHash } from '../stable-hash.js';
import { ATTRIBUTES, ENTITY_KINDS, namingColumn, type EntityKind } from './entity-catalog.js';

/** Row-count range of a generated table (names are unique, which bounds titled tables). */
const ROWS = { min: 20, max: 240 } as const;

/**
 * A procedurally generated domain. The same `(id, seed)` always gives the same spec; different
 * seeds give different tables, columns, links and sizes.
 *
 * @example
 * ```ts
 * const spec = proceduralDomain('gen_harbour', 7);
 * spec.tables.length; // 3 to 5
 * ```
 */
export function proceduralDomain(id: string, seed: number): DomainSpec {
  const rng = new Rng(stableHash(`procedural:${id}:${seed}`));
  const tableCount = rng.intBetween(3, 5);
  const kinds: EntityKind[] = rng.shuffle(ENTITY_KINDS).slice(0, tableCount);
  const tables: TableSpec[] = [];
  for (const [i, kind] of kinds.entries()) {
    const columns: ColumnSpec[] = [key(), namingColumn(kind)];
    // Earlier tables can be referenced (tables are generated in order); most later tables link
    // to one earlier table, some to two, so joins exist without every table being a hub.
    const parents = i === 0 ? [] : rng.shuffle(tables).slice(0, rng.float() < 0.25 ? Math.min(2, tables.length) : 1);
    for (const parent of parents) columns.push(ref(`${parent.name}_id`, parent.name, parent.singular));
    const attributeCount = rng.intBetween(2, Math.min(4, kind.attributes.length));
    for (const attribute of rng.shuffle(kind.attributes).slice(0, attributeCount)) {
      columns.push(ATTRIBUTES[attribute]!(attribute));
    }
    // Tables that others reference are smaller than the ones referencing them, as in real schemas.
    const rowCount = i === 0 ? rng.intBetween(ROWS.min, 60) : rng.intBetween(60, ROWS.max);
    tables.push({ name: kind.table, singular: kind.singular, plural: kind.plural, rowCount, columns });
  }
  const nouns = kinds.map((k) => k.plural);
  return {
    id,
    summary: `Procedurally generated (seed ${seed}): ${nouns.slice(0, -1).join(', ')} and ${nouns.at(-1)!}.`,
    tables,
    templates: [],
  };
}

/**
 * `count` procedural domains with ids `${prefix}_${n}` and seeds `firstSeed + n`.
 *
 * @example
 * ```ts
 * proceduralDomains('val', 3, 1000).map((d) => d.id); // ['val_0', 'val_1', 'val_2']
 * ```
 */
export function proceduralDomains(prefix: string, count: number, firstSeed: number): DomainSpec[] {
  return Array.from({ length: count }, (_, n) => proceduralDomain(`${prefix}_${n}`, firstSeed + n));
}
