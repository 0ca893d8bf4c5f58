/**
 * μ = 1 with the real (ONNX) policy: the update takes the old and current log-probs from
 * sampling and runs no scoring pass of its own; its gradient, parameters and metrics equal the
 * with-pass path's (the same episodes without sampling log-probs) to float rounding.
 */
import { describe, expect, it } from 'vitest';
import { useTinyModel } from '../lm/tiny-model-fixture.js';
import { Rng } from '../../src/base/rng.js';
import { LoraAdapter, Policy } from '../../src/lm/index.js';
import { resolveTrainConfig } from '../../src/train/config/load-config.js';
import { grpoUpdate } from '../../src/train/grpo/grpo-update.js';
import type { Episode } from '../../src/train/rollout/episode.js';
import { instrumentedPolicy } from './fixtures/instrumented-policy.js';

const tinyModel = useTinyModel({ arch: 'qwen3', layers: 2, hidden: 32, heads: 2, kvHeads: 1, vocabSize: 300, seed: 5, initStd: 0.3 });

/** A LoRA policy with its optimizer, counting its non-reference scoring passes and keeping the gradient of its last step. */
async function trainable() {
  // Random LoRA B matrices: the policy differs from its reference (adapters off), so the KL term is live.
  const adapter = LoraAdapter.create(tinyModel().config, { rank: 2, alpha: 4, targetModules: ['q_proj', 'v_proj', 'down_proj'] }, { seed: 3, initB: 'random' });
  return instrumentedPolicy(await Policy.create(tinyModel(), { adapter, intraOpThreads: 1 }));
}

const config = resolveTrainConfig({
  mode: 'grpo',
  runDir: '/tmp/unused',
  rollout: { numGenerations: 4, questionsPerStep: 1, maxTurns: 1, maxNewTokensPerTurn: 8, maxTotalTokens: 64, temperature: 1 },
  grpo: { loss: { beta: 0.04, epsilonLow: 0.2, epsilonHigh: 0.28, aggregation: 'token_mean' } },
  optim: { lr: 1e-2, warmupSteps: 0, maxGradNorm: 1 },
});

describe('μ = 1 without an old-log-prob pass (ONNX policy)', () => {
  it('the sampling log-probs are the scored ones, and the update equals the with-pass update', async () => {
    const a = await trainable();
    const b = await trainable();
    try {
      const prompts = [[1, 20, 30, 40, 50, 60], [1, 20, 30, 40, 50, 60], [7, 8, 9], [7, 8, 9]];
      const gens = await a.policy.generate(prompts.map((prompt) => ({ prompt, maxNewTokens: 8, temperature: 1, topP: 1 })), new Rng(3));
      const episodes: Episode[] = gens.map((g, i) => ({
        group: 0,
        question: 'q',
        tokens: [...prompts[i]!, ...g.tokens],
        mask: [...prompts[i]!.map(() => 0), ...g.tokens.map(() => 1)],
        samplingLogprobs: [...prompts[i]!.map(() => 0), ...g.logprobs],
        promptLength: prompts[i]!.length,
        turns: [],
        rewardComponents: {},
        finished: true,
        truncatedByTokens: false,
        correct: false,
        generatedTokens: g.tokens.length,
      }));
      // The premise: what generation reports is what a scoring pass gives, to float rounding.
      const scored = await a.policy.score(episodes.map((e) => e.tokens));
      episodes.forEach((e, i) => e.mask.forEach((m, t) => m && expect(e.samplingLogprobs![t]!).toBeCloseTo(scored[i]!.logprobs[t]!, 5)));
      const passesBefore = a.passes();

      const credit = new Map(episodes.map((e, i) => [e, [1.2, -0.4, 0.3, -1.1][i]!] as const));
      const withoutPass = await grpoUpdate(a.policy, a.optimizer, episodes, credit, config, 1e-2);
      expect(a.passes() - passesBefore).toBe(0);
      const stripped = episodes.map(({ samplingLogprobs: _, ...e }) => e as Episode);
      const withPass = await grpoUpdate(b.policy, b.optimizer, stripped, new Map(stripped.map((e, i) => [e, credit.get(episodes[i]!)!] as const)), config, 1e-2);
      expect(b.passes()).toBe(1);

      for (const k of ['loss', 'kl', 'entropy', 'grad_norm']) {
        expect(Math.abs(withoutPass.metrics[k]! - withPass.metrics[k]!)).toBeLessThanOrEqual(1e-5 * Math.max(1e-3, Math.abs(withPass.metrics[k]!)));
      }
      expect(withPass.metrics['kl']).toBeGreaterThan(0);
      // The accumulated gradients agree to float rounding (relative to the largest entry of each tensor).
      expect(a.gradient.size).toBeGreaterThan(0);
      for (const [name, ga] of a.gradient) {
        const gb = b.gradient.get(name)!;
        const scale = gb.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
        for (let i = 0; i < ga.length; i++) expect(Math.abs(ga[i]! - gb[i]!)).toBeLessThanOrEqual(1e-5 * scale + 1e-9);
      }
    } finally {
      await a.policy.dispose();
      await b.policy.dispose();
    }
  });

  it('guided rollouts (rollout.guidedDecoding "always"): the sampled tokens are scored under the model, not taken at their nudged log-probs', async () => {
    const a = await trainable();
    const b = await trainable();
    try {
      const prompt = [1, 20, 30, 40];
      const gens = await a.policy.generate([0, 1, 2, 3].map(() => ({ prompt, maxNewTokens: 6, temperature: 1, topP: 1 })), new Rng(4));
      // As a guide that forced every token would report them: log-prob 0.
      const episodes: Episode[] = gens.map((g) => ({
        group: 0, question: 'q', tokens: [...prompt, ...g.tokens], mask: [...prompt.map(() => 0), ...g.tokens.map(() => 1)],
        samplingLogprobs: [...prompt.map(() => 0), ...g.tokens.map(() => 0)], promptLength: prompt.length, turns: [], rewardComponents: {},
        finished: true, truncatedByTokens: false, correct: false, generatedTokens: g.tokens.length,
      }));
      const advantages = [1.2, -0.4, 0.3, -1.1];
      // Without sampler correction, so that the two paths compare (its weights are tested in sampler-correction.test.ts).
      const guided = resolveTrainConfig({ ...config, rollout: { ...config.rollout, guidedDecoding: 'always' }, grpo: { ...config.grpo, loss: { ...config.grpo.loss, samplerCorrection: 'none' } } });
      const before = a.passes();
      const fromGuided = await grpoUpdate(a.policy, a.optimizer, episodes, new Map(episodes.map((e, i) => [e, advantages[i]!] as const)), guided, 1e-2);
      expect(a.passes() - before).toBe(1);
      const stripped = episodes.map(({ samplingLogprobs: _, ...e }) => e as Episode);
      const scoredPath = await grpoUpdate(b.policy, b.optimizer, stripped, new Map(stripped.map((e, i) => [e, advantages[i]!] as const)), config, 1e-2);
      for (const k of ['loss', 'kl', 'entropy', 'grad_norm']) expect(fromGuided.metrics[k]).toBeCloseTo(scoredPath.metrics[k]!, 6);
      // The KL is the model's to its reference, not the nudged distribution's (log-prob 0 everywhere) to it.
      expect(fromGuided.metrics['kl']).toBeLessThan(1);
      // The gap to the sampler's log-probs (0 here) is reported: the mean of −log π over trained tokens.
      expect(fromGuided.metrics['sampling/sampling_logp_difference/mean']).toBeGreaterThan(0);
    } finally {
      await a.policy.dispose();
      await b.policy.dispose();
    }
  });
});
