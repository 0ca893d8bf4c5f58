/**
 * Turns a {@link DomainSpec} into rows: tables in order, columns left to right, each value from
 * its column's generator with one seeded {@link Rng} per table (so changing one table's rules
 * does not reshuffle the others).
 */
import { Rng } from '../../src/base/rng.js';
import { primaryKeyOf, type DomainSpec, type Row, type RowContext, type SqlValue, type TableSpec } from './schema.js';
import { stableHash } from './stable-hash.js';
import { DataError } from '../lib/data-error.js';

/** A domain with its generated rows, table by table, in insertion order. */
export interface GeneratedDatabase {
  readonly spec: DomainSpec;
  readonly rows: ReadonlyMap<string, readonly Row[]>;
}

/** Thrown when a table's constraints cannot be met (e.g. too few distinct names for its row count). */
export class GenerationError extends DataError {
  override readonly name = 'GenerationError';
}

const MAX_ATTEMPTS = 200;

/**
 * Generate every table of a domain.
 *
 * @example
 * ```ts
 * const db = populate(concertsDomain, 2024);
 * db.rows.get('singer')?.length; // the table's rowCount
 * ```
 */
export function populate(spec: DomainSpec, seed: number): GeneratedDatabase {
  const rows = new Map<string, Row[]>();
  const byKey = new Map<string, Map<SqlValue, Row>>();

  const keysOf = (table: string): SqlValue[] => {
    const done = rows.get(table);
    if (!done || done.length === 0) {
      throw new GenerationError(`${spec.id}: table ${table} is referenced before it is generated; list it earlier`);
    }
    const tableSpec = spec.tables.find((t) => t.name === table)!;
    const pk = primaryKeyOf(tableSpec).name;
    return done.map((r) => r[pk]!);
  };
  const keyCache = new Map<string, SqlValue[]>();

  for (const table of spec.tables) {
    const rng = new Rng(stableHash(`${seed}:${spec.id}:${table.name}`));
    const tableRows = generateTable(table, rng, {
      pick: (t, r) => {
        let keys = keyCache.get(t);
        if (!keys) { keys = keysOf(t); keyCache.set(t, keys); }
        return r.choice(keys);
      },
      lookup: (t, key, column) => byKey.get(t)?.get(key)?.[column] ?? null,
    });
    rows.set(table.name, tableRows);
    const pk = primaryKeyOf(table).name;
    byKey.set(table.name, new Map(tableRows.map((r) => [r[pk]!, r])));
  }
  return { spec, rows };
}

interface Lookups {
  pick(table: string, rng: Rng): SqlValue;
  lookup(table: string, key: SqlValue, column: string): SqlValue;
}

function generateTable(table: TableSpec, rng: Rng, lookups: Lookups): Row[] {
  const out: Row[] = [];
  const seen = new Map<string, Set<SqlValue>>();
  for (const c of table.columns) if (c.unique) seen.set(c.name, new Set());
  const together = new Set<string>();

  for (let index = 0; index < table.rowCount; index++) {
    let attempt = 0;
    for (;;) {
      const row: Row = {};
      const ctx: RowContext = {
        rng, index, row,
        pick: (t) => lookups.pick(t, rng),
        lookup: (t, key, column) => lookups.lookup(t, key, column),
      };
      let ok = true;
      for (const c of table.columns) {
        const v = c.generate(ctx);
        if (c.unique && seen.get(c.name)!.has(v)) { ok = false; break; }
        row[c.name] = v;
      }
      const tupleKey = table.uniqueTogether ? JSON.stringify(table.uniqueTogether.map((c) => row[c])) : '';
      if (ok && table.uniqueTogether && together.has(tupleKey)) ok = false;
      if (ok) {
        for (const c of table.columns) if (c.unique) seen.get(c.name)!.add(row[c.name]!);
        if (table.uniqueTogether) together.add(tupleKey);
        out.push(row);
        break;
      }
      if (++attempt >= MAX_ATTEMPTS) {
        throw new GenerationError(
          `table ${table.name}: could not make row ${index + 1} unique after ${MAX_ATTEMPTS} tries; ` +
          'lower rowCount or widen the value lists of its unique columns',
        );
      }
    }
  }
  return out;
}
