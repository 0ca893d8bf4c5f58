/**
 * Trainer benchmarks: (1) the pure-TypeScript loss math against the model compute it feeds —
 * the trainer's own overhead per GRPO batch; (2) one GRPO step of the tiny ONNX model on
 * SQLEnv's smoke split, broken into rollout, scoring and backward, in tokens per second.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../envs/sql/index.js';
import { Rng } from '../src/base/rng.js';
import { computeAdvantages } from '../src/train/math/advantages.js';
import { policyLoss, type LossSequence } from '../src/train/math/policy-loss.js';
import { EnvPool } from '../src/train/rollout/env-pool.js';
import { rolloutEpisodes } from '../src/train/rollout/multi-turn-rollout.js';
import { resolveSqlTrainConfig, type SqlTrainConfig } from '../src/recipes/sql/sql-config.js';
import { createSqlTrainingSetup, type SqlTrainingResources } from '../src/recipes/sql/sql-training-setup.js';
import { turnAdvantages } from '../src/train/math/turn-advantages.js';
import { adamw, ResidentOptimizer, Runtime } from '../src/onnx/index.js';
import { adamwReferenceStep, clipReference } from '../src/onnx/optim/reference.js';
import type { SqlObservation } from '../envs/sql/observation/sql-observation.js';
import { sftLoss } from '../src/train/math/policy-loss.js';
import { applyPolicyUpdate } from '../src/train/grpo/policy-update.js';
import type { TrainingSetup } from '../src/train/run/run-types.js';
import { agentTrajectory, type SftSequence } from '../src/train/sft/oracle-trajectories.js';
import { paddingShare, sftBatches, sftStep } from '../src/train/sft/sft-epoch.js';
import { mdTable, timeIt, type BenchSection } from './harness.js';

/**
 * One optimizer step over `count` float32 values in `tensors` tensors: the resident apply graph
 * (clip + non-finite guard + AdamW in onnxruntime) against the former host path (the TypeScript
 * clip and AdamW loops the trainer ran before, kept as the graphs' reference), same process.
 */
async function optimizerSteps(count: number, tensors: number): Promise<{ resident: number; host: number }> {
  const size = Math.ceil(count / tensors);
  const rng = new Rng(1);
  const values = Array.from({ length: tensors }, () => Float32Array.from({ length: size }, () => rng.float() - 0.5));
  const runtime = await Runtime.create({ provider: 'cpu', log: () => undefined });
  try {
    const cfg = { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 };
    const opt = await ResidentOptimizer.create(runtime, values.map((data, i) => ({ name: `p${i}`, dims: [size], data })), adamw(cfg));
    const resident = await timeIt(() => opt.step(1e-4, 1), { warmup: 3, minMs: 1000, minIters: 5 });
    opt.close();
    const grads = values.map((v) => v.map((x) => x * 0.01));
    const m = values.map((v) => new Float32Array(v.length));
    const v2 = values.map((v) => new Float32Array(v.length));
    let t = 0;
    const host = await timeIt(() => {
      t++;
      clipReference(grads, 1);
      values.forEach((p, i) => adamwReferenceStep(p, grads[i]!, m[i]!, v2[i]!, t, 1e-4, cfg));
    }, { warmup: 3, minMs: 1000, minIters: 5 });
    return { resident: resident.mean, host: host.mean };
  } finally {
    await runtime.close();
  }
}

/**
 * The scripted agent's solved trajectories over the first `questions` questions of `split`: at most
 * `keep` of them, and none longer than `maxTokens`.
 */
async function oracleTrajectories({ setup, makeOracle }: SqlTrainingResources, config: SqlTrainConfig, split: string, limits: { questions: number; keep?: number; maxTokens?: number }): Promise<SftSequence[]> {
  const env = setup.makeEnv(split);
  const out: SftSequence[] = [];
  try {
    for (let i = 0; out.length < (limits.keep ?? Infinity) && i < limits.questions; i++) {
      const t = await agentTrajectory(env, makeOracle(), setup.task, setup.policy.codec, setup.task.episodeSpec!(i, split), config.env.stepBudget);
      if (t.correct && t.tokens.length <= (limits.maxTokens ?? Infinity)) out.push(t);
    }
  } finally {
    await env.close();
  }
  return out;
}

/**
 * SFT steps on the scripted agent's trajectories of the smoke split (as the demo's SFT runs them),
 * against the former step: a scoring pass over every row, then a backward pass over every row.
 */
async function sftSteps(resources: SqlTrainingResources, config: SqlTrainConfig): Promise<{ trajectories: number; tokens: number; oursMs: number; formerMs: number }> {
  const { setup } = resources;
  const batch = await oracleTrajectories(resources, config, 'smoke', { questions: 32, keep: 8 });
  const optimizer = await setup.policy.createOptimizer({ beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 });
  const options = { lr: 1e-5, maxGradNorm: 1, microBatches: 1 };
  const sequences = batch.map((s) => s.tokens);
  const former = async () => {
    const scores = await setup.policy.score(sequences);
    const r = sftLoss(batch.map((s, i) => ({ logprobs: scores[i]!.logprobs, mask: s.mask })));
    await applyPolicyUpdate(setup.policy, optimizer, sequences, r.logprobGrads, undefined, { loss: r.loss, ...options });
  };
  const mean = async (step: () => Promise<unknown>): Promise<number> => {
    await step(); // compiles the graphs of this shape
    const t = performance.now();
    for (let i = 0; i < 3; i++) await step();
    return (performance.now() - t) / 3;
  };
  const oursMs = await mean(() => sftStep(setup.policy, optimizer, batch, options));
  const formerMs = await mean(former);
  return { trajectories: batch.length, tokens: sequences.reduce((a, s) => a + s.length, 0), oursMs, formerMs };
}

/**
 * One SFT epoch over the scripted agent's trajectories of the first 128 easy `train` questions (the
 * demo's SFT data), batches of 8 in a seeded random order (the demo's SFT) against batches grouped
 * by length (`sft.groupByLength`) and against the random order on 2 threads (`model.threads` 2);
 * the three alternate twice, and each epoch's time counts only the steps.
 */
async function sftEpochs(base: SqlTrainConfig): Promise<{ trajectories: number; tokens: number; random: { ms: number; padding: number }; grouped: { ms: number; padding: number }; twoThreads: { ms: number; padding: number } }> {
  const config = resolveSqlTrainConfig({ ...base, env: { ...base.env, trainSplit: 'train' }, sql: { ...base.sql, trainDifficulties: ['easy'] } });
  const one = await createSqlTrainingSetup(config);
  const two = await createSqlTrainingSetup(resolveSqlTrainConfig({ ...config, model: { ...config.model, threads: 2 } }));
  try {
    const trajectories = await oracleTrajectories(one, config, 'train', { questions: 128, maxTokens: config.rollout.maxTotalTokens });
    const options = { lr: 1e-5, maxGradNorm: 1, microBatches: 1 };
    const epochOf = async (setup: TrainingSetup<SqlObservation>) => {
      const optimizer = await setup.policy.createOptimizer({ beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 });
      return async (groupByLength: boolean, seed: number) => {
        const batches = sftBatches(trajectories, 8, new Rng(seed), { groupByLength });
        const t = performance.now();
        for (const batch of batches) await sftStep(setup.policy, optimizer, batch, options);
        return { ms: performance.now() - t, padding: paddingShare(batches) };
      };
    };
    const [epoch, epochOnTwo] = [await epochOf(one.setup), await epochOf(two.setup)];
    await epoch(true, 0); // compiles the graphs of most shapes
    await epochOnTwo(true, 0);
    const runs = { random: [] as { ms: number; padding: number }[], grouped: [] as { ms: number; padding: number }[], twoThreads: [] as { ms: number; padding: number }[] };
    for (let rep = 1; rep <= 2; rep++) {
      runs.random.push(await epoch(false, rep));
      runs.grouped.push(await epoch(true, rep));
      runs.twoThreads.push(await epochOnTwo(false, rep));
    }
    const mean = (xs: { ms: number; padding: number }[]) => ({ ms: xs.reduce((a, x) => a + x.ms, 0) / xs.length, padding: xs.reduce((a, x) => a + x.padding, 0) / xs.length });
    return { trajectories: trajectories.length, tokens: trajectories.reduce((a, s) => a + s.tokens.length, 0), random: mean(runs.random), grouped: mean(runs.grouped), twoThreads: mean(runs.twoThreads) };
  } finally {
    await one.close();
    await two.close();
  }
}

export default async function bench(): Promise<BenchSection> {
  // (1) loss math on a batch shaped like the demo's: 8 episodes × 768 tokens.
  const rng = new Rng(0);
  const batch: LossSequence[] = Array.from({ length: 8 }, () => {
    const old = Float32Array.from({ length: 768 }, () => -3 * rng.float());
    return { logprobs: old.map((v) => v + 0.05 * (rng.float() - 0.5)), oldLogprobs: old, refLogprobs: old.map((v) => v - 0.01), mask: Float32Array.from({ length: 768 }, (_, t) => (t > 500 ? 1 : 0)), advantage: rng.float() - 0.5 };
  });
  const loss = await timeIt(() => {
    computeAdvantages([[0, 1, 0, 1], [1, 1, 0, 0]], { estimator: 'grpo' });
    policyLoss(batch, { beta: 0.02, epsilonHigh: 0.28 });
  }, { minMs: 500 });
  // The same batch under turn-level credit: per-turn advantages (3 turns of 4 episodes in 2 groups,
  // compared after the same tool results) spread over per-token arrays.
  const stepRewards = [[[0.05, 0.15, 1], [0.05, 0, 0], [-0.02, 0.15, 0], [0.05, 0.15, 1]], [[0.15, 1, 0], [0.05, 0, 0], [0.15, 0, 0], [0.05, 0, 0]]];
  const stateKeys = stepRewards.map((g) => g.map((ep) => ep.map((_, t) => String(t))));
  const turnLoss = await timeIt(() => {
    const perTurn = turnAdvantages(stepRewards, { estimator: 'grpo' }, { discount: 0, stateKeys }).flat();
    policyLoss(batch.map((seq, i) => ({ ...seq, advantage: Float64Array.from({ length: 768 }, (_, t) => perTurn[i]![Math.min(2, t >> 8)]!) })), { beta: 0.02, epsilonHigh: 0.28 });
  }, { minMs: 500 });

  const stepTiny = await optimizerSteps(525_056, 24);
  const stepLarge = await optimizerSteps(16_000_000, 64);

  // (2) one GRPO step's compute on the tiny model.
  const runDir = await mkdtemp(join(tmpdir(), 'sqlenv-train-bench-'));
  const config = resolveSqlTrainConfig({ runDir, env: { trainSplit: 'smoke', evalSplits: [], stepBudget: 6 }, sql: { compactTools: true }, rollout: { numGenerations: 4, questionsPerStep: 2, maxTurns: 3, maxNewTokensPerTurn: 32, maxTotalTokens: 768 } });
  const res = await createSqlTrainingSetup(config);
  const rows: (string | number)[][] = [];
  try {
    const { setup } = res;
    const pool = new EnvPool(() => setup.makeEnv('smoke'));
    const rollout = async (continueTurns: boolean) => {
      const envs = pool.take(8);
      const t = performance.now();
      const episodes = await rolloutEpisodes(setup.policy, setup.task, envs.map((env, i) => ({ env, spec: setup.task.episodeSpec!(i >> 2, 'smoke'), group: i >> 2 })), { ...config.rollout, continueTurns }, new Rng(1));
      return { episodes, ms: performance.now() - t };
    };
    await rollout(true); // compiles the graphs
    // Every turn after the first prefilling its whole conversation again (the former path), then continuing the previous turn's cache.
    const wholePrompt = await rollout(false);
    const { episodes: eps, ms: rolloutMs } = await rollout(true);
    await pool.close();
    const generated = eps.reduce((a, e) => a + e.generatedTokens, 0);
    const seqs = eps.map((e) => e.tokens);
    const total = seqs.reduce((a, s) => a + s.length, 0);
    let t0 = performance.now();
    await setup.policy.score(seqs);
    const scoreMs = performance.now() - t0;
    const optimizer = await setup.policy.createOptimizer({ beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 });
    t0 = performance.now();
    await setup.policy.backward(seqs, seqs.map((s) => new Float64Array(s.length).fill(-1 / total)));
    const backwardMs = performance.now() - t0;
    t0 = performance.now();
    await optimizer.step(1e-4, 1);
    const stepMs = performance.now() - t0;
    const sft = await sftSteps(res, config);
    const epochs = await sftEpochs(config);
    rows.push(
      ['rollout (8 episodes, batched generation + SQLEnv steps)', `${(rolloutMs / 1000).toFixed(2)} s`, `${(generated / (rolloutMs / 1000)).toFixed(0)} generated tok/s`],
      ['… every turn prefilling its whole prompt (rollout.continueTurns false, the former path)', `${(wholePrompt.ms / 1000).toFixed(2)} s`, `${(wholePrompt.episodes.reduce((a, e) => a + e.generatedTokens, 0) / (wholePrompt.ms / 1000)).toFixed(0)} generated tok/s (${(wholePrompt.ms / rolloutMs).toFixed(2)}× the time)`],
      ['score (log-probs of the 8 episodes)', `${(scoreMs / 1000).toFixed(2)} s`, `${(total / (scoreMs / 1000)).toFixed(0)} tok/s`],
      ['backward (gradient of Σ w·log p, accumulated in the session)', `${(backwardMs / 1000).toFixed(2)} s`, `${(total / (backwardMs / 1000)).toFixed(0)} tok/s`],
      [`SFT step (${sft.trajectories} oracle trajectories: one backward pass, their common system prompt once; mean of 3)`, `${(sft.oursMs / 1000).toFixed(2)} s`, `${(sft.tokens / (sft.oursMs / 1000)).toFixed(0)} tok/s`],
      ['… scoring every row in full, then back-propagating every row in full (the former path)', `${(sft.formerMs / 1000).toFixed(2)} s`, `${(sft.tokens / (sft.formerMs / 1000)).toFixed(0)} tok/s (${(sft.formerMs / sft.oursMs).toFixed(2)}× the time)`],
      [`SFT epoch (${epochs.trajectories} easy oracle trajectories of \`train\`, batches of 8 in random order; ${(epochs.random.padding * 100).toFixed(0)}% of the computed positions padding; mean of 2)`, `${(epochs.random.ms / 1000).toFixed(2)} s`, `${(epochs.tokens / (epochs.random.ms / 1000)).toFixed(0)} tok/s`],
      [`… batches grouped by length (sft.groupByLength; ${(epochs.grouped.padding * 100).toFixed(0)}% padding)`, `${(epochs.grouped.ms / 1000).toFixed(2)} s`, `${(epochs.tokens / (epochs.grouped.ms / 1000)).toFixed(0)} tok/s (${(epochs.random.ms / epochs.grouped.ms).toFixed(2)}× faster)`],
      ['… random order on 2 threads (model.threads 2; generation stays on one)', `${(epochs.twoThreads.ms / 1000).toFixed(2)} s`, `${(epochs.tokens / (epochs.twoThreads.ms / 1000)).toFixed(0)} tok/s (${(epochs.random.ms / epochs.twoThreads.ms).toFixed(2)}× faster)`],
      ['optimizer step (global-norm clip + AdamW, resident; first step)', `${stepMs.toFixed(1)} ms`, `${setup.policy.parameterCount()} parameters`],
      ['… resident optimizer step, 0.53M values in 24 tensors (mean)', `${stepTiny.resident.toFixed(1)} ms`, `former host path ${stepTiny.host.toFixed(1)} ms (${(stepTiny.host / stepTiny.resident).toFixed(2)}×)`],
      ['… resident optimizer step, 16M values in 64 tensors (mean)', `${stepLarge.resident.toFixed(1)} ms`, `former host path ${stepLarge.host.toFixed(1)} ms (${(stepLarge.host / stepLarge.resident).toFixed(2)}×)`],
      ['trainer loss math (advantages + clipped loss + KL, same batch shape)', `${loss.mean.toFixed(2)} ms`, `${((8 * 768) / (loss.mean / 1000)).toFixed(0)} tok/s`],
      ['… with turn-level credit (per-turn advantages spread over tokens)', `${turnLoss.mean.toFixed(2)} ms`, `${((8 * 768) / (turnLoss.mean / 1000)).toFixed(0)} tok/s`],
    );
  } finally {
    await res.close();
    await rm(runDir, { recursive: true, force: true });
  }
  return {
    title: 'Trainer: one GRPO step of the tiny model (CPU)',
    markdown: [
      'Tiny model (2 layers, hidden 128, vocab ≈1k, 0.53M parameters, float32, onnxruntime CPU), SQLEnv smoke split,',
      '2 questions × K = 4 episodes, ≤ 3 turns of ≤ 32 tokens, sequences ≤ 768 tokens. The last row is the',
      "trainer's own TypeScript loss computation on a batch of the same shape: the reference that shows its",
      'overhead is negligible next to the model compute.',
      '',
      mdTable(['phase', 'time', 'throughput'], rows),
    ].join('\n'),
  };
}
