/**
 * RemoteEnv inside AsyncVectorEnv: worker threads build `RemoteEnv-v0` from kwargs carrying the
 * pre-fetched schema. Workers run compiled JS: `npx tsc -p tsconfig.build.json` first (npm test does).
 */
import { expect, it } from 'vitest';
import { AsyncVectorEnv, make } from '../../src/gym/index.js';
import { REMOTE_ENV_ID, RemoteEnv } from '../../src/remote/index.js';
import { useTestServer } from './fixtures/use-test-server.js';

const server = useTestServer();

it('make() builds RemoteEnv-v0 from kwargs and explains a missing schema', async () => {
  expect(() => make(REMOTE_ENV_ID, { url: server().url })).toThrow(/RemoteEnv.fetchSchema/);
  const env = make(REMOTE_ENV_ID, { url: server().url, schema: await RemoteEnv.fetchSchema(server().url) });
  const [obs] = await env.reset({ options: { target: 2 } });
  expect(obs).toMatchObject({ target: 2, total: 0 });
  await env.close();
});

it('runs remote envs in AsyncVectorEnv worker threads', async () => {
  const schema = await RemoteEnv.fetchSchema(server().url);
  const vec = new AsyncVectorEnv({ envId: REMOTE_ENV_ID, kwargs: { url: server().url, schema, encoding: 'msgpack' }, numEnvs: 3, numWorkers: 2 });
  try {
    const [obs] = await vec.reset({ seed: 1, options: { target: 4 } });
    expect((obs as { target: number }[]).map((o) => o.target)).toEqual([4, 4, 4]);
    await vec.step([0, 1, 2].map(() => ({ name: 'add', arguments: { n: 4 } })));
    const [, rewards, terminated] = await vec.step([0, 1, 2].map(() => ({ name: 'finish', arguments: {} })));
    expect(Array.from(rewards as ArrayLike<number>)).toEqual([1, 1, 1]);
    expect(Array.from(terminated as ArrayLike<boolean>)).toEqual([true, true, true]);
    expect(server().metrics.activeSessions).toBe(3);
  } finally {
    await vec.close();
  }
  await new Promise((r) => setTimeout(r, 50));
  expect(server().metrics.activeSessions).toBe(0);
});
