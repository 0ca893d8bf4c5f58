import type Database from 'better-sqlite3';
import { displayCell, renderedCellBytes, toSqlCell } from './cells.js';
import { doubleQuotedToString, unresolvedDoubleQuoted } from './double-quoted-strings.js';
import { SqlSandboxError } from './errors.js';
import type { QueryLimits } from './limits.js';
import type { QueryResult, SqlCell } from './query-result.js';
import type { SqliteConnection } from './read-only-connection.js';

type Statement = Database.Statement<unknown[], unknown>;

/** Unresolved double-quoted words rewritten as strings before giving up (see {@link doubleQuotedToString}). */
const MAX_DQS_REWRITES = 32;

/**
 * Run one already-screened read statement on a read-only connection, under `limits` (all but
 * the timeout, which only a separate process can enforce). Refuses any statement SQLite itself
 * reports as writing or as returning no rows, so a statement that slipped past the static
 * screening still cannot change anything. Iterates rows instead of loading them all, stopping
 * at `fetchRows` rows or `maxResultBytes`.
 *
 * @throws SqlSandboxError with `sql_error`, `forbidden_sql` or `result_too_large`.
 * @example
 * ```ts
 * const result = executeReadQuery(db, 'SELECT name FROM singer', DEFAULT_QUERY_LIMITS);
 * ```
 */
export function executeReadQuery(
  db: SqliteConnection,
  sql: string,
  limits: QueryLimits,
): Omit<QueryResult, 'elapsedMs'> {
  const stmt = prepareRead(db, sql);
  stmt.raw(true);
  stmt.safeIntegers(true);
  const columns = stmt.columns().map((c) => c.name);

  const fullRows: SqlCell[][] = [];
  const rows: SqlCell[][] = [];
  let cellsCut = false;
  let bytes = 0;
  let rowCountExact = true;
  try {
    for (const raw of stmt.iterate() as Iterable<unknown[]>) {
      if (fullRows.length >= limits.fetchRows) {
        rowCountExact = false;
        break;
      }
      const row: SqlCell[] = new Array<SqlCell>(raw.length);
      for (let c = 0; c < raw.length; c++) {
        bytes += renderedCellBytes(raw[c]);
        if (bytes > limits.maxResultBytes) throw tooLarge(fullRows.length + 1, limits);
        row[c] = toSqlCell(raw[c]);
      }
      if (rows.length < limits.maxRows) {
        // Only text and blobs are cut: a big integer rendered as a string must stay whole.
        rows.push(
          raw.map((value) => {
            const { cell, cut } = displayCell(value, limits.maxCellChars);
            cellsCut ||= cut;
            return cell;
          }),
        );
      }
      fullRows.push(row);
    }
  } catch (e) {
    throw toSandboxError(e, db);
  }

  return {
    columns,
    rows,
    rowCount: fullRows.length,
    rowCountExact,
    truncated: cellsCut || rows.length < fullRows.length || !rowCountExact,
    fullRows,
  };
}

/** Prepare `sql`, retrying with SQLite's legacy double-quoted-string rule, and check it only reads. */
function prepareRead(db: SqliteConnection, sql: string): Statement {
  let text = sql;
  for (let attempt = 0; ; attempt++) {
    try {
      const stmt = db.prepare<unknown[], unknown>(text);
      if (!stmt.reader) {
        throw new SqlSandboxError(
          'forbidden_sql',
          'this statement returns no rows, so it is not a query; only SELECT, WITH … SELECT and VALUES run here.',
        );
      }
      if (!stmt.readonly) {
        throw new SqlSandboxError(
          'forbidden_sql',
          'SQLite reports that this statement would write to the database; the database is read-only. Use SELECT.',
        );
      }
      return stmt;
    } catch (e) {
      if (e instanceof SqlSandboxError) throw e;
      const name = unresolvedDoubleQuoted((e as Error).message);
      const rewritten = name === undefined ? undefined : doubleQuotedToString(text, name);
      if (rewritten === undefined || attempt >= MAX_DQS_REWRITES) throw toSandboxError(e, db);
      text = rewritten;
    }
  }
}

function tooLarge(rows: number, limits: QueryLimits): SqlSandboxError {
  return new SqlSandboxError(
    'result_too_large',
    `the result passed ${formatBytes(limits.maxResultBytes)} after ${rows.toLocaleString('en-US')} rows. ` +
      'Add a LIMIT, select fewer or shorter columns, or aggregate (COUNT, SUM, GROUP BY) instead of listing rows.',
  );
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) ? 1 : 0)} MiB` : `${n} bytes`;
}

/** Map a driver error to the sandbox taxonomy, adding the database's tables when a name is unknown. */
function toSandboxError(e: unknown, db: SqliteConnection): SqlSandboxError {
  if (e instanceof SqlSandboxError) return e;
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown }).code;
  if (code === 'SQLITE_NOMEM' || code === 'SQLITE_TOOBIG') {
    return new SqlSandboxError(
      'result_too_large',
      `the query needs too much memory (${message}). Avoid huge strings or blobs (zeroblob, randomblob, ` +
        'group_concat over many rows); add a LIMIT or aggregate.',
    );
  }
  if (code === 'SQLITE_READONLY' || code === 'SQLITE_AUTH' || message === 'not authorized') {
    return new SqlSandboxError('forbidden_sql', `refused by SQLite (${message}): the database is read-only. Use SELECT.`);
  }
  if (/^no such table/.test(message)) {
    return new SqlSandboxError('sql_error', `${message}. Tables in this database: ${listTables(db)}.`);
  }
  if (/^no such column/.test(message)) {
    return new SqlSandboxError(
      'sql_error',
      `${message}. Check the column names of the tables you use (PRAGMA table_info(table) lists them); ` +
        "write text values in single quotes: 'Paris'.",
    );
  }
  return new SqlSandboxError('sql_error', message);
}

function listTables(db: SqliteConnection): string {
  try {
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    return names.length > 0 ? names.join(', ') : '(none)';
  } catch {
    return '(unreadable)';
  }
}
