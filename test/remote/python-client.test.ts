/**
 * The Python client (clients/python) and examples (examples/python) against a server this test
 * starts on 127.0.0.1: `python3 -m unittest` (the TRL adapter plays a full episode), then the
 * examples. Skipped only when python3 is absent.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './fixtures/server.js';
import { MINI_SQL_ENV_ID } from './fixtures/mini-sql-env.js';
import { startSqlServer, type SqlTestServer } from './fixtures/sql-server.js';

const python = spawnSync('python3', ['--version']).status === 0;

type Server = Awaited<ReturnType<typeof startTestServer>>;
let server: Server;
/** SQLEnv-v0 itself, for the TRL adapter's episode on the real env. */
let sql: SqlTestServer;

function py(args: string[], cwd: string) {
  // Async spawn would be nicer, but the server runs in this process: spawnSync would block it.
  return new Promise<{ code: number; out: string }>((resolve) => {
    import('node:child_process').then(({ spawn }) => {
      const child = spawn('python3', args, { cwd, env: { ...process.env, SQLENV_URL: server.url, SQLENV_SQL_URL: sql.server.url, PYTHONDONTWRITEBYTECODE: '1' } });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', (code) => resolve({ code: code ?? -1, out }));
    });
  });
}

describe.runIf(python)('Python client', () => {
  beforeAll(async () => {
    server = await startTestServer({ envId: MINI_SQL_ENV_ID, maxSessions: 16 });
    sql = await startSqlServer('smoke', { maxSessions: 4 });
  });
  afterAll(async () => {
    await server?.close();
    await sql?.close();
  });

  it('passes its unittest suite against a live server (TRL adapter plays a full episode)', async () => {
    const { code, out } = await py(['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v'], 'clients/python');
    expect(out).toMatch(/test_plays_a_full_episode_tolerating_extra_and_missing_arguments .* ok/);
    expect(out).toMatch(/test_plays_an_episode_and_reports_errors_with_codes .* ok/);
    expect(out).toMatch(/test_full_episode_on_sqlenv .* ok/);
    expect(code, out).toBe(0);
    // Sessions the Python side opened were closed (explicitly or by the finalizer at exit).
    expect(server.metrics.activeSessions).toBe(0);
    expect(sql.server.metrics.activeSessions).toBe(0);
  });

  it('runs examples/python/gym_loop.py', async () => {
    const { code, out } = await py(['examples/python/gym_loop.py'], '.');
    expect(code, out).toBe(0);
    expect(out).toMatch(/episode 0: return [\d.-]+ in 3 steps/);
    expect(out).toMatch(/episode 1: return/);
  });

  it('runs examples/python/trl_grpo.py far enough to report what is missing (or train when TRL is installed)', async () => {
    const { code, out } = await py(['examples/python/trl_grpo.py'], '.');
    if (/needs: /.test(out)) {
      expect(out).toMatch(/trl_grpo\.py needs: .*trl/);
      expect(code).toBe(1);
    } else {
      expect(code, out).toBe(0);
    }
  });
});
