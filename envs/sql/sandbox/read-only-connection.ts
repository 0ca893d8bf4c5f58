import Database from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';
import { SqlSandboxError } from './errors.js';

/** A better-sqlite3 connection (the type the sandbox hands around). */
export type SqliteConnection = Database.Database;

/**
 * Open an existing SQLite file for reading only, with every guard the driver offers:
 * `readonly` and `fileMustExist` (no file is ever created or written), unsafe mode off (no
 * writes while iterating), `PRAGMA query_only` (SQLite itself refuses any change, temporary
 * tables included), and `PRAGMA trusted_schema = OFF` (views and triggers in a hostile file
 * cannot call functions with side effects). Extension loading stays disabled, as the driver
 * leaves it.
 *
 * A database in WAL journal mode is refused: even a read-only reader creates `-wal` and `-shm`
 * files beside it, and the driver cannot open it `immutable`.
 *
 * @throws SqlSandboxError (`sql_error`) when the file does not exist, cannot be opened, or is in WAL mode.
 * @example
 * ```ts
 * const db = openReadOnlyDatabase('data/bundled/database/concert_singer/concert_singer.sqlite');
 * try { db.prepare('SELECT count(*) FROM singer').pluck().get(); } finally { db.close(); }
 * ```
 */
export function openReadOnlyDatabase(dbPath: string): SqliteConnection {
  if (isWalDatabase(dbPath)) {
    throw new SqlSandboxError(
      'sql_error',
      `database ${dbPath} is in WAL journal mode, and reading it would create -wal/-shm files beside it. ` +
        "Convert it once with: sqlite3 FILE 'PRAGMA journal_mode=DELETE'.",
    );
  }
  let db: SqliteConnection;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new SqlSandboxError(
      'sql_error',
      `cannot open database ${dbPath}: ${(e as Error).message}. Check the path names an existing SQLite file.`,
    );
  }
  try {
    db.unsafeMode(false);
    db.pragma('query_only = ON');
    db.pragma('trusted_schema = OFF');
  } catch (e) {
    db.close();
    throw new SqlSandboxError('sql_error', `cannot configure database ${dbPath}: ${(e as Error).message}`);
  }
  return db;
}

/**
 * True when the file's SQLite header says WAL mode (bytes 18–19, the read and write format
 * versions, are 2). Unreadable or non-SQLite files are left to the driver's own error.
 */
function isWalDatabase(dbPath: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(dbPath, 'r');
    const header = Buffer.alloc(20);
    if (readSync(fd, header, 0, 20, 0) < 20) return false;
    return header.toString('latin1', 0, 15) === 'SQLite format 3' && (header[18] === 2 || header[19] === 2);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
