import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerScriptPath } from '../../src/base/worker-script.js';
import { DEFAULT_QUERY_LIMITS } from '../../envs/sql/sandbox/limits.js';
import { SqlSandboxError } from '../../envs/sql/sandbox/errors.js';
import { QueryProcess } from '../../envs/sql/sandbox/query-process.js';
import { buildConcertDb, scratchDir } from './fixtures.js';

const scratch = scratchDir();
const dbPath = join(scratch.dir, 'concert.sqlite');
const script = workerScriptPath(new URL('../../envs/sql/sandbox/query-pool.ts', import.meta.url).href, './query-worker.js');

beforeAll(() => buildConcertDb(dbPath));
afterAll(() => scratch.cleanup());

describe('QueryProcess', () => {
  it('answers each request with its own reply, in order', async () => {
    const proc = new QueryProcess(script, 'msgpack');
    try {
      expect(await proc.ready).toBe(true);
      const first = await proc.query(dbPath, 'SELECT count(*) FROM singer', DEFAULT_QUERY_LIMITS);
      const second = await proc.query(dbPath, 'SELECT nope FROM singer', DEFAULT_QUERY_LIMITS);
      expect(first.type).toBe('result');
      expect(second).toMatchObject({ type: 'error', errorType: 'sql_error' });
      expect(second.id).not.toBe(first.id);
    } finally {
      proc.kill();
      await proc.exited;
    }
  });

  it('rejects a request still outstanding when it is killed, so nothing waits forever', async () => {
    const proc = new QueryProcess(script, 'msgpack');
    expect(await proc.ready).toBe(true);
    const runaway = proc.query(dbPath, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', DEFAULT_QUERY_LIMITS);
    proc.kill();
    await expect(runaway).rejects.toBeInstanceOf(SqlSandboxError);
    expect((await proc.exited).signal).toBe('SIGKILL');
  });
});
