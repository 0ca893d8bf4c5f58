import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryPool, SqlSandboxError } from '../../envs/sql/sandbox/index.js';
import { QueryProcess } from '../../envs/sql/sandbox/query-process.js';
import { buildConcertDb, scratchDir } from './fixtures.js';
import { renderFeedback } from '../../envs/sql/feedback/render-feedback.js';

const scratch = scratchDir();
const dbPath = join(scratch.dir, 'concert.sqlite');
let pool: QueryPool;

beforeAll(async () => {
  buildConcertDb(dbPath);
  pool = new QueryPool({ size: 2 });
  await pool.ready();
});

afterAll(async () => {
  await pool.close();
  scratch.cleanup();
});

function errorOf(promise: Promise<unknown>): Promise<SqlSandboxError> {
  return promise.then(
    () => {
      throw new Error('expected the query to fail');
    },
    (e: unknown) => {
      expect(e).toBeInstanceOf(SqlSandboxError);
      return e as SqlSandboxError;
    },
  );
}

describe('QueryPool results', () => {
  it('returns columns, rows and an exact count', async () => {
    const r = await pool.run(dbPath, 'SELECT name, age FROM singer ORDER BY singer_id LIMIT 2');
    expect(r.columns).toEqual(['name', 'age']);
    expect(r.rows).toEqual([
      ['Adele', 35],
      ['Rosalía', 31],
    ]);
    expect(r).toMatchObject({ rowCount: 2, rowCountExact: true, truncated: false });
    expect(r.fullRows).toEqual(r.rows);
    expect(r.elapsedMs).toBeGreaterThan(0);
  });

  it('shows maxRows rows, counts up to fetchRows, and says when counting stopped', async () => {
    const all = await pool.run(dbPath, 'SELECT n FROM big', { maxRows: 5 });
    expect(all.rows).toHaveLength(5);
    expect(all).toMatchObject({ rowCount: 1000, rowCountExact: true, truncated: true });
    expect(all.fullRows).toHaveLength(1000);
    const capped = await pool.run(dbPath, 'SELECT a.n FROM big a, big b', { fetchRows: 300, maxRows: 3 });
    expect(capped).toMatchObject({ rowCount: 300, rowCountExact: false, truncated: true });
    expect(capped.fullRows).toHaveLength(300);
  });

  it('cuts long cells in rows, keeps them whole in fullRows, and renders big integers and blobs', async () => {
    const r = await pool.run(dbPath, 'SELECT long_text, data, huge FROM wide', { maxCellChars: 11 });
    expect(r.rows[0]).toEqual(['xxxxxxxxxxx…', "x'0001feff'", '4611686018427387904']);
    expect(r.truncated).toBe(true);
    expect((r.fullRows![0]![0] as string).length).toBe(5000);
    const beyond = await pool.run(dbPath, 'SELECT 9223372036854775807, 1e999, -1e999, NULL');
    expect(beyond.rows).toEqual([['9223372036854775807', 'Infinity', '-Infinity', null]]);
  });

  it('refuses results over maxResultBytes with advice', async () => {
    const e = await errorOf(pool.run(dbPath, 'SELECT label FROM big', { maxResultBytes: 2_000 }));
    expect(e.errorType).toBe('result_too_large');
    expect(e.message).toMatch(/LIMIT/);
  });

  it("runs Spider-style double-quoted strings as SQLite's legacy rule would", async () => {
    const r = await pool.run(dbPath, 'SELECT "name" FROM singer WHERE country = "UK" AND "name" != "Ed"');
    expect(r.rows).toEqual([['Adele']]);
  });

  it('screens a statement sent again exactly as the first time (allowed or refused, short or long)', async () => {
    const statements = [
      'SELECT count(*) FROM singer',
      'DELETE FROM singer',
      "SELECT ';DROP TABLE t'",
      'SELECT 1; DROP TABLE singer',
      `SELECT count(*) FROM singer WHERE name <> '${'x'.repeat(2_500)}'`,
      `DELETE FROM singer WHERE name <> '${'x'.repeat(2_500)}'`,
      'SELECT count(*)  FROM singer',
    ];
    const outcome = (p: Promise<{ rows: unknown[] }>) => p.then((r) => ({ rows: r.rows }), (e: SqlSandboxError) => ({ error: e.errorType, message: e.message }));
    const first = [];
    for (const sql of statements) first.push(await outcome(pool.run(dbPath, sql)));
    expect(first.map((o) => ('error' in o ? o.error : 'ok'))).toEqual(['ok', 'forbidden_sql', 'ok', 'forbidden_sql', 'ok', 'forbidden_sql', 'ok']);
    for (let round = 0; round < 2; round++) {
      for (const [i, sql] of [...statements.entries()].reverse()) expect(await outcome(pool.run(dbPath, sql))).toEqual(first[i]);
    }
  });

  it('explains unknown tables and columns', async () => {
    const table = await errorOf(pool.run(dbPath, 'SELECT * FROM singers'));
    expect(table).toMatchObject({ errorType: 'sql_error' });
    expect(table.message).toMatch(/no such table: singers.*Tables in this database: .*singer/);
    const column = await errorOf(pool.run(dbPath, 'SELECT nam FROM singer'));
    expect(column.message).toBe("no such column: nam. Columns of singer: singer_id, name, country, age; write text values in single quotes: 'Paris'.");
    // Every table the query names (in the database's order), whatever its case or alias.
    const joined = await errorOf(pool.run(dbPath, 'SELECT T1.nam FROM Concert AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id'));
    expect(joined.message).toMatch(/^no such column: T1\.nam\. Columns of concert: concert_id, title, year, stadium_id, singer_id; of singer: singer_id, name, country, age; /);
    // Strings and comments name no table; with none named, the way to look columns up instead.
    const none = await errorOf(pool.run(dbPath, "SELECT nam -- singer\n WHERE 'singer' = 'x'"));
    expect(none.message).toMatch(/^no such column: nam\. Check the column names of the tables you use \(PRAGMA table_info\(table\) lists them\)/);
  });

  it('carries what an unknown table or column error lists as data across the process boundary, the message rendered from it', async () => {
    const table = await errorOf(pool.run(dbPath, 'SELECT * FROM singers'));
    expect(table.feedback).toEqual({ kind: 'unknown_table', table: 'singers', tables: expect.arrayContaining(['singer', 'concert', 'stadium']) });
    expect(table.message).toBe(renderFeedback(table.feedback!));
    const column = await errorOf(pool.run(dbPath, 'SELECT T1.nam FROM Concert AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id'));
    expect(column.feedback).toEqual({
      kind: 'unknown_column',
      column: 'T1.nam',
      candidates: [
        { table: 'concert', columns: ['concert_id', 'title', 'year', 'stadium_id', 'singer_id'], more: 0 },
        { table: 'singer', columns: ['singer_id', 'name', 'country', 'age'], more: 0 },
      ],
    });
    expect(column.message).toBe(renderFeedback(column.feedback!));
    const none = await errorOf(pool.run(dbPath, "SELECT nam -- singer\n WHERE 'singer' = 'x'"));
    expect(none.feedback).toEqual({ kind: 'unknown_column', column: 'nam', candidates: [] });
    expect((await errorOf(pool.run(dbPath, 'SELECT 1 FROM'))).feedback).toBeUndefined();
  });

  it('reports a missing database file as sql_error', async () => {
    const e = await errorOf(pool.run(join(scratch.dir, 'missing.sqlite'), 'SELECT 1'));
    expect(e.errorType).toBe('sql_error');
    expect(e.message).toMatch(/cannot open database/);
  });

  it('rejects invalid per-query limits as sql_error', async () => {
    const e = await errorOf(pool.run(dbPath, 'SELECT 1', { maxRows: -1 }));
    expect(e.message).toMatch(/maxRows/);
  });
});

describe('QueryPool processes', () => {
  it('queues queries when every process is busy and answers them all', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => pool.run(dbPath, `SELECT ${i} + count(*) FROM singer`)),
    );
    expect(results.map((r) => r.rows[0]![0])).toEqual(Array.from({ length: 12 }, (_, i) => i + 6));
  });

  it('times out with SIGKILL, replaces the process, and answers the next query', async () => {
    const small = new QueryPool({ size: 1, spare: 0, maxProcesses: 1, limits: { timeoutMs: 200 } });
    try {
      await small.ready();
      const [pidBefore] = small.pids;
      const e = await errorOf(
        small.run(dbPath, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c'),
      );
      expect(e.errorType).toBe('timeout');
      expect(e.message).toMatch(/200 ms/);
      const next = await small.run(dbPath, 'SELECT count(*) FROM concert');
      expect(next.rows).toEqual([[12]]);
      expect(small.processesStarted).toBe(2);
      expect(small.pids).not.toContain(pidBefore);
    } finally {
      await small.close();
    }
  });

  it('a query whose process dies under it is retried once; a second death fails it, and the pool heals', async () => {
    const small = new QueryPool({ size: 1, spare: 0, maxProcesses: 1, limits: { timeoutMs: 10_000 } });
    try {
      await small.ready();
      const running = small.run(dbPath, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c');
      const queued = small.run(dbPath, 'SELECT count(*) FROM singer');
      await new Promise((r) => setTimeout(r, 100));
      const first = small.pids[0]!;
      process.kill(first, 'SIGKILL');
      // The replacement starts and picks the query up again; kill that one too.
      while (small.pids.length !== 1 || small.pids[0] === first) await new Promise((r) => setTimeout(r, 10));
      await small.ready();
      await new Promise((r) => setTimeout(r, 100));
      process.kill(small.pids[0]!, 'SIGKILL');
      const e = await errorOf(running);
      expect(e.errorType).toBe('sql_error');
      expect(e.message).toMatch(/stopped unexpectedly/);
      expect((await queued).rows).toEqual([[6]]);
      expect(small.processesStarted).toBe(3);
    } finally {
      await small.close();
    }
  });

  it('hands each query to the most recently used idle process, whose caches are warm', async () => {
    const small = new QueryPool({ size: 3, spare: 1 });
    const used: (number | undefined)[] = [];
    const query = QueryProcess.prototype.query;
    const spy = vi.spyOn(QueryProcess.prototype, 'query').mockImplementation(function (this: QueryProcess, ...args) {
      used.push(this.pid);
      return query.apply(this, args);
    });
    try {
      await small.ready();
      for (let i = 0; i < 6; i++) await small.run(dbPath, `SELECT ${i}`);
      expect(new Set(used).size).toBe(1);
      // Two at once take two processes; the next one goes to the one that answered last.
      await Promise.all([small.run(dbPath, 'SELECT 1'), small.run(dbPath, 'SELECT 2')]);
      expect(new Set(used.slice(6, 8)).size).toBe(2);
    } finally {
      spy.mockRestore();
      await small.close();
    }
  });

  it('a query sent to a process that was killed while idle still gets its answer', async () => {
    const small = new QueryPool({ size: 1 });
    try {
      await small.ready();
      // Killed from outside: the pool learns of it only when the exit event arrives, which can
      // be after the next query was handed to the dead process (a bug seen under a server).
      process.kill(small.pids[0]!, 'SIGKILL');
      expect((await small.run(dbPath, 'SELECT count(*) FROM singer')).rows).toEqual([[6]]);
    } finally {
      await small.close();
    }
  });

  it('kills a query whose process grows past the memory cap', async () => {
    // The query's own time limit is far beyond what reaching the cap takes (seconds on a quiet
    // machine): on a loaded CI machine a 20 s limit fired first and the test saw 'timeout'.
    const small = new QueryPool({ size: 1, limits: { timeoutMs: 150_000 }, memoryLimitBytes: 200 * 1024 ** 2 });
    try {
      const e = await errorOf(
        small.run(
          dbPath,
          "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 9000000) SELECT length(group_concat(printf('%.100c', 'y'))) FROM c",
        ),
      );
      // Either the watchdog (memory) or SQLite's own length cap stops it first; both are this type.
      expect(e.errorType).toBe('result_too_large');
      expect((await small.run(dbPath, 'SELECT 1')).rows).toEqual([[1]]);
    } finally {
      await small.close();
    }
  }, 180_000);

  it('close() rejects pending queries, is idempotent, and refuses new ones', async () => {
    const small = new QueryPool({ size: 1 });
    const pending = small.run(dbPath, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c');
    const queued = small.run(dbPath, 'SELECT 1');
    await Promise.all([small.close(), small.close()]);
    expect((await errorOf(pending)).message).toMatch(/closed/);
    expect((await errorOf(queued)).message).toMatch(/closed/);
    expect((await errorOf(small.run(dbPath, 'SELECT 1'))).message).toMatch(/closed/);
    expect(small.pids).toEqual([]);
  });

  it.each(['msgpack', 'json', 'advanced'] as const)(
    'gives the same results over every channel (%s): big integers, blobs, large results, error feedback',
    async (serialization) => {
      const other = new QueryPool({ size: 1, serialization });
      try {
        const r = await other.run(dbPath, 'SELECT data, huge, NULL, 1e999 FROM wide');
        expect(r.rows).toEqual([["x'0001feff'", '4611686018427387904', null, 'Infinity']]);
        // A big integer after many rows: the query process re-reads the result exactly.
        const late = await other.run(dbPath, 'SELECT n, CASE n WHEN 999 THEN 9007199254740993 ELSE n END FROM big ORDER BY n');
        expect(late.fullRows![999]).toEqual([999, '9007199254740993']);
        expect(late.fullRows![998]).toEqual([998, 998]);
        // Far more than a pipe's buffer (about 1.2 MB).
        const large = await other.run(dbPath, "SELECT a.n, printf('%.300c', 'z') FROM big a, big b LIMIT 4000", {
          maxResultBytes: 8 * 1024 * 1024,
        });
        expect(large.rowCount).toBe(4000);
        expect(large.fullRows![3999]![1]).toBe('z'.repeat(300));
        expect(large.rows[0]![1]).toBe(`${'z'.repeat(200)}…`);
        // An error's feedback crosses every channel as data.
        expect((await errorOf(other.run(dbPath, 'SELECT nam FROM big'))).feedback).toMatchObject({ kind: 'unknown_column', column: 'nam', candidates: [{ table: 'big' }] });
      } finally {
        await other.close();
      }
    },
  );

  it('rejects a bad size at construction', () => {
    expect(() => new QueryPool({ size: 0 })).toThrow(RangeError);
  });
});
