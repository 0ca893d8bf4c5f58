import { spawn } from 'node:child_process';
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

describe('query process whose parent exits', () => {
  // A short-lived parent starts a query process and exits at once (as a run does when it ends
  // while its pool is still starting processes). The process inherits the parent's stderr, so
  // anything it prints there (a stack trace from EPIPE or ECONNRESET) reaches `stderr` below.
  const frameUrl = new URL('../../dist/envs/sql/sandbox/frame-channel.js', import.meta.url).href;
  const parentSource = (sendRequest: boolean): string => `
    import { spawn } from 'node:child_process';
    import { createPackr, encodeFrame } from ${JSON.stringify(frameUrl)};
    const child = spawn(process.execPath, [${JSON.stringify(script)}, '--frames-on-fd3'], { stdio: ['ignore', 'ignore', 'inherit', 'pipe'] });
    if (${sendRequest}) child.stdio[3].write(encodeFrame(createPackr(), { id: 1, dbPath: ${JSON.stringify(dbPath)}, sql: 'SELECT 1', limits: ${JSON.stringify(DEFAULT_QUERY_LIMITS)} }), () => process.exit(0));
    else process.exit(0);
  `;

  it.each([
    ['before the process has said it is ready', false],
    ['with a request sent and the process\'s bytes unread', true],
  ])('exits without printing anything, %s', async (_when, sendRequest) => {
    const parent = spawn(process.execPath, ['--input-type=module', '-e', parentSource(sendRequest)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    parent.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // 'close' waits for every holder of the stderr pipe, the orphaned query process included.
    await new Promise((resolve) => parent.on('close', resolve));
    expect(stderr).toBe('');
  });
});
