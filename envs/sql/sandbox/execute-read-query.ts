import type Database from 'better-sqlite3';
import { cutCell, renderedCellBytes, toSqlCell } from './cells.js';
import { doubleQuotedToString, unresolvedDoubleQuoted } from './double-quoted-strings.js';
import { renderFeedback } from '../feedback/render-feedback.js';
import type { TableColumns, UnknownColumnFeedback, UnknownTableFeedback } from '../feedback/sql-feedback.js';
import { SqlSandboxError } from './errors.js';
import type { QueryLimits } from './limits.js';
import type { QueryResult, SqlCell } from './query-result.js';
import type { SqliteConnection } from './read-only-connection.js';
import type { PreparedRead, StatementCache } from './statement-cache.js';
import { tablesInSql } from './tables-in-sql.js';

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
 * Integers are read as JavaScript numbers, which is exact up to 2^53. A number beyond ±(2^53 − 1)
 * may be a rounded 64-bit integer, so the first one seen abandons the pass and the statement is
 * read again from the start with exact (BigInt) integers: the result is always what an exact read
 * gives, and the BigInt per integer is paid only by results that hold such large numbers.
 *
 * With `statements`, the statement compiled for this SQL text on this connection before is run
 * again instead of being compiled again (see {@link StatementCache}).
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
  statements?: StatementCache,
): Omit<QueryResult, 'elapsedMs'> {
  const prepared = statements ? statements.get(db, sql, () => prepareRead(db, sql)) : prepareRead(db, sql);
  const stmt = prepared.stmt;
  // A fresh array each time: the result is handed on and may be changed by its receiver.
  const columns = prepared.columns.slice();
  try {
    stmt.safeIntegers(false);
    const fast = readRows(stmt, limits, false);
    if (fast) return { columns, ...fast };
    stmt.safeIntegers(true);
    return { columns, ...readRows(stmt, limits, true)! };
  } catch (e) {
    throw toSandboxError(e, db, sql);
  }
}

type ReadRows = Omit<QueryResult, 'elapsedMs' | 'columns'> & { fullRows: SqlCell[][] };

/**
 * Iterate `stmt` (raw mode) into rendered rows. With `exactIntegers` false the statement reads
 * integers as numbers, and the pass gives up (undefined) at the first number a rounded 64-bit
 * integer could hide behind; with `exactIntegers` true integers arrive as BigInts.
 */
function readRows(stmt: Statement, limits: QueryLimits, exactIntegers: boolean): ReadRows | undefined {
  const { fetchRows, maxRows, maxCellChars, maxResultBytes } = limits;
  const fullRows: SqlCell[][] = [];
  const rows: SqlCell[][] = [];
  let cellsCut = false;
  let bytes = 0;
  let rowCountExact = true;
  // Columns of the current row shown to the agent that are text (or rendered blobs) longer than
  // maxCellChars. Big integers rendered as strings are never cut, so they never land here.
  const cutAt: number[] = [];
  for (const row of stmt.iterate() as Iterable<unknown[]>) {
    if (fullRows.length >= fetchRows) {
      rowCountExact = false;
      break;
    }
    const shown = rows.length < maxRows;
    // The row array from the driver is fresh per row: its cells are rendered in place.
    const cells = row as SqlCell[];
    for (let c = 0; c < row.length; c++) {
      const value = row[c];
      if (typeof value === 'number') {
        bytes += 8;
        if (value > Number.MAX_SAFE_INTEGER || value < Number.MIN_SAFE_INTEGER) {
          if (!Number.isFinite(value)) cells[c] = String(value);
          else if (!exactIntegers) return undefined; // possibly a rounded big integer: read again exactly
        }
      } else if (typeof value === 'string') {
        bytes += value.length + 2;
        if (shown && value.length > maxCellChars) cutAt.push(c);
      } else if (value === null) {
        bytes += 8;
      } else {
        // BigInts (exact pass) and blobs. A blob is sized before it is rendered, so a huge one is refused unrendered.
        bytes += renderedCellBytes(value);
        if (bytes > maxResultBytes) throw tooLarge(fullRows.length + 1, limits);
        const cell = toSqlCell(value);
        cells[c] = cell;
        if (shown && value instanceof Uint8Array && (cell as string).length > maxCellChars) cutAt.push(c);
      }
      if (bytes > maxResultBytes) throw tooLarge(fullRows.length + 1, limits);
    }
    if (shown) {
      if (cutAt.length === 0) {
        rows.push(cells);
      } else {
        const display = cells.slice();
        for (const c of cutAt) display[c] = cutCell(display[c]!, maxCellChars).cell;
        rows.push(display);
        cellsCut = true;
        cutAt.length = 0;
      }
    }
    fullRows.push(cells);
  }
  return {
    rows,
    rowCount: fullRows.length,
    rowCountExact,
    truncated: cellsCut || rows.length < fullRows.length || !rowCountExact,
    fullRows,
  };
}

/** Prepare `sql`, retrying with SQLite's legacy double-quoted-string rule, and check it only reads. */
function prepareRead(db: SqliteConnection, sql: string): PreparedRead {
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
      stmt.raw(true);
      return { stmt, columns: stmt.columns().map((c) => c.name) };
    } catch (e) {
      if (e instanceof SqlSandboxError) throw e;
      const name = unresolvedDoubleQuoted((e as Error).message);
      const rewritten = name === undefined ? undefined : doubleQuotedToString(text, name);
      if (rewritten === undefined || attempt >= MAX_DQS_REWRITES) throw toSandboxError(e, db, sql);
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

/**
 * Map a driver error to the sandbox taxonomy. An unknown table gets the database's tables, an
 * unknown column the columns of the tables `sql` names, so that the next query can be right.
 */
function toSandboxError(e: unknown, db: SqliteConnection, sql: string): SqlSandboxError {
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
  const unknownTable = /^no such table: (.*)$/s.exec(message);
  if (unknownTable) {
    const feedback: UnknownTableFeedback = { kind: 'unknown_table', table: unknownTable[1]!, tables: tableNames(db) ?? null };
    return new SqlSandboxError('sql_error', renderFeedback(feedback), feedback);
  }
  const unknownColumn = /^no such column: (.*)$/s.exec(message);
  if (unknownColumn) {
    const feedback: UnknownColumnFeedback = { kind: 'unknown_column', column: unknownColumn[1]!, candidates: namedTablesColumns(db, sql) };
    return new SqlSandboxError('sql_error', renderFeedback(feedback), feedback);
  }
  return new SqlSandboxError('sql_error', message);
}

/** The database's tables and views, by name; undefined when the schema cannot be read. */
function tableNames(db: SqliteConnection): string[] | undefined {
  try {
    return db
      .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
  } catch {
    return undefined;
  }
}

/** Tables listed in a column hint, and columns listed per table: a hint, not a schema dump. */
const HINT_MAX_TABLES = 3;
const HINT_MAX_COLUMNS = 24;

/**
 * The columns of the (first few) tables `sql` names, each cut to its first few; empty where it names none, or the
 * schema cannot be read (the rendered error then says how to look them up).
 */
function namedTablesColumns(db: SqliteConnection, sql: string): TableColumns[] {
  const named = tablesInSql(sql, tableNames(db) ?? []).slice(0, HINT_MAX_TABLES);
  try {
    return named.map((table) => {
      const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[];
      return { table, columns: columns.slice(0, HINT_MAX_COLUMNS), more: Math.max(0, columns.length - HINT_MAX_COLUMNS) };
    });
  } catch {
    return [];
  }
}
