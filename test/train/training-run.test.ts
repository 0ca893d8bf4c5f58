import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunMetrics, runTraining } from '../../src/train/training-run.js';
import { isDocumentedMetric } from '../../src/train/metrics/metric-fields.js';
import { letterSetup } from './fixtures/letter-run.js';
import { scriptedAgentData } from '../../src/train/sft/sft-data.js';
import { useTempDirs } from '../helpers/temp-dirs.js';
import { BigramPolicy, VOCAB } from './fixtures/bigram-policy.js';
import { LetterEnv } from './fixtures/letter-env.js';
import type { GenerateRequest, GenerateResult, TokenScores } from '../../src/train/policy/trainable-policy.js';
import type { Rng } from '../../src/base/rng.js';

/** Bigram logits favouring 'a' (token 4), so some one-token groups have reward variance. */
const favourA = (i: number): number => (i % VOCAB === 4 ? 1.5 : 0);

/** Records how many sequences each backward call gets. */
class CountingBigram extends BigramPolicy {
  readonly backwardSizes: number[] = [];
  override async backward(sequences: readonly (readonly number[])[], w: readonly Float64Array[], e?: readonly Float64Array[], options?: { scores?: { entropy?: boolean } }): Promise<TokenScores[] | void> {
    this.backwardSizes.push(sequences.length);
    return super.backward(sequences, w, e, options);
  }
}

/** Poisons the first training step: a NaN gradient entry, or a NaN token log-prob (→ NaN loss). */
class NanBigram extends BigramPolicy {
  backwardCalls = 0;
  private scored = false;
  constructor(private readonly where: 'gradient' | 'loss' | 'none') {
    super();
  }
  override async score(sequences: readonly (readonly number[])[], options: { reference?: boolean; entropy?: boolean } = {}): Promise<TokenScores[]> {
    const out = await super.score(sequences, options);
    if (this.where === 'loss' && !options.reference && !this.scored) {
      this.scored = true;
      const first = out[0]!.logprobs;
      first[first.length - 1] = Number.NaN; // the last token is generated, so it is in the loss
    }
    return out;
  }
  // μ = 1 takes the current log-probs from sampling: the first generated log-prob is poisoned there too.
  override async generate(requests: readonly GenerateRequest[], rng: Rng): Promise<GenerateResult[]> {
    const out = await super.generate(requests, rng);
    // Every generation before the first update: evaluations may sample before the training step does.
    if (this.where === 'loss' && this.backwardCalls === 0) {
      const first = out[0]!.logprobs;
      first[first.length - 1] = Number.NaN;
    }
    return out;
  }
  override async backward(sequences: readonly (readonly number[])[], w: readonly Float64Array[], e?: readonly Float64Array[], options?: { scores?: { entropy?: boolean } }): Promise<TokenScores[] | void> {
    this.backwardCalls++;
    const scores = await super.backward(sequences, w, e, options);
    if (this.where === 'gradient' && this.backwardCalls === 1) this.parameters()[0]!.grad[7] = Number.NaN;
    return scores;
  }
}

const tempRun = useTempDirs('sqlenv-train-');

describe('runTraining (GRPO on a toy env with an exact bigram policy)', () => {
  it('raises the train reward, writes documented metrics, traces, checkpoints and the dashboard', async () => {
    const runDir = tempRun();
    const lines: string[] = [];
    const summary = await runTraining(letterSetup(runDir, {}, lines));
    expect(summary.grpoSteps).toBe(12);
    expect(summary.lastReward!).toBeGreaterThan(summary.firstReward! + 0.2);
    expect(summary.evaluations['final']!['eval']!.success).toBeGreaterThan(summary.evaluations['untrained']!['eval']!.success);

    const records = await readRunMetrics(runDir);
    const train = records.filter((r) => r.kind === 'train');
    expect(train.map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    for (const r of records) {
      for (const key of Object.keys(r)) expect(isDocumentedMetric(key), `undocumented metric field ${key}`).toBe(true);
    }
    for (const field of ['reward', 'frac_reward_zero_std', 'kl', 'entropy', 'clip_ratio/region_mean', 'grad_norm', 'completions/mean_length', 'tools/failure_frequency']) {
      expect(train[0]![field], field).toBeTypeOf('number');
    }
    expect(records.filter((r) => r.kind === 'trace').length).toBeGreaterThanOrEqual(24);
    expect(records.some((r) => r.kind === 'eval' && r.label === 'grpo')).toBe(true);
    // Every evaluation names its decoding: unguided by default (the letter task has no guide anyway).
    const evals = records.filter((r) => r.kind === 'eval');
    expect(evals.every((r) => r['decoding'] === 'unguided' && !('unguided_success' in r))).toBe(true);
    expect(summary.evaluations['final']!['eval']!.decoding).toBe('unguided');
    expect(lines.some((l) => l.startsWith('eval [final, unguided] '))).toBe(true);
    // The sampler was the policy itself: its log-probs are π's (to float rounding), and no weight applies.
    expect(train[0]!['sampling/sampling_logp_difference/max']).toBeLessThan(1e-4);
    expect(train[0]!['sampling/importance_sampling_ratio/mean']).toBe(1);
    expect(lines.some((l) => /^grpo step 12\/12 \| reward/.test(l))).toBe(true);
    const html = await readFile(join(runDir, 'dashboard.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect((await stat(join(runDir, 'plots', 'reward.svg'))).size).toBeGreaterThan(500);
    expect((await stat(join(runDir, 'checkpoints', 'step-000012', 'manifest.json'))).isFile()).toBe(true);
  });

  it('prints the small-group guard for K = 2 with the dead-group rate', async () => {
    const runDir = tempRun();
    const lines: string[] = [];
    await runTraining(letterSetup(runDir, { grpo: { steps: 1 }, rollout: { numGenerations: 2, questionsPerStep: 2, maxTurns: 2, maxNewTokensPerTurn: 3, maxTotalTokens: 48 }, eval: { episodes: 2, baselineEpisodes: 4 } }, lines));
    const warning = lines.find((l) => l.startsWith('WARNING: group size K = 2'));
    expect(warning).toBeDefined();
    expect(warning).toMatch(/±1/);
    expect(warning).toMatch(/p\^K \+ \(1−p\)\^K = \d+\.\d%/);
    const events = (await readRunMetrics(runDir)).filter((r) => r.kind === 'event' && r.event === 'small_group_warning');
    expect(events).toHaveLength(1);
  });

  it('SFT warm-up on oracle trajectories lowers the loss and runs the format check', async () => {
    const runDir = tempRun();
    const lines: string[] = [];
    const summary = await runTraining(letterSetup(runDir, { mode: 'sft', eval: { episodes: 4 } }, lines));
    const sft = (await readRunMetrics(runDir)).filter((r) => r.kind === 'sft');
    expect(sft.length).toBe(summary.sftSteps);
    expect(sft[sft.length - 1]!.loss as number).toBeLessThan((sft[0]!.loss as number) * 0.7);
    expect(summary.formatCheck.before).toBeDefined();
    expect(summary.formatCheck.after).toBeDefined();
    expect(summary.evaluations['sft']!['eval']!.success).toBeGreaterThan(summary.evaluations['untrained']!['eval']!.success);
    expect(summary.grpoSteps).toBe(0);
  });

  it('SFT with early stopping validates every epoch, stops when validation stops rising and keeps the best weights', async () => {
    const runDir = tempRun();
    const lines: string[] = [];
    const episodes = 8;
    const setup = letterSetup(runDir, { mode: 'sft', env: { trainSplit: 'train', evalSplits: ['eval'], validationSplits: ['validation'] }, sft: { epochs: 30, batchSize: 4, lr: 0.3, formatCheckSamples: 2, validationEpisodes: episodes, patience: 1 }, eval: { episodes, untrained: false } }, lines);
    const policy = new BigramPolicy();
    const loads: number[] = [];
    const load = policy.loadParameters.bind(policy);
    policy.loadParameters = async (values) => {
      loads.push(values.size);
      return load(values);
    };
    setup.policy = policy;
    const played: Record<string, number> = {};
    setup.makeEnv = (split) => {
      const env = new LetterEnv(2);
      const reset = env.reset.bind(env);
      env.reset = async (options) => {
        played[split] = (played[split] ?? 0) + 1;
        return reset(options);
      };
      return env;
    };
    const summary = await runTraining(setup);
    const events = (await readRunMetrics(runDir)).filter((r) => r.kind === 'event' && r.event === 'sft_validation');
    const values = events.map((e) => e.value as number);
    // The post-SFT evaluation takes the kept epoch's validation episodes instead of playing them
    // again (the same questions, greedy, the same weights); the final one plays them afresh and,
    // with no GRPO in between, scores the same.
    expect(played['validation']).toBe(values.length * episodes + episodes);
    expect(summary.evaluations['final']!['validation']!.success).toBe(summary.evaluations['sft']!['validation']!.success);
    // Per-question results, for the verdict's paired test: the same questions in order, the same answers.
    const correct = summary.evaluations['sft']!['validation']!.correct!;
    expect(correct).toHaveLength(episodes);
    expect(correct.filter(Boolean).length / episodes).toBeCloseTo(summary.evaluations['sft']!['validation']!.success, 12);
    expect(summary.evaluations['final']!['validation']!.correct).toEqual(correct);
    // It stopped long before 30 epochs: one epoch without a rise after the best one.
    expect(values.length).toBeGreaterThanOrEqual(2);
    expect(values.length).toBeLessThan(30);
    const best = Math.max(...values);
    const bestEpoch = values.indexOf(best) + 1;
    expect(values.length).toBe(bestEpoch + 1);
    expect(values.at(-1)!).toBeLessThanOrEqual(best);
    expect(summary.sftSteps).toBe(values.length * 5); // 20 questions / batch 4 per epoch
    // The best epoch's weights are back: loaded once, and the post-SFT validation success is the best one.
    expect(loads).toHaveLength(1);
    expect(lines.join('\n')).toContain(`kept epoch ${bestEpoch}'s weights`);
    expect(summary.evaluations['sft']!['validation']!.success).toBeCloseTo(best, 12);
    // eval.untrained false: no evaluation before training.
    expect(summary.evaluations['untrained']).toBeUndefined();
  });

  it('SFT with sft.minEpochs validates only from that epoch on, and only on sft.validationSplits', async () => {
    const runDir = tempRun();
    const episodes = 8;
    const env = { trainSplit: 'train', evalSplits: ['eval'], validationSplits: ['validation', 'validation_b'] };
    const setup = letterSetup(runDir, { mode: 'sft', env, sft: { epochs: 6, batchSize: 4, lr: 0.3, formatCheckSamples: 2, validationEpisodes: episodes, validationSplits: ['validation'], patience: 1, minEpochs: 4 }, eval: { episodes, untrained: false } }, []);
    const summary = await runTraining(setup);
    const events = (await readRunMetrics(runDir)).filter((r) => r.kind === 'event' && r.event === 'sft_validation');
    // Epochs 1-3 train without validation; the first validation follows epoch 4 (5 steps an epoch).
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events[0]!.step).toBe(4 * 5);
    expect(String(events[0]!.message)).toMatch(/^SFT epoch 4: validation success \(unguided\) validation \d+\.\d% \(mean/);
    // The post-SFT evaluation still covers every validation split.
    expect(Object.keys(summary.evaluations['sft']!)).toEqual(['validation', 'validation_b', 'eval']);
    expect(summary.sftSteps).toBeGreaterThanOrEqual(4 * 5);
  });

  it('refuses SFT with no usable trajectory, saying how many were dropped and why', async () => {
    const runDir = tempRun();
    const lines: string[] = [];
    const setup = letterSetup(runDir, { mode: 'sft', eval: { episodes: 1 } }, lines);
    // A scripted agent that never solves the task: every trajectory is dropped.
    setup.sftData = scriptedAgentData(() => ({ act: () => 'bbb' }));
    await expect(runTraining(setup)).rejects.toThrow(/SFT has no trajectory to learn from: \d+ not solved by the scripted agent/);
    expect(lines.join('\n')).toMatch(/SFT: 0 correct scripted trajectories from 20 played; dropped 20 not solved/);
  });

  it('refuses a mode with SFT when the setup builds no SFT data, saying what to give', async () => {
    const setup = letterSetup(tempRun(), { mode: 'sft', eval: { episodes: 1 } });
    delete setup.sftData;
    await expect(runTraining(setup)).rejects.toThrow(/builds no SFT data: give it sftData \(scriptedAgentData/);
  });

  // rewardMode final + 1-token turns make many groups all-equal.
  const oneTokenTurns = { numGenerations: 4, questionsPerStep: 3, maxTurns: 1, maxNewTokensPerTurn: 1, maxTotalTokens: 48 };

  it("drops zero-variance groups from the loss with zeroVariance 'drop' (no resampling)", async () => {
    const runDir = tempRun();
    const setup = letterSetup(runDir, { grpo: { steps: 2, zeroVariance: 'drop', rewardMode: 'final' }, eval: { episodes: 2 }, rollout: oneTokenTurns });
    const policy = new CountingBigram(favourA);
    await runTraining({ ...setup, policy });
    const train = (await readRunMetrics(runDir)).filter((r) => r.kind === 'train');
    expect(train).toHaveLength(2);
    for (const r of train) {
      expect(r['resample_rounds']).toBe(0);
      // Every zero-variance group of the (only) round is dropped, none other.
      expect(r['groups_dropped']).toBe(Math.round((r['frac_reward_zero_std'] as number) * 3));
    }
    expect(train.some((r) => (r['groups_dropped'] as number) > 0)).toBe(true);
    // The backward saw only the kept groups' episodes.
    const kept = train.map((r) => (3 - (r['groups_dropped'] as number)) * 4).filter((n) => n > 0);
    expect(policy.backwardSizes).toEqual(kept);
  });

  it("resamples zero-variance groups with zeroVariance 'dynamic_sampling' until the batch is full", async () => {
    const runDir = tempRun();
    const setup = letterSetup(runDir, { grpo: { steps: 2, zeroVariance: 'dynamic_sampling', maxResampleRounds: 20, rewardMode: 'final' }, eval: { episodes: 2 }, rollout: oneTokenTurns });
    const policy = new CountingBigram(favourA);
    await runTraining({ ...setup, policy });
    const train = (await readRunMetrics(runDir)).filter((r) => r.kind === 'train');
    expect(train).toHaveLength(2);
    expect(train.some((r) => (r['resample_rounds'] as number) > 0)).toBe(true);
    expect(train.some((r) => (r['groups_dropped'] as number) > 0)).toBe(true);
    // Every step trained on a full batch: questionsPerStep × K = 3 × 4 episodes.
    expect(policy.backwardSizes).toEqual([12, 12]);
  });

  for (const where of ['gradient', 'loss'] as const) {
    it(`skips the optimizer step on a NaN ${where}: weights unchanged, skipped: 1 and nan_skip logged`, async () => {
      const runDir = tempRun();
      const setup = letterSetup(runDir, { grpo: { steps: 1, loss: { beta: 0 } }, rollout: { numGenerations: 4, questionsPerStep: 2, maxTurns: 2, maxNewTokensPerTurn: 4, maxTotalTokens: 48, maskTruncated: false }, eval: { everySteps: 0, episodes: 1, baselineEpisodes: 0 } });
      const policy = new NanBigram(where);
      const before = policy.parameters()[0]!.value.slice();
      const summary = await runTraining({ ...setup, policy });
      expect(summary.grpoSteps).toBe(1);
      expect(policy.backwardCalls).toBe(1);
      expect(Array.from(policy.parameters()[0]!.value)).toEqual(Array.from(before));
      const records = await readRunMetrics(runDir);
      const train = records.filter((r) => r.kind === 'train');
      expect(train).toHaveLength(1);
      expect(train[0]!['skipped']).toBe(1);
      expect(records.some((r) => r.kind === 'event' && r.event === 'nan_skip' && r.step === 1)).toBe(true);
    });
  }
  it('a finite step is not skipped and moves the weights (control for the NaN tests)', async () => {
    const runDir = tempRun();
    const setup = letterSetup(runDir, { grpo: { steps: 1, loss: { beta: 0 } }, rollout: { numGenerations: 4, questionsPerStep: 2, maxTurns: 2, maxNewTokensPerTurn: 4, maxTotalTokens: 48, maskTruncated: false }, eval: { everySteps: 0, episodes: 1, baselineEpisodes: 0 } });
    const policy = new NanBigram('none');
    const before = policy.parameters()[0]!.value.slice();
    await runTraining({ ...setup, policy });
    expect(Array.from(policy.parameters()[0]!.value)).not.toEqual(Array.from(before));
    expect((await readRunMetrics(runDir)).find((r) => r.kind === 'train')!['skipped']).toBe(0);
  });

  it('held-out evaluation draws from its own random stream: evaluating more splits, sampled or none, trains the same run', async () => {
    const trainOf = async (overrides: Record<string, unknown>) => {
      const runDir = tempRun();
      const base = { mode: 'sft+grpo', grpo: { steps: 4, loss: { beta: 0.01 } }, sft: { epochs: 2, batchSize: 4, lr: 0.3, formatCheckSamples: 4 } };
      const policy = new BigramPolicy();
      await runTraining({ ...letterSetup(runDir, { ...base, ...overrides }), policy });
      const train = (await readRunMetrics(runDir)).filter((r) => r.kind === 'train' || r.kind === 'sft');
      return { metrics: train.map((r) => [r['reward'], r['kl'], r['loss']]), weights: Array.from(policy.parameters()[0]!.value) };
    };
    const none = await trainOf({ env: { trainSplit: 'train', evalSplits: [], validationSplits: [] }, eval: { everySteps: 0, episodes: 1, untrained: false } });
    // Sampled pass@K evaluations (temperature 1) after SFT, at every second GRPO step and at the end.
    const many = await trainOf({ env: { trainSplit: 'train', evalSplits: ['eval'], validationSplits: ['validation'] }, eval: { everySteps: 2, episodes: 6, samples: 4, sampledQuestions: 3 } });
    expect(many.metrics.length).toBeGreaterThan(4);
    expect(many.metrics).toEqual(none.metrics);
    expect(many.weights).toEqual(none.weights);
  });
});
