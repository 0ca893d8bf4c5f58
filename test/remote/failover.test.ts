/**
 * RemoteEnv over several servers: sessions spread over them, a server that goes away ends the
 * episode in flight with a typed SessionLostError (never a hang), and the next reset continues on
 * a live server; full servers are skipped; with every server gone, reset gives up with
 * CONNECTION_ERROR after its attempts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RemoteEnv, RemoteEnvError, SessionLostError } from '../../src/remote/index.js';
import type { ToolCall } from '../../src/gym/spaces/index.js';
import { startTestServer } from './fixtures/server.js';
import { startServeProcess } from './fixtures/serve-process.js';
import { openRawClient } from './ws-helpers.js';

const add = (n: number): ToolCall => ({ name: 'add', arguments: { n } });
const countBy = (values: string[]) => values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});

describe.each(['ws', 'http'] as const)('RemoteEnv over several servers (%s)', (transport) => {
  it('spreads sessions evenly, ends the episode of a server that goes away with SESSION_LOST, and resets onto a live one', async () => {
    const servers = await Promise.all([0, 1, 2].map(() => startTestServer()));
    const urls = servers.map((s) => s.url);
    const envs = await Promise.all(Array.from({ length: 6 }, () => RemoteEnv.connect<unknown, ToolCall>(urls, { transport })));
    try {
      for (const env of envs) await env.reset({ seed: 1 });
      expect(countBy(envs.map((e) => e.url))).toEqual({ [urls[0]!]: 2, [urls[1]!]: 2, [urls[2]!]: 2 });
      for (const env of envs) await env.step(add(2));

      const gone = urls[1]!;
      await servers[1]!.close();
      for (const env of envs) {
        if (env.url !== gone) {
          expect((await env.step(add(3)))[0]).toMatchObject({ total: 5 });
          continue;
        }
        const lost = await env.step(add(3)).catch((e: unknown) => e);
        expect(lost).toBeInstanceOf(SessionLostError);
        expect(lost).toMatchObject({ code: 'SESSION_LOST', url: gone, data: { url: gone } });
        // Until the next reset, every call says the same at once.
        await expect(env.step(add(1))).rejects.toBeInstanceOf(SessionLostError);
        await expect(env.state()).rejects.toMatchObject({ code: 'SESSION_LOST' });
        await env.reset({ seed: 2 });
        expect(env.url).not.toBe(gone);
        expect((await env.step(add(4)))[0]).toMatchObject({ total: 4 });
        expect((await env.state()).step_count).toBe(1);
      }
      expect(envs.filter((e) => e.url === gone)).toEqual([]);
    } finally {
      await Promise.all(envs.map((e) => e.close()));
      await Promise.all(servers.map((s) => s.close()));
    }
    expect(servers[0]!.metrics.activeSessions + servers[2]!.metrics.activeSessions).toBe(0);
  });

  it('skips a full server, answers CAPACITY_REACHED at once when all are full, and gives up on unreachable ones with CONNECTION_ERROR', async () => {
    const full = await startTestServer({ maxSessions: 1 });
    const free = await startTestServer({ maxSessions: 1 });
    const holder = await openRawClient(full.wsUrl);
    await holder.request({ type: 'state' });
    const urls = [full.url, free.url];
    const schema = await RemoteEnv.fetchSchema(urls);
    const first = await RemoteEnv.connect(urls, { transport });
    const second = await RemoteEnv.connect(urls, { transport });
    try {
      await first.reset({ seed: 1 });
      expect(first.url).toBe(free.url);
      await expect(second.reset({ seed: 1 })).rejects.toMatchObject({ code: 'CAPACITY_REACHED' });
    } finally {
      await first.close();
      await second.close();
      holder.close();
      await full.close();
      await free.close();
    }
    const nowhere = new RemoteEnv(['http://127.0.0.1:1', 'http://127.0.0.1:9'], { transport, schema, reconnect: { attempts: 4, initialDelayMs: 5 } });
    const err = await nowhere.reset().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteEnvError);
    expect(err).toMatchObject({ code: 'CONNECTION_ERROR', message: expect.stringMatching(/No server took the session after 4 attempts/) });
    expect((err as RemoteEnvError).data.tried).toHaveLength(4);
    await nowhere.close();
  });
});

it('survives a `sqlenv serve` process killed with SIGKILL: lost episodes are typed, the rest continue on the other server', async () => {
  const servers = await Promise.all([0, 1].map(() => startServeProcess(['--env', 'GuessNumber-v0', '--port', '0'])));
  const urls = servers.map((s) => s.url);
  const envs = await Promise.all([0, 1, 2, 3].map((i) => RemoteEnv.connect<string, number>(urls, { transport: i % 2 ? 'http' : 'ws', encoding: 'msgpack' })));
  try {
    for (const env of envs) await env.reset({ seed: 5 });
    const victim = urls[0]!;
    servers[0]!.child.kill('SIGKILL');
    await servers[0]!.stop();
    for (const env of envs) {
      if (env.url === victim) {
        await expect(env.step(50)).rejects.toMatchObject({ name: 'SessionLostError', code: 'SESSION_LOST', data: { cause_code: 'CONNECTION_ERROR' } });
        await env.reset({ seed: 5 });
      }
      const [obs] = await env.step(50);
      expect(obs).toMatch(/Too low|Too high|Correct/);
      expect(env.url).toBe(urls[1]);
    }
  } finally {
    await Promise.all(envs.map((e) => e.close()));
    expect(await servers[1]!.stop()).toBe(0);
  }
});

const PYTHON = process.env['SQLENV_PYTHON'] ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
const python = spawnSync(PYTHON, ['--version']).status === 0;
const pythonHas = (module: string) => python && spawnSync(PYTHON, ['-c', `import ${module}`]).status === 0;

interface SessionReport {
  finished: number;
  lost: { code: string; cause: string; url: string; finished_before: number }[];
  errors: string[];
  servers: string[];
  on_killed_at_kill: boolean;
}

/**
 * The Python client against three `sqlenv serve` processes: 96 sessions, 4 episodes each; one
 * server is SIGKILLed while every session is inside its second episode. Each session must
 * still finish its 4 episodes (checked against the server's own step count), and the episodes
 * that died are exactly those of the killed server, each reported as SESSION_LOST.
 */
describe.runIf(python)('Python client over three servers, one killed mid-run', () => {
  const transports = ['http', ...(pythonHas('websockets') ? ['ws'] : [])];
  it.each(transports)('every one of 96 sessions finishes its 4 episodes, and only the killed server’s episodes are lost, typed (%s)', async (transport) => {
    const servers = await Promise.all([0, 1, 2].map(() => startServeProcess(['--env', 'GuessNumber-v0', '--port', '0', '--max-sessions', '96'])));
    const [victim, ...survivors] = servers;
    try {
      const args = ['test/remote/fixtures/failover_run.py', transport, '96', '4', String(victim!.child.pid), ...servers.map((s) => s.url)];
      const { code, out, err } = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(PYTHON, args, { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('close', (c) => resolve({ code: c, out, err }));
      });
      expect(code, err).toBe(0);
      const result = JSON.parse(out) as { killed_url: string; sessions: SessionReport[] };
      expect(result.killed_url).toBe(victim!.url);
      expect(result.sessions).toHaveLength(96);
      expect(result.sessions.flatMap((s) => s.errors)).toEqual([]);
      expect(result.sessions.map((s) => s.finished)).toEqual(Array(96).fill(4));
      // Sessions started on the servers in turn: a third of them were on the killed one.
      const onVictim = result.sessions.filter((s) => s.on_killed_at_kill);
      expect(onVictim).toHaveLength(32);
      // No silent loss: exactly those sessions lost exactly one episode, reported as SESSION_LOST…
      for (const s of result.sessions) {
        expect(s.lost).toEqual(s.on_killed_at_kill ? [{ code: 'SESSION_LOST', cause: 'CONNECTION_ERROR', url: victim!.url, finished_before: 1 }] : []);
      }
      // …and after it, every episode ran on a server that is up.
      for (const s of onVictim) expect(s.servers.slice(2).every((url) => url !== victim!.url)).toBe(true);
      // The survivors served every remaining episode and closed every session.
      for (const survivor of survivors) {
        const metrics = await (await fetch(`${survivor.url}/metrics`)).text();
        expect(metrics).toMatch(/^sqlenv_sessions_active 0$/m);
      }
    } finally {
      for (const s of survivors) expect(await s.stop()).toBe(0);
      await victim!.stop();
    }
  });
});
