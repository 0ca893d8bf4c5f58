import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayCell, toSqlCell } from '../../envs/sql/sandbox/cells.js';
import {
  DEFAULT_QUERY_LIMITS,
  executeReadQuery,
  openReadOnlyDatabase,
  resolveQueryLimits,
  SqlSandboxError,
  type QueryLimits,
  type SqliteConnection,
  type SqlCell,
} from '../../envs/sql/sandbox/index.js';
import { scratchDir } from './fixtures.js';

const scratch = scratchDir();
const dbPath = join(scratch.dir, 'values.sqlite');
let db: SqliteConnection;

const MAX = 2n ** 53n - 1n;
/** Integers on both sides of ±2^53 and at the 64-bit ends, where a double stops being exact. */
const EDGE_INTEGERS = [0n, 1n, -1n, MAX - 1n, MAX, MAX + 1n, MAX + 2n, MAX + 3n, -MAX, -MAX - 1n, -MAX - 2n, 2n ** 62n, 2n ** 63n - 1n, -(2n ** 63n)];

beforeAll(() => {
  const w = new Database(dbPath);
  w.exec('CREATE TABLE v (id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, b BLOB, m)');
  const insert = w.prepare('INSERT INTO v VALUES (?, ?, ?, ?, ?, ?)');
  w.transaction(() => {
    // Plain rows first, so that a big integer shows up only after many rows were read.
    for (let k = 1; k <= 300; k++) insert.run(k, k * 7, k / 4, `text ${k}`, Buffer.from([k % 256]), k % 3 === 0 ? null : k);
    EDGE_INTEGERS.forEach((n, k) => insert.run(1000 + k, n, 2 ** 53 + 2 * k, 'é'.repeat(k * 30), Buffer.alloc(k * 20, 0xab), n));
    insert.run(2000, null, 1e300, null, null, 'mixed');
  })();
  w.close();
  db = openReadOnlyDatabase(dbPath);
});

afterAll(() => {
  db.close();
  scratch.cleanup();
});

/** The reading executeReadQuery replaced: every integer as a BigInt, cells rendered one by one. */
function reference(sql: string, limits: QueryLimits): { rows: SqlCell[][]; fullRows: SqlCell[][]; truncated: boolean } {
  const stmt = db.prepare(sql).raw(true).safeIntegers(true);
  const all = (stmt.all() as unknown[][]).slice(0, limits.fetchRows);
  let cut = false;
  const rows = all.slice(0, limits.maxRows).map((row) =>
    row.map((value) => {
      const shown = displayCell(value, limits.maxCellChars);
      cut ||= shown.cut;
      return shown.cell;
    }),
  );
  const fullRows = all.map((row) => row.map(toSqlCell));
  return { rows, fullRows, truncated: cut || rows.length < fullRows.length };
}

describe('executeReadQuery reads integers as numbers and re-reads exactly past 2^53', () => {
  const limits = resolveQueryLimits({ maxRows: 400, maxCellChars: 50 });

  it.each([
    ['every kind of value, big integers late in the result', 'SELECT * FROM v ORDER BY id'],
    ['big integers first', 'SELECT i, m FROM v ORDER BY id DESC'],
    ['only small values', 'SELECT * FROM v WHERE id <= 300'],
    ['reals beyond 2^53 stay numbers', 'SELECT r FROM v WHERE id >= 1000'],
    ['arithmetic past 2^53', 'SELECT i * 2, i + 1, -i FROM v WHERE id BETWEEN 1000 AND 1012'],
    ['aggregates', 'SELECT sum(i), max(i), min(i), count(*) FROM v WHERE id >= 1000 AND id < 1012'],
  ])('%s: same result as an exact read', (_name, sql) => {
    const got = executeReadQuery(db, sql, limits);
    const want = reference(sql, limits);
    expect(got.fullRows).toEqual(want.fullRows);
    expect(got.rows).toEqual(want.rows);
    expect(got.truncated).toBe(want.truncated);
    expect(got.rowCount).toBe(want.fullRows.length);
  });

  it('keeps every integer exact: numbers within ±(2^53 − 1), decimal strings beyond', () => {
    const r = executeReadQuery(db, 'SELECT i FROM v WHERE id >= 1000 AND id < 2000 ORDER BY id', limits);
    expect(r.fullRows!.map(([cell]) => cell)).toEqual(
      EDGE_INTEGERS.map((n) => (n >= -MAX && n <= MAX ? Number(n) : n.toString())),
    );
    expect(executeReadQuery(db, 'SELECT 9007199254740993, -9007199254740993, 9007199254740992', limits).rows).toEqual([
      ['9007199254740993', '-9007199254740993', '9007199254740992'],
    ]);
  });

  it('renders blobs as x literals, cut in rows and whole in fullRows; text cut too, numbers never', () => {
    const r = executeReadQuery(db, 'SELECT b, t, i FROM v WHERE id = 1012', resolveQueryLimits({ maxCellChars: 10 }));
    const blob = `x'${'ab'.repeat(12 * 20)}'`;
    expect(r.fullRows).toEqual([[blob, 'é'.repeat(12 * 30), '9223372036854775807']]);
    expect(r.rows).toEqual([[`${blob.slice(0, 10)}…`, `${'é'.repeat(10)}…`, '9223372036854775807']]);
    expect(r.truncated).toBe(true);
    expect(executeReadQuery(db, "SELECT x'00ff', zeroblob(2), 1e999, -1e999", limits).rows).toEqual([
      ["x'00ff'", "x'0000'", 'Infinity', '-Infinity'],
    ]);
  });

  it('non-deterministic results that need the exact pass are still one consistent read', () => {
    const r = executeReadQuery(db, 'SELECT random(), id FROM v WHERE id <= 5', limits);
    expect(r.fullRows!.map((row) => row[1])).toEqual([1, 2, 3, 4, 5]);
    for (const [value] of r.fullRows!) expect(typeof value === 'number' || /^-?\d+$/.test(value as string)).toBe(true);
  });

  it('still stops at fetchRows and refuses results over maxResultBytes, big integers or not', () => {
    const capped = executeReadQuery(db, 'SELECT i FROM v ORDER BY id DESC', resolveQueryLimits({ fetchRows: 5, maxRows: 2 }));
    expect(capped).toMatchObject({ rowCount: 5, rowCountExact: false, truncated: true });
    expect(capped.rows).toEqual([[null], [(-(2n ** 63n)).toString()]]);
    for (const sql of ['SELECT t FROM v', 'SELECT i, t FROM v ORDER BY id DESC']) {
      expect(() => executeReadQuery(db, sql, resolveQueryLimits({ maxResultBytes: 2_000 }))).toThrow(SqlSandboxError);
    }
    // A huge blob is refused before it is rendered.
    expect(() => executeReadQuery(db, 'SELECT zeroblob(600000)', DEFAULT_QUERY_LIMITS)).toThrow(/passed 1 MiB after 1 rows/);
  });
});
