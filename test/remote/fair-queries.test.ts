/**
 * The query pool shared by a server's sessions: one session's runaway queries do not hold up
 * another session's cheap ones, and a session that ends (closed env, departed WebSocket client,
 * DELETE /sessions/:id) has its running query killed at once. Order and state are asserted,
 * never elapsed time. Needs the compiled query worker (npm test builds first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset, QueryPool, SQLEnv, type SqlDataset } from '../../envs/sql/index.js';
import { createServer, silentLogger, type EnvServer } from '../../src/remote/index.js';
import { SESSION_HEADER } from '../../src/remote/protocol/messages.js';
import { openRawClient } from './ws-helpers.js';

const RUNAWAY = { name: 'query', arguments: { sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c' } };
const CHEAP = { name: 'query', arguments: { sql: 'SELECT 1 + 1' } };
/** Longer than any test: a runaway ends only when something kills it. */
const queryLimits = { timeoutMs: 600_000 };

let pool: QueryPool;
let dataset: SqlDataset;
let server: EnvServer;
beforeAll(async () => {
  // The setup: two query processes (plus the spare the pool now keeps).
  pool = new QueryPool({ size: 2 });
  dataset = await loadDataset('bundled', 'smoke', { pool });
  server = createServer({ envId: 'SQLEnv-v0', envKwargs: { dataset, pool, split: 'smoke', queryLimits }, logger: silentLogger, maxSessions: 8 });
  await server.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await server?.close();
  await dataset?.close();
  await pool?.close();
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
}

const wsUrl = () => `${server.url.replace('http', 'ws')}/ws`;

describe('fair query lanes across sessions', () => {
  it("two sessions' runaway queries leave another session's cheap queries running, and a departed client's query is killed", async () => {
    const abusers = await Promise.all([openRawClient(wsUrl()), openRawClient(wsUrl())]);
    const victim = await openRawClient(wsUrl());
    for (const c of [...abusers, victim]) await c.request({ type: 'reset', data: { seed: 1 } });
    let runawaysAnswered = 0;
    for (const a of abusers) void a.request({ type: 'step', data: RUNAWAY }, 'msgpack').then(
      () => runawaysAnswered++,
      () => undefined, // the abuser is terminated below, before its step is answered
    );
    await until(() => pool.running === 2);
    for (let i = 0; i < 5; i++) {
      const reply = await victim.request({ type: 'step', data: CHEAP });
      expect((reply.data as { info: { error_type: unknown } }).info.error_type).toBeNull();
    }
    expect(runawaysAnswered).toBe(0);
    expect(pool.running).toBe(2);
    // Both abusers vanish without a close handshake: their queries are killed, not left to run.
    for (const a of abusers) a.ws.terminate();
    await until(() => pool.running === 0);
    await until(() => server.metrics.activeSessions === 1);
    victim.close();
    await until(() => server.metrics.activeSessions === 0);
  });

  it('DELETE /sessions/:id kills the running query of that HTTP session; its step answers with the cause', async () => {
    const { session_id: id } = (await (await fetch(`${server.url}/sessions`, { method: 'POST' })).json()) as { session_id: string };
    const headers = { [SESSION_HEADER]: id, 'content-type': 'application/json' };
    await fetch(`${server.url}/reset`, { method: 'POST', headers, body: '{}' });
    const step = fetch(`${server.url}/step`, { method: 'POST', headers, body: JSON.stringify({ action: RUNAWAY }) });
    await until(() => pool.running === 1);
    expect((await fetch(`${server.url}/sessions/${id}`, { method: 'DELETE' })).status).toBe(200);
    const answered = (await (await step).json()) as { observation: { error: string }; info: { error_type: string } };
    expect(answered.info.error_type).toBe('sql_error');
    expect(answered.observation.error).toMatch(/cancelled/);
    expect(pool.running).toBe(0);
  });
});

describe('SQLEnv on a shared pool', () => {
  it('close() kills the query the env is running; the step in flight answers with the cause', async () => {
    const env = new SQLEnv({ dataset, pool, split: 'smoke', queryLimits });
    const [obs0] = await env.reset({ seed: 2 });
    const step = env.step(RUNAWAY);
    await until(() => pool.running === 1);
    await env.close();
    const [obs, , , , info] = await step;
    expect(info.error_type).toBe('sql_error');
    expect(obs.error).toMatch(/cancelled because its session ended/);
    expect(obs.step).toBe(obs0.step + 1);
    expect(pool.running).toBe(0);
  });
});
