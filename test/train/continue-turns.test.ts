/**
 * Multi-turn rollouts with the real (ONNX) policy continue each turn from the previous turn's
 * keys and values (`rollout.continueTurns`): the same episodes as prefilling every turn's whole
 * prompt, with far fewer prompt tokens run.
 */
import { describe, expect, it } from 'vitest';
import { useTinyModel } from '../lm/tiny-model-fixture.js';
import { Rng } from '../../src/base/rng.js';
import { Policy } from '../../src/lm/index.js';
import { LmTrainablePolicy } from '../../src/train/policy/lm-policy-adapter.js';
import { rolloutEpisodes, type RolloutOptions } from '../../src/train/rollout/multi-turn-rollout.js';
import { LetterEnv, letterTask } from './fixtures/letter-env.js';

const tinyModel = useTinyModel({ arch: 'qwen3', layers: 2, hidden: 32, heads: 2, kvHeads: 1, vocabSize: 300, seed: 6, initStd: 0.3 });

async function rollout(options: RolloutOptions, prefillTokens: number[]) {
  const lm = await Policy.create(tinyModel(), { train: 'none', intraOpThreads: 1 });
  const generate = lm.generate.bind(lm);
  lm.generate = (prompts, o = {}) => generate(prompts, { ...o, onTimings: (t) => prefillTokens.push(t.prefillTokens) });
  const policy = new LmTrainablePolicy(lm);
  try {
    const envs = Array.from({ length: 6 }, () => new LetterEnv(3));
    // Two groups of three samples of one question each, as GRPO asks.
    return await rolloutEpisodes(policy, letterTask, envs.map((env, i) => ({ env, spec: { seed: Math.floor(i / 3) }, group: Math.floor(i / 3) })), options, new Rng(2));
  } finally {
    await lm.close();
  }
}

describe('rollout.continueTurns (ONNX policy)', () => {
  for (const temperature of [0, 1]) it(`gives the episodes of a whole-prompt prefill every turn (temperature ${temperature})`, async () => {
    const options: RolloutOptions = { maxTurns: 3, maxNewTokensPerTurn: 6, maxTotalTokens: 800, temperature, topP: 1 };
    const fullTokens: number[] = [];
    const continuedTokens: number[] = [];
    const full = await rollout({ ...options, continueTurns: false }, fullTokens);
    const continued = await rollout(options, continuedTokens);
    expect(continued.every((e) => e.turns.length >= 2)).toBe(true);
    continued.forEach((e, i) => {
      expect(e.tokens).toEqual(full[i]!.tokens);
      e.samplingLogprobs!.forEach((lp, t) => expect(Math.abs(lp - full[i]!.samplingLogprobs![t]!)).toBeLessThan(1e-4));
    });
    // The first turn prefills the same prompts; later turns run only what was added (fewer columns
    // even where the whole-prompt prefill shares identical greedy rows).
    expect(continuedTokens[0]).toBe(fullTokens[0]);
    expect(continuedTokens.length).toBe(fullTokens.length);
    expect(continuedTokens.length).toBeGreaterThanOrEqual(2);
    for (let turn = 1; turn < continuedTokens.length; turn++) expect(continuedTokens[turn]!).toBeLessThan(fullTokens[turn]!);
  });
});
