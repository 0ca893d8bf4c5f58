import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SQLEnv } from '../../envs/sql/index.js';
import { useFixtureEnv } from './fixture-env.js';

/** Statements an agent must never get to run: writes, DDL, escapes from the sandbox, and resource bombs. */
const HOSTILE_SQL = [
  'DELETE FROM singer',
  "UPDATE singer SET name = 'x'",
  "INSERT INTO singer (name) VALUES ('x')",
  "REPLACE INTO singer (singer_id, name) VALUES (1, 'x')",
  'DROP TABLE singer',
  'CREATE TABLE evil (x)',
  'CREATE TEMP TABLE evil (x)',
  'CREATE TEMPORARY VIEW v AS SELECT 1',
  'CREATE INDEX i ON singer (name)',
  'ALTER TABLE singer ADD COLUMN evil TEXT',
  "ATTACH DATABASE '/tmp/evil.sqlite' AS evil",
  "ATTACH ':memory:' AS m",
  'DETACH DATABASE main',
  'PRAGMA writable_schema = ON',
  'PRAGMA journal_mode = DELETE',
  'PRAGMA query_only = OFF',
  'VACUUM',
  "VACUUM INTO '/tmp/copy.sqlite'",
  'BEGIN',
  'BEGIN IMMEDIATE',
  'COMMIT',
  'SAVEPOINT s',
  'REINDEX',
  'ANALYZE',
  "SELECT load_extension('/tmp/evil.so')",
  'SELECT 1; DELETE FROM singer',
  'SELECT 1; SELECT 2',
  'WITH x AS (DELETE FROM singer RETURNING *) SELECT * FROM x',
  '/* harmless */ DELETE FROM singer',
  '-- comment\nDROP TABLE singer',
  'DELETE/**/FROM singer',
  'ＤＥＬＥＴＥ FROM singer',
  'SELECT 1 /* ; DROP TABLE singer */; DROP TABLE singer',
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c ORDER BY x DESC',
  'SELECT count(*) FROM singer a, singer b, singer c, singer d, singer e, singer f, singer g, singer h, singer i, singer j, singer k, singer l',
  'SELECT zeroblob(1000000000)',
  'SELECT randomblob(500000000)',
  "SELECT printf('%.*c', 100000000, 'x')",
  "SELECT replace(hex(zeroblob(50000000)), '00', 'ab')",
  'SELECT * FROM singer a, singer b, singer c, singer d, singer e, singer f, singer g, singer h',
];

const concert = useFixtureEnv();

describe('hostile SQL through SQLEnv', () => {
  it(`answers each of ${HOSTILE_SQL.length} hostile statements with an error and stays responsive`, async () => {
    expect(HOSTILE_SQL.length).toBeGreaterThanOrEqual(40);
    const before = createHash('sha256').update(readFileSync(concert.fixture.dbPath)).digest('hex');
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool, stepBudget: 1000, queryLimits: { timeoutMs: 400, maxResultBytes: 256 * 1024 } });
    await env.reset({ options: { questionId: 'train-0000' } });
    const outcomes: Record<string, string> = {};
    for (const sql of HOSTILE_SQL) {
      const [obs, reward, , , info] = await env.step({ name: 'query', arguments: { sql } });
      outcomes[sql] = String(info.error_type);
      expect(['forbidden_sql', 'sql_error', 'timeout', 'result_too_large'], sql).toContain(info.error_type);
      expect(obs.error, sql).not.toBe('');
      expect(reward).toBeLessThan(0);
    }
    const [obs] = await env.step({ name: 'query', arguments: { sql: 'SELECT count(*) FROM singer' } });
    expect(obs.result).toContain('| 6 |');
    await env.close();
    expect(createHash('sha256').update(readFileSync(concert.fixture.dbPath)).digest('hex')).toBe(before);
    // Writes are refused up front, not by SQLite failing halfway.
    expect(outcomes['DELETE FROM singer']).toBe('forbidden_sql');
    expect(outcomes['PRAGMA writable_schema = ON']).toBe('forbidden_sql');
  }, 60_000);
});
