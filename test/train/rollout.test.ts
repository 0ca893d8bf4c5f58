import { describe, expect, it } from 'vitest';
import type { Env } from '../../src/gym/env.js';
import { Rng } from '../../src/base/rng.js';
import { createServer, RemoteEnv, silentLogger } from '../../src/remote/index.js';
import { actionFromText, rolloutEpisodes } from '../../src/train/rollout/multi-turn-rollout.js';
import { EnvPool } from '../../src/train/rollout/env-pool.js';
import { episodeMetrics, groupMetrics } from '../../src/train/metrics/episode-metrics.js';
import { BigramPolicy, EOT, TOOL, VOCAB } from './fixtures/bigram-policy.js';
import { LetterEnv, letterTask } from './fixtures/letter-env.js';

const options = { maxTurns: 4, maxNewTokensPerTurn: 5, maxTotalTokens: 64, temperature: 1, topP: 1 };

describe('actionFromText', () => {
  it('takes the first parsed tool call, else the raw text', () => {
    expect(actionFromText('hi <tool_call>{"name":"answer","arguments":{"value":"a"}}</tool_call>')).toEqual({
      action: { name: 'answer', arguments: { value: 'a' } },
      parsed: true,
      extraCalls: 0,
    });
    expect(actionFromText('DESCRIBE singer')).toEqual({ action: 'DESCRIBE singer', parsed: false, extraCalls: 0 });
  });
});

describe('rolloutEpisodes', () => {
  it('runs multi-turn episodes and masks prompt and tool-response tokens', async () => {
    const pool = new EnvPool(() => new LetterEnv(2));
    const policy = new BigramPolicy();
    const envs = pool.take(3);
    const eps = await rolloutEpisodes(policy, letterTask, envs.map((env, i) => ({ env, spec: { seed: i }, group: 0 })), options, new Rng(1));
    await pool.close();
    expect(eps).toHaveLength(3);
    for (const e of eps) {
      expect(e.turns).toHaveLength(2);
      expect(e.finished).toBe(true);
      expect(e.tokens.length).toBe(e.mask.length);
      expect(e.mask.slice(0, e.promptLength).every((m) => m === 0)).toBe(true);
      // The tool response (TOOL marker + "ok") sits between the turns and is masked out.
      const toolAt = e.tokens.indexOf(TOOL, e.promptLength);
      expect(toolAt).toBeGreaterThan(e.promptLength);
      expect(e.mask[toolAt]).toBe(0);
      expect(e.mask[toolAt + 1]).toBe(0);
      expect(e.generatedTokens).toBe(e.mask.filter((m) => m === 1).length);
      // Each turn's tokenSpan covers exactly the tokens it generated (what turn-level credit trains).
      const spanned = e.turns.flatMap((t) => Array.from({ length: t.tokenSpan[1] - t.tokenSpan[0] }, (_, i) => t.tokenSpan[0] + i));
      expect(spanned).toEqual(e.mask.flatMap((m, i) => (m === 1 ? [i] : [])));
      for (const t of e.turns) expect(policy.codec.decode(e.tokens.slice(t.tokenSpan[0], t.tokenSpan[1]))).toBe(t.text);
    }
  });

  it('stops at the token limit and marks the episode truncated', async () => {
    const pool = new EnvPool(() => new LetterEnv(10));
    const eps = await rolloutEpisodes(new BigramPolicy(), letterTask, [{ env: pool.take(1)[0]!, spec: { seed: 0 }, group: 0 }], { ...options, maxTurns: 10, maxTotalTokens: 12 }, new Rng(2));
    await pool.close();
    expect(eps[0]!.truncatedByTokens).toBe(true);
    expect(eps[0]!.tokens.length).toBeLessThanOrEqual(12);
  });

  it('is reproducible for the same RNG seed', async () => {
    const run = async () => {
      const pool = new EnvPool(() => new LetterEnv(2));
      const eps = await rolloutEpisodes(new BigramPolicy(), letterTask, pool.take(2).map((env, i) => ({ env, spec: { seed: i }, group: i })), options, new Rng(5));
      await pool.close();
      return eps.map((e) => e.tokens);
    };
    expect(await run()).toEqual(await run());
  });

  it('summarises episodes with documented metric names', async () => {
    const pool = new EnvPool(() => new LetterEnv(2));
    const eps = await rolloutEpisodes(new BigramPolicy(), letterTask, pool.take(4).map((env) => ({ env, spec: { seed: 0 }, group: 0 })), options, new Rng(3));
    await pool.close();
    const m = episodeMetrics(eps, eps.map(() => 0.5));
    expect(m['reward']).toBe(0.5);
    expect(m['turns_mean']).toBe(2);
    expect(m['tools/call_frequency']).toBe(2);
    expect(m['turn_reward/1']).toBeGreaterThanOrEqual(0);
    expect(Object.keys(m).some((k) => k.startsWith('reward_components/letters'))).toBe(true);
    expect(groupMetrics([eps.slice(0, 2), eps.slice(2)], [[1, 1], [0, 1]])['frac_reward_zero_std']).toBe(0.5);
  });

  it("records the task's outcomes of finished episodes and reports their shares", async () => {
    const pool = new EnvPool(() => new LetterEnv(2));
    const task = { ...letterTask, outcomes: (info: Record<string, unknown>) => ({ judged: 'is_correct' in info }) };
    const finished = await rolloutEpisodes(new BigramPolicy(), task, pool.take(2).map((env, i) => ({ env, spec: { seed: i }, group: i })), options, new Rng(3));
    const cut = await rolloutEpisodes(new BigramPolicy(), task, pool.take(1).map((env) => ({ env, spec: { seed: 0 }, group: 0 })), { ...options, maxTurns: 1 }, new Rng(3));
    await pool.close();
    expect(finished.map((e) => e.outcomes)).toEqual([{ judged: true }, { judged: true }]);
    expect(cut[0]!.outcomes).toBeUndefined(); // cut off by maxTurns: the env never finished it
    const m = episodeMetrics([...finished, ...cut], [0, 0, 0]);
    expect(m['outcomes/judged']).toBeCloseTo(2 / 3, 12); // an unfinished episode counts as "no"
    expect(Object.keys(episodeMetrics(cut, [0])).some((k) => k.startsWith('outcomes/'))).toBe(false);
  });

  it('greedy decoding of a policy that prefers EOT ends turns immediately', async () => {
    const policy = new BigramPolicy((i) => (i % VOCAB === EOT ? 5 : 0));
    const pool = new EnvPool(() => new LetterEnv(1));
    const eps = await rolloutEpisodes(policy, letterTask, [{ env: pool.take(1)[0]!, spec: { seed: 0 }, group: 0 }], { ...options, temperature: 0 }, new Rng(0));
    await pool.close();
    expect(eps[0]!.turns[0]!.text).toBe('');
  });
});

describe('rollout limits', () => {
  it('refuses a prompt that alone fills the token limit, saying what to change', async () => {
    const { RolloutConfigError } = await import('../../src/train/rollout/multi-turn-rollout.js');
    const pool = new EnvPool(() => new LetterEnv(1));
    await expect(
      rolloutEpisodes(new BigramPolicy(), letterTask, [{ env: pool.take(1)[0]!, spec: { seed: 12345 }, group: 0 }], { ...options, maxTotalTokens: 4 }, new Rng(0)),
    ).rejects.toThrow(RolloutConfigError);
    await pool.close();
  });
});

describe('rolloutEpisodes over the network', () => {
  it('gives the same episodes through a RemoteEnv (OpenEnv server) as in process', async () => {
    const server = createServer({ envId: 'LetterEnv', createEnv: () => new LetterEnv(2), logger: silentLogger });
    await server.listen(0, '127.0.0.1');
    try {
      const rollout = async (envs: Env<string, unknown>[]) =>
        rolloutEpisodes(new BigramPolicy(), letterTask, envs.map((env, i) => ({ env, spec: { seed: i }, group: 0 })), options, new Rng(9));
      const local = await rollout([new LetterEnv(2), new LetterEnv(2)]);
      const remoteEnvs = await Promise.all([0, 1].map(() => RemoteEnv.connect<string, unknown>(server.url)));
      const remote = await rollout(remoteEnvs);
      await Promise.all(remoteEnvs.map((e) => e.close()));
      expect(remote.map((e) => e.tokens)).toEqual(local.map((e) => e.tokens));
      expect(remote.map((e) => e.turns.map((t) => t.reward))).toEqual(local.map((e) => e.turns.map((t) => t.reward)));
    } finally {
      await server.close();
    }
  });
});
