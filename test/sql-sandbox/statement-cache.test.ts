import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_QUERY_LIMITS,
  executeReadQuery,
  openReadOnlyDatabase,
  resolveQueryLimits,
  SqlSandboxError,
  type SqliteConnection,
} from '../../envs/sql/sandbox/index.js';
import { StatementCache, type PreparedRead } from '../../envs/sql/sandbox/statement-cache.js';
import { buildConcertDb, scratchDir } from './fixtures.js';

const scratch = scratchDir();
const dbPath = join(scratch.dir, 'concert.sqlite');
let db: SqliteConnection;
let other: SqliteConnection;

beforeAll(() => {
  buildConcertDb(dbPath);
  db = openReadOnlyDatabase(dbPath);
  other = openReadOnlyDatabase(dbPath);
});

afterAll(() => {
  db.close();
  other.close();
  scratch.cleanup();
});

/** A cache whose `get` records how often it had to prepare. */
function counting(capacity: number): { cache: StatementCache; prepared: () => number } {
  const cache = new StatementCache(capacity);
  let prepared = 0;
  const get = cache.get.bind(cache);
  cache.get = (conn, sql, prepare) =>
    get(conn, sql, (): PreparedRead => {
      prepared++;
      return prepare();
    });
  return { cache, prepared: () => prepared };
}

describe('StatementCache', () => {
  it('prepares a SQL text once per connection and keeps the least recently used out past capacity', () => {
    const { cache, prepared } = counting(2);
    const run = (conn: SqliteConnection, sql: string) => executeReadQuery(conn, sql, DEFAULT_QUERY_LIMITS, cache);
    run(db, 'SELECT 1');
    run(db, 'SELECT 1');
    expect(prepared()).toBe(1);
    run(other, 'SELECT 1'); // another connection has statements of its own
    expect(prepared()).toBe(2);
    run(db, 'SELECT 2');
    run(db, 'SELECT 1'); // most recently used again
    run(db, 'SELECT 3'); // drops SELECT 2
    expect(cache.size(db)).toBe(2);
    run(db, 'SELECT 1');
    expect(prepared()).toBe(4);
    run(db, 'SELECT 2');
    expect(prepared()).toBe(5);
  });

  it('capacity 0 keeps nothing; a negative or fractional capacity is refused', () => {
    const { cache, prepared } = counting(0);
    executeReadQuery(db, 'SELECT 1', DEFAULT_QUERY_LIMITS, cache);
    executeReadQuery(db, 'SELECT 1', DEFAULT_QUERY_LIMITS, cache);
    expect(prepared()).toBe(2);
    expect(cache.size(db)).toBe(0);
    expect(() => new StatementCache(-1)).toThrow(RangeError);
    expect(() => new StatementCache(1.5)).toThrow(RangeError);
  });

  it('keeps no statement that failed to prepare or was refused: the error comes back every time', () => {
    const { cache, prepared } = counting(8);
    for (let i = 0; i < 2; i++) {
      expect(() => executeReadQuery(db, 'SELECT nope FROM singer', DEFAULT_QUERY_LIMITS, cache)).toThrow(/no such column: nope/);
      expect(() => executeReadQuery(db, 'BEGIN', DEFAULT_QUERY_LIMITS, cache)).toThrow(SqlSandboxError);
    }
    expect(prepared()).toBe(4);
    expect(cache.size(db)).toBe(0);
  });
});

describe('executeReadQuery with a statement cache gives what it gives without one', () => {
  const cases: [string, string, Parameters<typeof resolveQueryLimits>[0]][] = [
    ['a join', 'SELECT s.name, c.title FROM singer s JOIN concert c USING (singer_id) ORDER BY c.concert_id', {}],
    ["Spider's double-quoted strings (rewritten once, then reused)", 'SELECT name FROM singer WHERE country = "UK" OR name = "Paris" ORDER BY name', {}],
    ['big integers (the exact re-read toggles the statement)', 'SELECT huge, id FROM wide', {}],
    ['cut cells', 'SELECT long_text, data FROM wide', { maxCellChars: 7 }],
    ['a result stopped at fetchRows, then read again', 'SELECT n FROM big ORDER BY n', { fetchRows: 10, maxRows: 3 }],
  ];

  it.each(cases)('%s', (_name, sql, partial) => {
    const limits = resolveQueryLimits(partial);
    const cache = new StatementCache();
    const plain = executeReadQuery(db, sql, limits);
    for (let i = 0; i < 3; i++) expect(executeReadQuery(db, sql, limits, cache)).toEqual(plain);
    // The same statement under other limits, and a small query on the same connection between.
    expect(executeReadQuery(db, sql, DEFAULT_QUERY_LIMITS, cache)).toEqual(executeReadQuery(db, sql, DEFAULT_QUERY_LIMITS));
    expect(executeReadQuery(db, 'SELECT count(*) FROM singer', limits, cache).rows).toEqual([[6]]);
    expect(executeReadQuery(db, sql, limits, cache)).toEqual(plain);
  });

  it('a statement stopped by maxResultBytes runs whole afterwards', () => {
    const cache = new StatementCache();
    const sql = 'SELECT n, label FROM big';
    expect(() => executeReadQuery(db, sql, resolveQueryLimits({ maxResultBytes: 500 }), cache)).toThrow(/passed 500 bytes/);
    const whole = executeReadQuery(db, sql, DEFAULT_QUERY_LIMITS, cache);
    expect(whole.rowCount).toBe(1000);
    expect(whole).toEqual(executeReadQuery(db, sql, DEFAULT_QUERY_LIMITS));
  });

  it('hands out a fresh columns array each time', () => {
    const cache = new StatementCache();
    const first = executeReadQuery(db, 'SELECT name FROM singer', DEFAULT_QUERY_LIMITS, cache);
    first.columns.push('changed by the receiver');
    expect(executeReadQuery(db, 'SELECT name FROM singer', DEFAULT_QUERY_LIMITS, cache).columns).toEqual(['name']);
  });
});
