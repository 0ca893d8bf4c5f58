/**
 * A digest of a SQLite database's logical content — schema text and every row in rowid
 * order — independent of page layout, so two builds can be compared even where SQLite's file
 * bytes might differ (another SQLite version, another page allocation).
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

/**
 * SHA-256 over the schema and rows of every table, tables sorted by name.
 *
 * @example
 * ```ts
 * canonicalDigest('data/bundled/database/concerts/concerts.sqlite'); // '3f9a…' (64 hex chars)
 * ```
 */
export function canonicalDigest(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const hash = createHash('sha256');
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string; sql: string }[];
    for (const t of tables) {
      hash.update(`${t.sql}\n`);
      const rows = db.prepare(`SELECT * FROM "${t.name.replace(/"/g, '""')}" ORDER BY rowid`).raw(true).iterate() as IterableIterator<unknown[]>;
      for (const row of rows) hash.update(`${JSON.stringify(row)}\n`);
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}
