/**
 * The `tables.json` entry of a database in Spider's format: original and natural table and
 * column names, Spider's coarse column types, and primary/foreign keys as column indices
 * (index 0 is Spider's `*` pseudo-column).
 */
import { primaryKeyOf, type ColumnSpec, type DomainSpec } from './schema.js';

/** One database in Spider's `tables.json`. */
export interface SpiderTablesEntry {
  db_id: string;
  table_names_original: string[];
  table_names: string[];
  column_names_original: [number, string][];
  column_names: [number, string][];
  column_types: string[];
  primary_keys: number[];
  foreign_keys: [number, number][];
}

function spiderType(c: ColumnSpec): string {
  if (c.sqlType === 'DATE') return 'time';
  if (c.sqlType === 'INTEGER' || c.sqlType === 'REAL') return 'number';
  return 'text';
}

/**
 * Describe a domain's schema the way Spider's `tables.json` does.
 *
 * @example
 * ```ts
 * spiderTablesEntry(concertsDomain).table_names; // ['venue', 'artist', …]
 * ```
 */
export function spiderTablesEntry(domain: DomainSpec): SpiderTablesEntry {
  const entry: SpiderTablesEntry = {
    db_id: domain.id,
    table_names_original: domain.tables.map((t) => t.name),
    table_names: domain.tables.map((t) => t.singular),
    column_names_original: [[-1, '*']],
    column_names: [[-1, '*']],
    column_types: ['text'],
    primary_keys: [],
    foreign_keys: [],
  };
  const indexOf = new Map<string, number>();
  domain.tables.forEach((t, ti) => {
    for (const c of t.columns) {
      indexOf.set(`${t.name}.${c.name}`, entry.column_names_original.length);
      entry.column_names_original.push([ti, c.name]);
      entry.column_names.push([ti, c.label === 'id' ? `${t.singular} id` : c.label]);
      entry.column_types.push(spiderType(c));
    }
  });
  for (const t of domain.tables) {
    entry.primary_keys.push(indexOf.get(`${t.name}.${primaryKeyOf(t).name}`)!);
    for (const c of t.columns) {
      if (c.role !== 'reference' || !c.references) continue;
      const target = domain.tables.find((x) => x.name === c.references)!;
      entry.foreign_keys.push([indexOf.get(`${t.name}.${c.name}`)!, indexOf.get(`${target.name}.${primaryKeyOf(target).name}`)!]);
    }
  }
  return entry;
}
