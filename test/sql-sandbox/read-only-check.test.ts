import { describe, expect, it } from 'vitest';
import { checkReadOnlySql, MAX_SQL_CHARS, READ_ONLY_PRAGMAS } from '../../envs/sql/sandbox/index.js';

function refusal(sql: string): { errorType: string; message: string } {
  const r = checkReadOnlySql(sql);
  if (r.ok) throw new Error(`expected a refusal for ${sql}`);
  return r;
}

describe('checkReadOnlySql', () => {
  it.each([
    ['SELECT * FROM singer', 'SELECT * FROM singer'],
    ['  select name from singer ;  ', 'select name from singer'],
    ['SELECT 1;;', 'SELECT 1'],
    ['VALUES (1, 2)', 'VALUES (1, 2)'],
    ['WITH t AS (SELECT 1 AS x) SELECT x FROM t', 'WITH t AS (SELECT 1 AS x) SELECT x FROM t'],
    ['WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5) SELECT x FROM c', undefined],
    ['EXPLAIN QUERY PLAN SELECT * FROM singer', undefined],
    ['PRAGMA table_info(singer)', undefined],
    ['PRAGMA main.foreign_key_list("concert")', undefined],
    ["SELECT 'DROP TABLE singer; DELETE FROM x' AS s", undefined],
    ['SELECT "delete" FROM t -- ; DROP TABLE t', undefined],
    ['SELECT 1 /* ; DROP TABLE t; */', undefined],
    ["SELECT replace(name, 'a', 'b') FROM singer", undefined],
    ['SELECT * FROM pragma_table_info(\'singer\')', undefined],
  ])('accepts %j', (sql, normalized) => {
    const r = checkReadOnlySql(sql);
    expect(r).toMatchObject({ ok: true });
    if (r.ok && normalized !== undefined) expect(r.sql).toBe(normalized);
  });

  it('turns Unicode spacing outside literals into plain spaces and keeps literals intact', () => {
    const r = checkReadOnlySql("SELECT\u00a0name\u200b FROM singer WHERE name = 'a\u00a0b'");
    expect(r).toEqual({ ok: true, sql: "SELECT name FROM singer WHERE name = 'a\u00a0b'" });
  });

  it.each([
    ['INSERT INTO t VALUES (1)', /read-only.*SELECT/],
    ['update t set a = 1', /read-only/],
    ['DELETE FROM t', /read-only/],
    ['REPLACE INTO t VALUES (1)', /read-only/],
    ['CREATE TEMP TABLE x(a)', /temporary objects.*WITH name AS/],
    ['DROP TABLE t', /schema cannot be changed/],
    ['ALTER TABLE t ADD COLUMN b', /schema cannot be changed/],
    ["ATTACH ':memory:' AS m", /only read this question's database/],
    ['DETACH m', /only read/],
    ['BEGIN', /transactions/],
    ['SAVEPOINT a', /transactions/],
    ['VACUUM', /rewrites/],
    ['ANALYZE', /rewrites/],
    ['PRAGMA writable_schema = 1', /settings cannot be changed/],
    ['PRAGMA database_list', /schema-reading pragmas/],
    ["SELECT load_extension('x.so')", /extensions/],
    ['SELECT 1; SELECT 2', /2 statements.*one statement per query/],
    ['WITH x AS (SELECT 1) DELETE FROM t', /WITH … DELETE/],
    ['EXPLAIN DELETE FROM t', /EXPLAIN only runs on reads/],
  ])('refuses %j as forbidden_sql, saying what to do', (sql, advice) => {
    const r = refusal(sql);
    expect(r.errorType).toBe('forbidden_sql');
    expect(r.message).toMatch(advice);
  });

  it.each([
    ['', /empty/],
    ['   -- only a comment', /empty/],
    ["SELECT 'open", /unterminated string/],
    ['SELCT * FROM t', /SELCT.*does not start/],
    ['(SELECT 1)', /cannot start with/],
    ['EXPLAIN QUERY SELECT 1', /QUERY.*does not start/],
  ])('reports %j as sql_error', (sql, advice) => {
    const r = refusal(sql);
    expect(r.errorType).toBe('sql_error');
    expect(r.message).toMatch(advice);
  });

  it('lists only reading pragmas', () => {
    expect(READ_ONLY_PRAGMAS).toContain('table_info');
    expect(READ_ONLY_PRAGMAS).not.toContain('writable_schema');
    expect(READ_ONLY_PRAGMAS).not.toContain('query_only');
  });

  it('refuses SQL longer than MAX_SQL_CHARS before lexing it', () => {
    const long = `SELECT ${'1 + '.repeat(MAX_SQL_CHARS / 4)}1`;
    expect(refusal(long)).toMatchObject({ errorType: 'sql_error', message: expect.stringMatching(/limit is 100,000/) as string });
  });

  it('refuses non-string input without throwing', () => {
    expect(checkReadOnlySql(42 as unknown as string)).toMatchObject({ ok: false, errorType: 'sql_error' });
  });
});
