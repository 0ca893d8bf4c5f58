/**
 * SQLEnv-v0 over the network: RemoteEnv episodes match in-process ones step for step, checkEnv
 * passes, a batch of concurrent sessions runs clean, and a killed query worker does not take
 * the server down. Needs the compiled query worker: `npx tsc -p tsconfig.build.json` (npm test builds first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OracleAgent, SQLEnv, type SqlObservation } from '../../envs/sql/index.js';
import { checkEnv, type Env, type Info, type StepResult } from '../../src/gym/index.js';
import { RemoteEnv, type RemoteEnvOptions } from '../../src/remote/index.js';
import { startSqlServer, type SqlTestServer } from './fixtures/sql-server.js';

let sql: SqlTestServer;
beforeAll(async () => {
  sql = await startSqlServer('smoke', { maxSessions: 24 });
});
afterAll(async () => {
  await sql?.close();
});

/** Play one oracle episode; returns the rewards and the final info. */
async function oracleEpisode(env: Env<SqlObservation, unknown>, seed: number): Promise<{ rewards: number[]; info: Info; questionId: unknown }> {
  const agent = new OracleAgent(sql.dataset);
  const [obs0, info0] = await env.reset({ seed });
  await agent.reset(obs0, info0);
  let obs = obs0;
  let info = info0;
  const rewards: number[] = [];
  for (let done = false; !done; ) {
    const step: StepResult<SqlObservation> = await env.step(agent.act(obs, info));
    [obs, , , , info] = step;
    rewards.push(step[1]);
    done = step[2] || step[3];
  }
  return { rewards, info, questionId: info0.question_id };
}

describe.each([
  { transport: 'ws', encoding: 'msgpack' },
  { transport: 'http', encoding: 'json' },
] as RemoteEnvOptions[])('SQLEnv-v0 through RemoteEnv ($transport/$encoding)', (opts) => {
  it('plays oracle episodes exactly as the in-process env does', async () => {
    const remote = await RemoteEnv.connect<SqlObservation, unknown>(sql.server.url, opts);
    const local = new SQLEnv({ dataset: sql.dataset, pool: sql.pool, split: 'smoke' });
    try {
      for (const seed of [1, 2]) {
        const a = await oracleEpisode(remote, seed);
        const b = await oracleEpisode(local, seed);
        expect(a.questionId).toBe(b.questionId);
        expect(a.rewards).toEqual(b.rewards);
        expect(a.info.is_correct).toBe(true);
        expect(a.info.reward_components).toEqual(b.info.reward_components);
      }
      expect(remote.render()).toMatch(/\S/);
    } finally {
      await remote.close();
      await local.close();
    }
  });
});

describe('SQLEnv-v0 server', () => {
  it('passes checkEnv through RemoteEnv', async () => {
    const env = await RemoteEnv.connect(sql.server.url, { encoding: 'msgpack' });
    try {
      await checkEnv(env);
    } finally {
      await env.close();
    }
  });

  it('runs 16 concurrent sessions to the end with zero errors, tolerant errors counted in /metrics', async () => {
    const schema = await RemoteEnv.fetchSchema(sql.server.url);
    const results = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const env = new RemoteEnv<SqlObservation, unknown>(sql.server.url, { schema, encoding: i % 2 ? 'msgpack' : 'json' });
        try {
          await env.reset({ seed: 100 + i });
          // A malformed action is a penalised step in tolerant mode, not a protocol error.
          const [, , , , bad] = await env.step({ name: 'query', arguments: { sql: 'DROP TABLE x' } });
          expect(bad.error_type).toBe('forbidden_sql');
          return (await oracleEpisode(env, 100 + i)).info.is_correct;
        } finally {
          await env.close();
        }
      }),
    );
    expect(results).toEqual(new Array(16).fill(true));
    const metrics = await (await fetch(`${sql.server.url}/metrics`)).text();
    expect(metrics).toMatch(/sqlenv_errors_total\{source="env",type="forbidden_sql"\} 16/);
    expect(metrics).not.toMatch(/source="protocol"/);
  });

  it('survives a killed query worker: the running step answers, other sessions keep working', async () => {
    const victim = await RemoteEnv.connect<SqlObservation, unknown>(sql.server.url, { encoding: 'msgpack' });
    const bystander = await RemoteEnv.connect<SqlObservation, unknown>(sql.server.url, { encoding: 'json' });
    try {
      await victim.reset({ seed: 3 });
      await bystander.reset({ seed: 4 });
      const slow = victim.step({
        name: 'query',
        arguments: { sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) SELECT count(*) FROM c' },
      });
      await new Promise((r) => setTimeout(r, 300));
      for (const pid of sql.pool.pids) process.kill(pid, 'SIGKILL');
      const [obs, , , , info] = await slow;
      expect(typeof info.error_type).toBe('string');
      expect(obs.error).toMatch(/\S/);
      const [, , , , ok] = await bystander.step({ name: 'query', arguments: { sql: 'SELECT 1' } });
      expect(ok.error_type).toBeNull();
      expect((await fetch(`${sql.server.url}/health`)).status).toBe(200);
    } finally {
      await victim.close();
      await bystander.close();
    }
  });
});
