/**
 * Writes a generated database to a SQLite file so that the same rows always give the same
 * bytes: a fresh file, fixed page size, no WAL, rows inserted in generation order inside one
 * transaction, foreign keys indexed, and a final VACUUM that lays pages out canonically.
 */
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { GeneratedDatabase } from './populate.js';
import { primaryKeyOf, type TableSpec } from './schema.js';
import { DataError } from '../lib/data-error.js';

/** The page size every bundled database uses. */
export const PAGE_SIZE = 4096;

/**
 * The CREATE TABLE statement of a table, with its primary and foreign keys.
 *
 * @example
 * ```ts
 * createTableSql(patientTable); // 'CREATE TABLE patient (\n  id INTEGER PRIMARY KEY, …)'
 * ```
 */
export function createTableSql(table: TableSpec, tables: readonly TableSpec[]): string {
  const pk = primaryKeyOf(table);
  const lines = table.columns.map((c) => {
    const parts = [`  ${c.name} ${c.sqlType}`];
    if (c === pk) parts.push('PRIMARY KEY');
    else if (!c.nullable) parts.push('NOT NULL');
    return parts.join(' ');
  });
  for (const c of table.columns) {
    if (c.role !== 'reference' || !c.references) continue;
    const target = tables.find((t) => t.name === c.references);
    if (!target) throw new DataError(`${table.name}.${c.name} references unknown table ${c.references}`);
    lines.push(`  FOREIGN KEY (${c.name}) REFERENCES ${target.name}(${primaryKeyOf(target).name})`);
  }
  return `CREATE TABLE ${table.name} (\n${lines.join(',\n')}\n)`;
}

/**
 * Create (or replace) the SQLite file for a generated database.
 *
 * @example
 * ```ts
 * writeSqlite(populate(domain, 7), 'data/bundled/database/x/x.sqlite');
 * ```
 */
export function writeSqlite(db: GeneratedDatabase, file: string): void {
  rmSync(file, { force: true });
  rmSync(`${file}-journal`, { force: true });
  const conn = new Database(file);
  try {
    conn.pragma(`page_size = ${PAGE_SIZE}`);
    conn.pragma('journal_mode = DELETE');
    conn.pragma('foreign_keys = ON');
    const tables = db.spec.tables;
    conn.transaction(() => {
      for (const table of tables) {
        conn.exec(createTableSql(table, tables));
        const cols = table.columns.map((c) => c.name);
        const insert = conn.prepare(`INSERT INTO ${table.name} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
        for (const row of db.rows.get(table.name) ?? []) insert.run(cols.map((c) => row[c] ?? null));
        // Index every foreign key, as a real schema would: joins and correlated subqueries on
        // them then stay well inside the sandbox's time limit.
        for (const c of table.columns) {
          if (c.role === 'reference') conn.exec(`CREATE INDEX ${table.name}_${c.name}_idx ON ${table.name} (${c.name})`);
        }
      }
    })();
    conn.exec('VACUUM');
  } finally {
    conn.close();
  }
}
