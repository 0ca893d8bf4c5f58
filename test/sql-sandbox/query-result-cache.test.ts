import Database from 'better-sqlite3';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_QUERY_LIMITS, QueryPool, QueryResultCache, SqlSandboxError, isDeterministic, type QueryLimits, type QueryResult } from '../../envs/sql/index.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-cache-');

let dir: string;
let dbPath: string;

beforeAll(() => {
  dir = tempDir();
  dbPath = join(dir, 'shop.sqlite');
  const db = new Database(dbPath);
  db.exec("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item VALUES (1, 'pen'), (2, 'ink');");
  db.close();
});

/** A runner that counts what reaches it and answers with a fresh object each time. */
function countingRunner() {
  const calls: string[] = [];
  return {
    calls,
    limits: DEFAULT_QUERY_LIMITS,
    run(_db: string, sql: string, _limits?: Partial<QueryLimits>): Promise<QueryResult> {
      calls.push(sql);
      if (sql.includes('boom')) return Promise.reject(new SqlSandboxError('sql_error', 'no such column: boom'));
      return Promise.resolve({ columns: ['n'], rows: [[calls.length]], rowCount: 1, rowCountExact: true, truncated: false, elapsedMs: 0 });
    },
  };
}

describe('QueryResultCache', () => {
  it('answers a repeated query without the runner, and only that query', async () => {
    const runner = countingRunner();
    const cache = new QueryResultCache();
    const first = await cache.run(runner, dbPath, 'SELECT count(*) FROM item');
    expect(await cache.run(runner, dbPath, 'SELECT count(*) FROM item')).toBe(first);
    await cache.run(runner, dbPath, 'SELECT name FROM item');
    expect(runner.calls).toEqual(['SELECT count(*) FROM item', 'SELECT name FROM item']);
    expect([cache.hits, cache.misses, cache.size]).toEqual([1, 2, 2]);
  });

  it('keys on the limits: other limits run again', async () => {
    const runner = countingRunner();
    const cache = new QueryResultCache();
    await cache.run(runner, dbPath, 'SELECT 1');
    await cache.run(runner, dbPath, 'SELECT 1', { maxRows: 5 });
    await cache.run(runner, dbPath, 'SELECT 1', { maxRows: DEFAULT_QUERY_LIMITS.maxRows });
    expect(runner.calls).toHaveLength(2);
  });

  it('never keeps volatile statements or errors', async () => {
    const runner = countingRunner();
    const cache = new QueryResultCache();
    for (const sql of ['SELECT random()', "SELECT date('now')", 'SELECT CURRENT_TIMESTAMP', 'SELECT "RANDOM"()', 'SELECT * FROM item ORDER BY random()']) {
      await cache.run(runner, dbPath, sql);
      await cache.run(runner, dbPath, sql);
    }
    expect(runner.calls).toHaveLength(10);
    await expect(cache.run(runner, dbPath, 'SELECT boom')).rejects.toThrow(SqlSandboxError);
    await expect(cache.run(runner, dbPath, 'SELECT boom')).rejects.toThrow(SqlSandboxError);
    expect(runner.calls).toHaveLength(12);
    expect(cache.size).toBe(0);
  });

  it('tells volatile SQL apart, ignoring words inside literals', () => {
    expect(isDeterministic('SELECT name FROM item')).toBe(true);
    expect(isDeterministic("SELECT 'random() now' FROM item")).toBe(true);
    expect(isDeterministic('SELECT abs(random()) FROM item')).toBe(false);
    expect(isDeterministic('SELECT julianday(x) FROM t')).toBe(false);
    expect(isDeterministic("SELECT 'unterminated")).toBe(false);
  });

  it('runs again when the database file is replaced', async () => {
    const runner = countingRunner();
    const cache = new QueryResultCache();
    await cache.run(runner, dbPath, 'SELECT 2');
    const later = new Date(Date.now() + 60_000);
    utimesSync(dbPath, later, later);
    await cache.run(runner, dbPath, 'SELECT 2');
    expect(runner.calls).toHaveLength(2);
  });

  it('stays within its bounds, dropping the least recently used first', async () => {
    const runner = countingRunner();
    const cache = new QueryResultCache({ maxEntries: 2 });
    await cache.run(runner, dbPath, 'SELECT 10');
    await cache.run(runner, dbPath, 'SELECT 11');
    await cache.run(runner, dbPath, 'SELECT 10'); // 10 is now the most recent
    await cache.run(runner, dbPath, 'SELECT 12'); // evicts 11
    expect(cache.size).toBe(2);
    await cache.run(runner, dbPath, 'SELECT 10');
    await cache.run(runner, dbPath, 'SELECT 11');
    expect(runner.calls).toEqual(['SELECT 10', 'SELECT 11', 'SELECT 12', 'SELECT 11']);
    const tiny = new QueryResultCache({ maxBytes: 100 });
    await tiny.run(runner, dbPath, 'SELECT 13');
    expect(tiny.size).toBe(0); // larger than a quarter of the budget: never kept
  });

  it('gives exactly what the pool gives', async () => {
    const pool = new QueryPool({ size: 1 });
    try {
      const cache = new QueryResultCache();
      for (const sql of ['SELECT * FROM item', 'SELECT name, id FROM item ORDER BY name', 'SELECT count(*) FROM item']) {
        const direct = await pool.run(dbPath, sql);
        await cache.run(pool, dbPath, sql);
        const cached = await cache.run(pool, dbPath, sql);
        expect({ ...cached, elapsedMs: 0 }).toEqual({ ...direct, elapsedMs: 0 });
      }
      expect(cache.hits).toBe(3);
    } finally {
      await pool.close();
    }
  });
});
