/**
 * One GRPO step on the letter env with the exact bigram policy, with the policy wrapped so the
 * test sees every score and backward call: μ-iterations, overlong masking, gradient
 * accumulation, zero-variance handling, Dr. GRPO's constant normaliser, the entropy bonus and
 * the per-component reward std.
 */
import { describe, expect, it } from 'vitest';
import type { Rng as RngType } from '../../src/base/rng.js';
import { Rng } from '../../src/base/rng.js';
import { resolveTrainConfig } from '../../src/train/config/load-config.js';
import { grpoStep, type GrpoStepResult } from '../../src/train/grpo/grpo-step.js';
import { completionTokenBudget } from '../../src/train/grpo/grpo-update.js';
import { standardDeviation } from '../../src/train/math/advantages.js';
import { turnAdvantages } from '../../src/train/math/turn-advantages.js';
import { policyLoss } from '../../src/train/math/policy-loss.js';
import type { AdamWOptions, PolicyOptimizer } from '../../src/train/optim/policy-optimizer.js';
import type { GenerateRequest, GenerateResult, ParameterValue, TokenScores, TrainablePolicy } from '../../src/train/policy/trainable-policy.js';
import { EnvPool } from '../../src/train/rollout/env-pool.js';
import { BigramPolicy, EOT, VOCAB } from './fixtures/bigram-policy.js';
import type { HostParameter } from './fixtures/host-optimizer.js';
import { LetterEnv, letterTask } from './fixtures/letter-env.js';

const A = 4; // token id of 'a' in the bigram fixture's charset (offset 3 + index 1)

/** Records every call the trainer makes; optionally drops entropies or injects NaN. */
class RecordingPolicy implements TrainablePolicy {
  readonly scores: { sequences: number[][]; reference: boolean; temperature?: number; result: TokenScores[] }[] = [];
  readonly backwards: { sequences: number[][]; weights: Float64Array[]; entropyWeights?: Float64Array[]; temperature?: number }[] = [];
  constructor(
    readonly inner: BigramPolicy,
    private readonly options: { noEntropies?: boolean; noSamplingLogprobs?: boolean } = {},
  ) {}
  get codec() {
    return this.inner.codec;
  }
  async generate(requests: readonly GenerateRequest[], rng: RngType): Promise<GenerateResult[]> {
    const out = await this.inner.generate(requests, rng);
    return this.options.noSamplingLogprobs ? out.map((g) => ({ ...g, logprobs: [] })) : out;
  }
  async score(sequences: readonly (readonly number[])[], options: { reference?: boolean; entropy?: boolean; temperature?: number } = {}): Promise<TokenScores[]> {
    let result = await this.inner.score(sequences, options);
    if (this.options.noEntropies) result = result.map((s) => ({ logprobs: s.logprobs }));
    this.scores.push({ sequences: sequences.map((s) => [...s]), reference: options.reference ?? false, ...(options.temperature !== undefined ? { temperature: options.temperature } : {}), result });
    return result;
  }
  async backward(sequences: readonly (readonly number[])[], weights: readonly Float64Array[], entropyWeights?: readonly Float64Array[], options?: { scores?: { entropy?: boolean }; temperature?: number }): Promise<TokenScores[] | void> {
    this.backwards.push({
      sequences: sequences.map((s) => [...s]),
      weights: weights.map((w) => w.slice()),
      ...(entropyWeights ? { entropyWeights: entropyWeights.map((w) => w.slice()) } : {}),
      ...(options?.temperature !== undefined ? { temperature: options.temperature } : {}),
    });
    const scores = await this.inner.backward(sequences, weights, entropyWeights, options);
    return scores && this.options.noEntropies ? scores.map((s) => ({ logprobs: s.logprobs })) : scores;
  }
  parameters(): HostParameter[] {
    return this.inner.parameters();
  }
  createOptimizer(options: AdamWOptions): Promise<PolicyOptimizer> {
    return this.inner.createOptimizer(options);
  }
  parameterCount(): number {
    return this.inner.parameterCount();
  }
  readParameters(): Promise<Map<string, ParameterValue>> {
    return this.inner.readParameters();
  }
  loadParameters(values: ReadonlyMap<string, { readonly data: Float32Array }>): Promise<void> {
    return this.inner.loadParameters(values);
  }
  freezeReference(): Promise<void> {
    return this.inner.freezeReference();
  }
  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}

/** Bigram logits that make EOT and 'a' likely, so episodes vary in length and reward. */
const biased = (eot: number, a: number) => (i: number) => (i % VOCAB === EOT ? eot : i % VOCAB === A ? a : 0);

async function runStep(
  overrides: Record<string, unknown>,
  options: { init?: (i: number) => number; seed?: number; lr?: number; noEntropies?: boolean; noSamplingLogprobs?: boolean } = {},
): Promise<{ result: GrpoStepResult; policy: RecordingPolicy; config: ReturnType<typeof resolveTrainConfig> }> {
  const base = {
    mode: 'grpo',
    runDir: '/tmp/unused',
    rollout: { numGenerations: 4, questionsPerStep: 3, maxTurns: 2, maxNewTokensPerTurn: 4, maxTotalTokens: 48 },
    grpo: { loss: { beta: 0 } },
    optim: { lr: 0.5, warmupSteps: 0 },
  };
  const config = resolveTrainConfig({
    ...base,
    ...overrides,
    rollout: { ...base.rollout, ...(overrides['rollout'] as object | undefined) },
    grpo: { ...base.grpo, ...(overrides['grpo'] as object | undefined), loss: { ...base.grpo.loss, ...((overrides['grpo'] as { loss?: object } | undefined)?.loss ?? {}) } },
  });
  const policy = new RecordingPolicy(new BigramPolicy(options.init ?? biased(1.5, 1.5)), { noEntropies: options.noEntropies ?? false, noSamplingLogprobs: options.noSamplingLogprobs ?? false });
  const optimizer = await policy.createOptimizer({ beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 });
  const pool = new EnvPool(() => new LetterEnv(2));
  try {
    const result = await grpoStep({ policy, task: letterTask, pool, questionCount: 20, config, optimizer, rng: new Rng(options.seed ?? 5) }, options.lr ?? 0.5);
    return { result, policy, config };
  } finally {
    await pool.close();
  }
}

const policyScores = (p: RecordingPolicy) => p.scores.filter((s) => !s.reference);
const sumAbs = (w: ArrayLike<number>) => Array.from(w).reduce((a, v) => a + Math.abs(v), 0);

describe('rollout.temperature in the update', () => {
  it('scores the policy, the old policy and the reference at the sampling temperature, and differentiates log π_T', async () => {
    const { result, policy } = await runStep({ rollout: { temperature: 0.5, maskTruncated: false }, grpo: { muIterations: 2, loss: { beta: 0.1 } } });
    expect(policy.scores.length).toBeGreaterThanOrEqual(3); // reference + one per μ-iteration
    for (const call of [...policy.scores, ...policy.backwards]) expect(call.temperature).toBe(0.5);
    // The first μ-iteration's policy scores are the sampling-time log-probs (both at T): the ratios are 1 there.
    const trained = result.episodes.filter((e) => e.advantage !== undefined);
    const first = policyScores(policy)[0]!;
    trained.forEach((e, i) =>
      e.episode.mask.forEach((m, t) => {
        if (m > 0) expect(first.result[i]!.logprobs[t]!).toBeCloseTo(e.episode.samplingLogprobs![t]!, 5);
      }),
    );
  });
});

describe('grpo.muIterations', () => {
  it('μ = 2: the second pass scores the updated policy against the stored old log-probs, and clipping engages', async () => {
    const { result, policy } = await runStep({ grpo: { muIterations: 2 }, rollout: { maskTruncated: false } });
    const passes = policyScores(policy);
    expect(passes).toHaveLength(2);
    expect(policy.backwards).toHaveLength(2);
    const [first, second] = passes as [typeof passes[0], typeof passes[0]];
    expect(second.sequences).toEqual(first.sequences);
    // The first update moved the policy: ratios ≠ 1 on the second pass.
    let maxLogRatio = 0;
    second.result.forEach((s, i) => s.logprobs.forEach((lp, t) => (maxLogRatio = Math.max(maxLogRatio, Math.abs(lp - first.result[i]!.logprobs[t]!)))));
    expect(maxLogRatio).toBeGreaterThan(0.3);

    // Recompute the second pass's loss by hand: current = pass 2, old = pass 1 (not pass 2 again).
    const trained = result.episodes.filter((e) => e.advantage !== undefined);
    expect(trained.map((e) => e.episode.tokens)).toEqual(second.sequences);
    const input = (old: TokenScores[]) =>
      trained.map((e, i) => ({ logprobs: second.result[i]!.logprobs, oldLogprobs: old[i]!.logprobs, mask: e.episode.mask, advantage: e.advantage! }));
    const options = { epsilonLow: 0.2, epsilonHigh: 0.28, aggregation: 'token_mean' as const, maxCompletionTokens: 8 };
    const expected = policyLoss(input(first.result), options);
    expect(result.metrics['loss']).toBeCloseTo(expected.loss, 6);
    expect(result.metrics['loss']).not.toBeCloseTo(policyLoss(input(second.result), options).loss, 3);
    expect(result.metrics['clip_ratio/region_mean']).toBeGreaterThan(0);
    expect(result.metrics['clip_ratio/region_mean']).toBeCloseTo(expected.metrics.clipRatioRegion, 12);
    // The second backward carries exactly those gradients (zero where clipped).
    policy.backwards[1]!.weights.forEach((w, i) => w.forEach((v, t) => expect(v).toBeCloseTo(expected.logprobGrads[i]![t]!, 9)));
  });

  it('μ = 1 runs no scoring pass (the sampling log-probs are old and current), and updates exactly as with one', async () => {
    const { result, policy } = await runStep({ rollout: { maskTruncated: false } });
    expect(policyScores(policy)).toHaveLength(0);
    expect(policy.backwards).toHaveLength(1);
    expect(result.metrics['clip_ratio/region_mean']).toBe(0);
    // The same step without sampling log-probs (a backend that reports none) scores once first.
    const withPass = await runStep({ rollout: { maskTruncated: false } }, { noSamplingLogprobs: true });
    expect(policyScores(withPass.policy)).toHaveLength(1);
    expect(withPass.result.episodes.map((e) => e.episode.tokens)).toEqual(result.episodes.map((e) => e.episode.tokens));
    expect(policy.backwards[0]!.weights).toEqual(withPass.policy.backwards[0]!.weights);
    for (const k of ['loss', 'kl', 'entropy', 'grad_norm', 'clip_ratio/region_mean']) expect(result.metrics[k]).toBeCloseTo(withPass.result.metrics[k]!, 12);
    expect(Array.from(policy.parameters()[0]!.value)).toEqual(Array.from(withPass.policy.parameters()[0]!.value));
  });
});

describe('rollout.maskTruncated', () => {
  // 16 tokens: a 3-token prompt + a first turn of ≥ 10 tokens + a 3-token tool response reach it.
  const rollout = { maxTurns: 2, maxNewTokensPerTurn: 12, maxTotalTokens: 16 };

  it('true: episodes cut by the token limit get zero loss weight; the others train', async () => {
    const { result, policy } = await runStep({ rollout: { ...rollout, maskTruncated: true } });
    const eps = result.episodes;
    expect(eps.some((e) => e.episode.truncatedByTokens)).toBe(true);
    expect(eps.some((e) => !e.episode.truncatedByTokens && e.advantage !== 0)).toBe(true);
    const [call] = policy.backwards;
    eps.forEach((e, i) => {
      const w = sumAbs(call!.weights[i]!);
      if (e.episode.truncatedByTokens) expect(w, `truncated episode ${i}`).toBe(0);
      else if (e.advantage !== 0) expect(w, `complete episode ${i}`).toBeGreaterThan(0);
    });
  });

  it('false: truncated episodes are trained on like the others', async () => {
    const { result, policy } = await runStep({ rollout: { ...rollout, maskTruncated: false } });
    const [call] = policy.backwards;
    const truncated = result.episodes.map((e, i) => ({ e, i })).filter(({ e }) => e.episode.truncatedByTokens && e.advantage !== 0);
    expect(truncated.length).toBeGreaterThan(0);
    for (const { i } of truncated) expect(sumAbs(call!.weights[i]!)).toBeGreaterThan(0);
  });
});

describe('optim.gradAccumulation', () => {
  it('2 micro-batches give the same gradient and update as one batch of both', async () => {
    const one = await runStep({ optim: { lr: 0.5, warmupSteps: 0, gradAccumulation: 1 } });
    const two = await runStep({ optim: { lr: 0.5, warmupSteps: 0, gradAccumulation: 2 } });
    // Same samples (backward does not touch the RNG) …
    expect(two.result.episodes.map((e) => e.episode.tokens)).toEqual(one.result.episodes.map((e) => e.episode.tokens));
    // … split in two backward calls of 6 and 6 sequences instead of one of 12.
    expect(one.policy.backwards.map((b) => b.sequences.length)).toEqual([12]);
    expect(two.policy.backwards.map((b) => b.sequences.length)).toEqual([6, 6]);
    expect(two.result.metrics['grad_norm']).toBeCloseTo(one.result.metrics['grad_norm']!, 5);
    const [p1] = one.policy.parameters();
    const [p2] = two.policy.parameters();
    let maxGrad = 0;
    for (let i = 0; i < p1!.grad.length; i++) {
      expect(Math.abs(p2!.grad[i]! - p1!.grad[i]!)).toBeLessThan(1e-6);
      maxGrad = Math.max(maxGrad, Math.abs(p1!.grad[i]!));
    }
    expect(maxGrad).toBeGreaterThan(1e-3);
    const initial = new BigramPolicy(biased(1.5, 1.5)).parameters()[0]!.value;
    let moved = 0;
    for (let i = 0; i < p1!.value.length; i++) {
      expect(Math.abs(p2!.value[i]! - p1!.value[i]!)).toBeLessThan(1e-5);
      if (p1!.value[i] !== initial[i]) moved++;
    }
    expect(moved).toBeGreaterThan(0);
  });
});

describe('grpo.zeroVariance', () => {
  // One 1-token turn, final reward: 1 for 'a', else 0 — many groups are all-equal.
  const rollout = { numGenerations: 4, questionsPerStep: 4, maxTurns: 1, maxNewTokensPerTurn: 1 };
  const init = biased(0, 1.5);

  it("'drop' excludes zero-variance groups from the loss without resampling", async () => {
    const { result, policy, config } = await runStep({ rollout, grpo: { zeroVariance: 'drop', rewardMode: 'final' } }, { init });
    const k = config.rollout.numGenerations;
    const groups = Array.from({ length: config.rollout.questionsPerStep }, (_, g) => result.episodes.slice(g * k, (g + 1) * k));
    const flat = groups.filter((g) => g.every((e) => e.reward === g[0]!.reward));
    expect(flat.length).toBeGreaterThan(0);
    expect(flat.length).toBeLessThan(groups.length);
    expect(result.episodes).toHaveLength(config.rollout.questionsPerStep * k); // no resampling
    expect(result.metrics['resample_rounds']).toBe(0);
    expect(result.metrics['groups_dropped']).toBe(flat.length);
    expect(result.metrics['frac_reward_zero_std']).toBeCloseTo(flat.length / groups.length, 12);
    for (const g of groups) for (const e of g) expect(e.advantage === undefined).toBe(flat.includes(g));
    const trained = result.episodes.filter((e) => e.advantage !== undefined).map((e) => e.episode.tokens);
    expect(policy.backwards[0]!.sequences).toEqual(trained);
    expect(trained).toHaveLength((groups.length - flat.length) * k);
  });

  it("'keep' trains every group, zero-variance ones with advantage 0", async () => {
    const { result, policy } = await runStep({ rollout, grpo: { zeroVariance: 'keep', rewardMode: 'final' } }, { init });
    expect(result.metrics['groups_dropped']).toBe(0);
    expect(policy.backwards[0]!.sequences).toHaveLength(16);
    expect(result.episodes.every((e) => e.advantage !== undefined)).toBe(true);
  });

  it("'dynamic_sampling' resamples until the batch holds questionsPerStep informative groups", async () => {
    const { result, policy, config } = await runStep({ rollout, grpo: { zeroVariance: 'dynamic_sampling', rewardMode: 'final', maxResampleRounds: 20 } }, { init });
    const want = config.rollout.questionsPerStep * config.rollout.numGenerations;
    expect(result.metrics['frac_reward_zero_std']).toBeGreaterThan(0); // the first round had dead groups …
    expect(result.metrics['resample_rounds']).toBeGreaterThan(0); // … so it resampled …
    const trained = result.episodes.filter((e) => e.advantage !== undefined);
    expect(trained).toHaveLength(want); // … and filled the batch exactly
    expect(policy.backwards[0]!.sequences).toHaveLength(want);
    expect(result.metrics['groups_dropped']).toBe(result.episodes.length / config.rollout.numGenerations - config.rollout.questionsPerStep);
    // Every trained group has reward variance.
    for (let g = 0; g < trained.length; g += 4) expect(new Set(trained.slice(g, g + 4).map((e) => e.reward)).size).toBeGreaterThan(1);
  });
});

describe("grpo.loss.aggregation 'constant' (Dr. GRPO)", () => {
  it('the completion budget is maxTurns × maxNewTokensPerTurn', () => {
    expect(completionTokenBudget({ maxTurns: 6, maxNewTokensPerTurn: 96 })).toBe(576);
  });

  it('divides by (sequences in the batch) × (maxTurns × maxNewTokensPerTurn), not maxTotalTokens', async () => {
    // 3 questions × K = 4 → 12 sequences; budget 2 × 4 = 8 → every trainable token weighs −A/96.
    const { result, policy } = await runStep({ rollout: { maskTruncated: false, maxTotalTokens: 48 }, grpo: { loss: { aggregation: 'constant' } } });
    const [call] = policy.backwards;
    let loss = 0;
    result.episodes.forEach((e, i) => {
      const a = e.advantage!;
      e.episode.mask.forEach((m, t) => {
        expect(call!.weights[i]![t]).toBeCloseTo(m > 0 ? -a / 96 : 0, 12);
        if (m > 0) loss -= a / 96;
      });
    });
    expect(result.metrics['loss']).toBeCloseTo(loss, 9);
    expect(result.episodes.some((e) => e.advantage !== 0)).toBe(true);
  });
});

describe('grpo.loss.entropyCoef', () => {
  it('adds the entropy bonus: real entropies are logged and −coef × weight goes to the backward', async () => {
    const { result, policy } = await runStep({ rollout: { maskTruncated: false }, grpo: { loss: { entropyCoef: 0.1 } } });
    const [scores] = policyScores(policy);
    const [call] = policy.backwards;
    expect(call!.entropyWeights).toBeDefined();
    let sum = 0, count = 0;
    result.episodes.forEach((e, i) => e.episode.mask.forEach((m, t) => {
      if (m > 0) { sum += scores!.result[i]!.entropies![t]!; count++; }
      // token_mean: every trainable token weighs 1/count; the bonus is −0.1 per unit weight.
    }));
    result.episodes.forEach((e, i) => e.episode.mask.forEach((m, t) => expect(call!.entropyWeights![i]![t]).toBeCloseTo(m > 0 ? -0.1 / count : 0, 12)));
    expect(result.metrics['entropy']).toBeCloseTo(sum / count, 6);
  });

  it('refuses a bonus the backend cannot compute instead of silently ignoring it', async () => {
    await expect(runStep({ grpo: { loss: { entropyCoef: 0.1 } } }, { noEntropies: true })).rejects.toThrow(/entropyCoef is 0.1 but this policy backend returns no entropies/);
    // With the bonus off, such a backend still trains and logs the sampled-token estimate.
    const { result } = await runStep({}, { noEntropies: true });
    expect(result.metrics['entropy']).toBeGreaterThan(0);
  });
});

describe('reward_components_std/*', () => {
  it('logs the population std of each reward component over the step, next to its mean', async () => {
    const { result } = await runStep({});
    const letters = result.episodes.map((e) => e.episode.rewardComponents['letters'] ?? 0);
    expect(result.metrics['reward_components/letters']).toBeCloseTo(letters.reduce((a, b) => a + b, 0) / letters.length, 12);
    expect(result.metrics['reward_components_std/letters']).toBeCloseTo(standardDeviation(letters, 'population'), 12);
    expect(result.metrics['reward_components_std/letters']).toBeGreaterThan(0);
  });
});

describe("grpo.credit 'turn'", () => {
  // Two turns, each rewarded by its own share of 'a': turn-level credit scores each turn apart.
  it('every token of a turn is weighted by that turn\'s group-relative reward-to-go', async () => {
    const grpo = { credit: 'turn', turnDiscount: 0, advantage: { estimator: 'dr_grpo' } };
    const { result, policy, config } = await runStep({ grpo });
    const k = config.rollout.numGenerations;
    const groups = Array.from({ length: config.rollout.questionsPerStep }, (_, g) => result.episodes.slice(g * k, (g + 1) * k));
    const expected = turnAdvantages(groups.map((g) => g.map((e) => e.episode.turns.map((t) => t.reward))), { estimator: 'dr_grpo' }, { discount: 0 });
    const { weights } = policy.backwards[0]!;
    const trainedTokens = result.episodes.reduce((a, e) => a + e.episode.mask.filter((m) => m > 0).length, 0);
    let differingTurns = 0;
    result.episodes.forEach((scored, i) => {
      const perTurn = expected[Math.floor(i / k)]![i % k]!;
      expect(scored.turnAdvantages).toEqual(perTurn);
      if (perTurn.length > 1 && Math.abs(perTurn[0]! - perTurn[1]!) > 1e-9) differingTurns++;
      scored.episode.turns.forEach((turn, t) => {
        // token_mean, β 0, μ 1 (ratios 1): ∂loss/∂logprob = −advantage / trained tokens.
        for (let u = turn.tokenSpan[0]; u < turn.tokenSpan[1]; u++) expect(weights[i]![u]! * trainedTokens).toBeCloseTo(-perTurn[t]!, 9);
      });
    });
    expect(differingTurns).toBeGreaterThan(0); // the two turns of an episode really got different credit
  });

  it('γ 1 gives the first turn the episode-level advantage', async () => {
    const turn = await runStep({ grpo: { credit: 'turn', turnDiscount: 1 } });
    const episode = await runStep({ grpo: { credit: 'episode' } });
    expect(turn.result.episodes.map((e) => e.episode.tokens)).toEqual(episode.result.episodes.map((e) => e.episode.tokens));
    turn.result.episodes.forEach((e, i) => expect(e.turnAdvantages![0]).toBeCloseTo(episode.result.episodes[i]!.advantage!, 9));
  });
});
