/**
 * `sqlenv serve` as a process: it starts, serves, logs JSON lines, and drains on SIGTERM.
 */
import { expect, it } from 'vitest';
import { startServeProcess } from './fixtures/serve-process.js';

it('sqlenv serve starts, answers, logs one JSON line per event and exits 0 on SIGTERM', async () => {
  const served = await startServeProcess(['--env', 'GuessNumber-v0', '--port', '0', '--max-sessions', '3', '--token', 'tok']);
  const { url } = served;
  const auth = { authorization: 'Bearer tok' };
  expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'healthy' });
  expect((await fetch(`${url}/metadata`)).status).toBe(401);
  expect(await (await fetch(`${url}/metadata`, { headers: auth })).json()).toMatchObject({ name: 'GuessNumber-v0' });
  const reset = await fetch(`${url}/reset`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"seed": 1}' });
  expect(await reset.json()).toMatchObject({ observation: 'Guess a number from 1 to 100.', done: false });

  expect(await served.stop()).toBe(0);
  const events = served.events();
  expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['listening', 'shutdown', 'stopped']));
  expect(events.find((e) => e.event === 'listening')).toMatchObject({ level: 'info', max_sessions: 3 });
});

it('sqlenv serve --env SQLEnv-v0 --dataset bundled serves SQL episodes with text renderings', async () => {
  const served = await startServeProcess(['--env', 'SQLEnv-v0', '--dataset', 'bundled', '--split', 'smoke', '--query-workers', '1', '--port', '0']);
  const { url } = served;
  try {
    const post = (path: string, body: unknown, session?: string) =>
      fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(session ? { 'x-session-id': session } : {}) }, body: JSON.stringify(body) }).then(
        (r) => r.json() as Promise<Record<string, unknown>>,
      );
    const session = (await post('/sessions', {})).session_id as string;
    const reset = await post('/reset', { seed: 1 }, session);
    const obs = reset.observation as { question: string; tables: string[] };
    expect(obs.question).toMatch(/\S/);
    expect(reset.rendered).toContain(obs.question);
    const step = await post('/step', { action: { name: 'query', arguments: { sql: `SELECT count(*) FROM ${obs.tables[0]}` } } }, session);
    expect(step).toMatchObject({ done: false, info: { error_type: null } });
    expect(step.rendered).toMatch(/count/i);
  } finally {
    expect(await served.stop()).toBe(0);
  }
});
