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

/** Both transports, each with the encoding it is least often tested with. */
const TRANSPORTS: RemoteEnvOptions[] = [
  { transport: 'ws', encoding: 'msgpack' },
  { transport: 'http', encoding: 'json' },
];

describe.each(TRANSPORTS)('SQLEnv-v0 through RemoteEnv ($transport/$encoding)', (opts) => {
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

  it("carries a query's result as data in info.result, as the in-process env gives it", async () => {
    const remote = await RemoteEnv.connect<SqlObservation, unknown>(sql.server.url, opts);
    const local = new SQLEnv({ dataset: sql.dataset, pool: sql.pool, split: 'smoke' });
    try {
      const sqlText = 'SELECT 1 AS one, NULL AS empty, 2.5 AS half, 9007199254740993 AS big, x\'0aff\' AS blob';
      const steps = [];
      for (const env of [remote, local]) {
        await env.reset({ seed: 1 });
        steps.push((await env.step({ name: 'query', arguments: { sql: sqlText } }))[4].result);
      }
      expect(steps[0]).toEqual({ columns: ['one', 'empty', 'half', 'big', 'blob'], rows: [[1, null, 2.5, '9007199254740993', "x'0aff'"]], row_count: 1, row_count_exact: true, truncated: false });
      expect(steps[0]).toEqual(steps[1]);
    } finally {
      await remote.close();
      await local.close();
    }
  });
});

// A server of its own: the errors these tests provoke stay out of the metrics the tests above read.
describe('SQLEnv-v0 reset options over the wire', () => {
  let own: SqlTestServer;
  beforeAll(async () => {
    own = await startSqlServer('smoke', { maxSessions: 4 });
  });
  afterAll(async () => {
    await own?.close();
  });

  describe.each(TRANSPORTS)('through RemoteEnv ($transport/$encoding)', (opts) => {
    it("honours every reset option and answers a client's bad option as VALIDATION_ERROR, then keeps serving", async () => {
      const remote = await RemoteEnv.connect<SqlObservation, unknown>(own.server.url, opts);
      try {
        const [, other] = await remote.reset({ seed: 1, options: { split: 'validation' } });
        expect(other.split).toBe('validation');
        expect(String(other.question_id)).toMatch(/^validation-/);
        const [, byId] = await remote.reset({ options: { question_id: 'smoke-0018', split: 'smoke' } });
        expect(byId).toMatchObject({ question_id: 'smoke-0018', split: 'smoke' });
        for (const [options, message] of [
          [{ spilt: 'eval' }, /"spilt" \(did you mean "split"\?\)/],
          [{ split: 'evl' }, /no split "evl" \(did you mean "eval"\?\)/],
          [{ questionId: 'train-0001' }, /no question "train-0001" .* in bundled\/smoke; to play a question of another split, pass split: 'train' too/],
          [{ dbId: 'no_such_db' }, /no questions about database "no_such_db"/],
        ] as const) {
          const refused = remote.reset({ seed: 1, options });
          await expect(refused).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
          await expect(refused).rejects.toThrow(message);
        }
        const [obs] = await remote.reset({ seed: 2 });
        const [, , , , info] = await remote.step({ name: 'describe', arguments: { table_name: obs.tables[0]! } });
        expect(info.error_type).toBeNull();
      } finally {
        await remote.close();
      }
    });
  });

  it('answers a bad option over HTTP with 422 and where it is, not 500', async () => {
    const post = (path: string, body: unknown, session?: string) =>
      fetch(`${own.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(session ? { 'x-session-id': session } : {}) }, body: JSON.stringify(body) });
    const created = (await (await post('/sessions', {})).json()) as { session_id: string };
    try {
      const bad = await post('/reset', { seed: 1, question_id: 'nope' }, created.session_id);
      expect(bad.status).toBe(422);
      const body = (await bad.json()) as { detail: { loc: string[]; msg: string }[] };
      expect(body.detail[0]).toMatchObject({ loc: ['body', 'options', 'questionId'], msg: expect.stringContaining('no question "nope"') });
      expect((await post('/reset', { seed: 1 }, created.session_id)).status).toBe(200);
    } finally {
      await fetch(`${own.server.url}/sessions/${created.session_id}`, { method: 'DELETE', headers: { 'x-session-id': created.session_id } });
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
