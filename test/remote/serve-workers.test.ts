/**
 * `sqlenv serve --workers 2`: two processes share one port (node:cluster); HTTP sessions reach
 * their own state whichever worker a request lands on; a worker that dies is restarted and its
 * sessions answer `unknown_session`; SIGTERM drains every worker and exits 0.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RemoteEnv } from '../../src/remote/index.js';
import { startServeProcess, type ServeProcess } from './fixtures/serve-process.js';

let served: ServeProcess;

/** One request on a fresh connection (as Python's urllib does): node:cluster spreads connections, not sessions. */
function call(method: string, path: string, body?: unknown, session?: string): Promise<{ status: number; data: Record<string, unknown> }> {
  const url = new URL(path, served.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, agent: false, headers: { 'content-type': 'application/json', ...(session ? { 'x-session-id': session } : {}) } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, data: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function openSessions(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await call('POST', '/sessions')).data.session_id as string);
  return ids;
}

/** Resolves once a JSON log line matches. */
async function logged(match: (e: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (;;) {
    const found = served.events().find(match);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  served = await startServeProcess(['--env', 'GuessNumber-v0', '--port', '0', '--workers', '2', '--heartbeat', '5', '--reap-interval', '1']);
});
afterAll(async () => {
  await served?.stop();
});

it('spreads HTTP sessions over both workers, and each session keeps its own episode whichever worker a request reaches', async () => {
  expect(served.log()).toMatch(/GuessNumber-v0 on http:\/\/127\.0\.0\.1:\d+ \(WebSocket \/ws, 2 worker processes\)/);
  const ids = await openSessions(8);
  expect(new Set(ids.map((id) => id.slice(0, 3)))).toEqual(new Set(['w0-', 'w1-']));
  for (const [i, id] of ids.entries()) expect((await call('POST', '/reset', { seed: i }, id)).status).toBe(200);
  // Session i takes i+1 steps; every request on a new connection, so about half are forwarded.
  for (const [i, id] of ids.entries()) {
    for (let s = 0; s <= i; s++) expect((await call('POST', '/step', { action: 1 }, id)).data.observation).toMatch(/Too low|Correct/);
  }
  for (const [i, id] of ids.entries()) expect((await call('GET', '/state', undefined, id)).data).toMatchObject({ session_id: id, step_count: i + 1 });
  for (const id of ids) expect((await call('DELETE', `/sessions/${id}`)).data).toEqual({ session_id: id, closed: true });
  expect((await call('GET', '/state', undefined, ids[0])).status).toBe(404);
});

it('serves WebSocket sessions (they live on their connection) through RemoteEnv', async () => {
  const envs = await Promise.all([0, 1, 2, 3].map(() => RemoteEnv.connect(served.url, { encoding: 'msgpack' })));
  for (const env of envs) {
    await env.reset({ seed: 3 });
    const [obs] = await env.step(1);
    expect(obs).toMatch(/Too low|Correct/);
    expect((await env.state()).step_count).toBe(1);
  }
  const ids = await Promise.all(envs.map(async (e) => (await e.state()).session_id as string));
  expect(ids.every((id) => /^w[01]-/.test(id))).toBe(true);
  await Promise.all(envs.map((e) => e.close()));
});

it('restarts a worker that dies; its HTTP sessions answer unknown_session, the other worker keeps serving', async () => {
  const ids = await openSessions(6);
  for (const id of ids) await call('POST', '/reset', { seed: 1 }, id);
  const victim = await logged((e) => e.event === 'listening' && e.worker === 1);
  process.kill(victim.pid as number, 'SIGKILL');
  await logged((e) => e.event === 'worker_exit_error' && e.worker === 1);
  for (const id of ids) {
    const answer = await call('POST', '/step', { action: 1 }, id);
    if (id.startsWith('w1-')) expect(answer).toMatchObject({ status: 404, data: { code: 'SESSION_ERROR', reason: 'unknown_session' } });
    else expect(answer.status).toBe(200);
  }
  await logged((e) => e.event === 'worker_restarted' && e.worker === 1);
  const again = await openSessions(6);
  expect(new Set(again.map((id) => id.slice(0, 3)))).toEqual(new Set(['w0-', 'w1-']));
  for (const id of again) expect((await call('POST', '/reset', { seed: 2 }, id)).status).toBe(200);
});

it('drains every worker and exits 0 on SIGTERM', async () => {
  expect(await served.stop()).toBe(0);
  const stopped = served.events().filter((e) => e.event === 'stopped');
  expect(new Set(stopped.map((e) => e.worker))).toEqual(new Set([0, 1]));
});
