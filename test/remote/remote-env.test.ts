import { describe, expect, it } from 'vitest';
import * as gym from '../../src/gym/index.js';
import { RemoteEnv, RemoteEnvError } from '../../src/remote/index.js';
import { useTestServer } from './fixtures/use-test-server.js';
import { TallyEnv, tallyPlan, type TallyObs } from './fixtures/tally-env.js';
import type { ToolCall } from '../../src/gym/spaces/index.js';

const server = useTestServer({ envKwargs: { renderMode: 'ansi' } });

const combos = [
  { transport: 'ws', encoding: 'json' },
  { transport: 'ws', encoding: 'msgpack' },
  { transport: 'http', encoding: 'json' },
  { transport: 'http', encoding: 'msgpack' },
] as const;

describe.each(combos)('RemoteEnv over $transport/$encoding', (opts) => {
  it('rebuilds the spaces from /schema and plays an episode like the local env', async () => {
    const env = await RemoteEnv.connect<TallyObs, ToolCall>(server().url, opts);
    const local = new TallyEnv();
    expect(env.actionSpace.equals(local.actionSpace)).toBe(true);
    expect(env.observationSpace.equals(local.observationSpace)).toBe(true);

    const [obs, info] = await env.reset({ seed: 5, options: { target: 17 } });
    expect(obs).toEqual({ target: 17, total: 0, message: 'Reach 17.' });
    expect(info).toEqual({ target_source: 'options' });
    expect(env.render()).toBe('Reach 17. (0/17)');
    let ret = 0;
    let last: Awaited<ReturnType<typeof env.step>> | undefined;
    for (const action of tallyPlan(17)) {
      last = await env.step(action);
      ret += last[1];
    }
    expect(last?.[2]).toBe(true);
    expect(last?.[4]).toEqual({ is_correct: true });
    expect(ret).toBeCloseTo(1.02);
    expect(await env.state()).toMatchObject({ step_count: 3, terminated: true, episode_return: ret });
    expect((await env.listTools()).map((t) => t.name)).toEqual(['add', 'finish', 'fail', 'slow']);

    // An env failure is this session's EXECUTION_ERROR; the session keeps working.
    await expect(env.step({ name: 'fail', arguments: {} })).rejects.toMatchObject({ code: 'EXECUTION_ERROR' });
    const [, penalty, , , errInfo] = await env.step({ name: 'teleport', arguments: {} });
    expect(penalty).toBe(-0.1);
    expect(errInfo.error_type).toBe('unknown_tool');

    await env.close();
    await env.close(); // idempotent
    await expect(env.step({ name: 'finish', arguments: {} })).rejects.toBeInstanceOf(RemoteEnvError);
  });
});

describe('RemoteEnv with the gym layer', () => {
  it('passes checkEnv', async () => {
    const env = await RemoteEnv.connect(server().url, { encoding: 'msgpack' });
    try {
      await gym.checkEnv(env as gym.Env<unknown, unknown>);
    } finally {
      await env.close();
    }
  });

  it('runs inside SyncVectorEnv with a shared, pre-fetched schema', async () => {
    const schema = await RemoteEnv.fetchSchema(server().url);
    const fns = [0, 1, 2].map(() => () => new RemoteEnv<TallyObs, ToolCall>(server().url, { schema, encoding: 'msgpack' }));
    const vec = new gym.SyncVectorEnv<TallyObs, ToolCall>(fns);
    try {
      const [obs] = await vec.reset({ seed: 3, options: { target: 9 } });
      expect(obs).toHaveLength(3);
      const [obs2, rewards, terminated] = await vec.step([0, 1, 2].map(() => ({ name: 'add', arguments: { n: 9 } })));
      expect((obs2 as TallyObs[]).map((o) => o.total)).toEqual([9, 9, 9]);
      expect(Array.from(rewards as ArrayLike<number>)).toEqual([0.01, 0.01, 0.01]);
      expect(Array.from(terminated as ArrayLike<boolean>)).toEqual([false, false, false]);
    } finally {
      await vec.close();
    }
    expect(server().metrics.activeSessions).toBe(0);
  });

  it('reports a missing server as a CONNECTION_ERROR', async () => {
    const env = new RemoteEnv('http://127.0.0.1:1', { transport: 'ws' });
    await expect(env.reset()).rejects.toThrow();
    await env.close();
  });
});
