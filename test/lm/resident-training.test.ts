/**
 * The LM training path is resident: Policy.createTrainer accumulates gradients in the session and
 * steps AdamW there. It must give the weights the former host path gives (gradients copied out,
 * clipped and stepped by AdamW in TypeScript — kept here as the reference) after several steps,
 * for full tuning and LoRA, with micro-batches and the entropy term. And the engine binds
 * weights once: a decode step feeds only the new token's inputs, whatever the model's size.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LoraAdapter, Policy, createTinyModel, loadModel, type LanguageModel } from '../../src/lm/index.js';
import { RopeCache } from '../../src/lm/compute/batch.js';
import { ModelEngine } from '../../src/lm/compute/engine.js';
import { generateTokens } from '../../src/lm/compute/generate.js';
import { adamwReferenceStep, clipReference } from '../../src/onnx/optim/reference.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const root = useTempDirs('resident-training-')();
let small: LanguageModel;
let large: LanguageModel;

beforeAll(async () => {
  await createTinyModel(join(root, 'small'), { arch: 'qwen3', layers: 1, hidden: 32, heads: 2, kvHeads: 1, vocabSize: 400, seed: 3, initStd: 0.2 });
  await createTinyModel(join(root, 'large'), { arch: 'qwen3', layers: 3, hidden: 64, heads: 4, kvHeads: 2, vocabSize: 400, seed: 4, initStd: 0.2 });
  small = await loadModel(join(root, 'small'));
  large = await loadModel(join(root, 'large'));
}, 120_000);

const SEQS = [[5, 9, 14, 3, 7, 21], [8, 2, 11, 40], [30, 31, 32, 33, 34]];
// Token-aligned weights (entry t weighs token t; entry 0, the unscored first token, is ignored).
const weightsFor = (seqs: number[][], step: number) => seqs.map((s, i) => Float32Array.from({ length: s.length }, (_, t) => (t === 0 ? 0 : ((t - 1 + i + step) % 3) - 1.2)));
const entropyFor = (seqs: number[][]) => seqs.map((s) => Float32Array.from({ length: s.length }, (_, t) => (t === 0 ? 0 : 0.05 * ((t - 1) % 2))));
const CFG = { beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0.01 };

/** Today's host path, as it was: gradients out of the session, summed over micro-batches, clipped and stepped on the host. */
async function hostPath(policy: Policy, steps: number, lr: number, maxNorm: number, entropy: boolean): Promise<Map<string, Float32Array>> {
  const params = policy.trainableParameters();
  const m = new Map([...params].map(([n, t]) => [n, new Float32Array(t.data.length)]));
  const v = new Map([...params].map(([n, t]) => [n, new Float32Array(t.data.length)]));
  for (let step = 1; step <= steps; step++) {
    const grads = new Map([...params].map(([n, t]) => [n, new Float32Array(t.data.length)]));
    for (const chunk of [SEQS.slice(0, 2), SEQS.slice(2)]) {
      const r = await policy.backward(chunk, weightsFor(chunk, step), entropy ? { entropyWeights: entropyFor(chunk) } : {});
      for (const [n, g] of r.gradients) grads.get(n)!.forEach((_, i, a) => (a[i] = a[i]! + g.data[i]!));
    }
    clipReference([...grads.values()], maxNorm);
    for (const [n, t] of params) adamwReferenceStep(t.data, grads.get(n)!, m.get(n)!, v.get(n)!, step, lr, CFG);
  }
  return new Map([...params].map(([n, t]) => [n, t.data.slice()]));
}

async function residentPath(policy: Policy, steps: number, lr: number, maxNorm: number, entropy: boolean): Promise<Map<string, Float32Array>> {
  const trainer = await policy.createTrainer(CFG);
  for (let step = 1; step <= steps; step++) {
    trainer.zeroGrad();
    for (const chunk of [SEQS.slice(0, 2), SEQS.slice(2)]) await trainer.accumulate(chunk, weightsFor(chunk, step), entropy ? { entropyWeights: entropyFor(chunk) } : {});
    const r = await trainer.step(lr, maxNorm);
    expect(r.nonFinite).toEqual([]);
  }
  expect(trainer.stepCount).toBe(steps);
  const out = await trainer.readParameters();
  return new Map([...out].map(([n, t]) => [n, t.data]));
}

function maxRelativeDifference(a: Map<string, Float32Array>, b: Map<string, Float32Array>): number {
  let worst = 0;
  for (const [n, x] of a) {
    const y = b.get(n)!;
    let num = 0;
    let den = 0;
    for (let i = 0; i < x.length; i++) {
      num = Math.max(num, Math.abs(x[i]! - y[i]!));
      den = Math.max(den, Math.abs(y[i]!));
    }
    worst = Math.max(worst, num / Math.max(den, 1e-12));
  }
  return worst;
}

describe('resident training path (Policy.createTrainer) against the host path', () => {
  it('full tuning: same weights after 4 steps of 2 micro-batches, clipped (≤ 1e-6 relative)', async () => {
    const a = await Policy.create(small, { train: 'full' });
    const b = await Policy.create(small, { train: 'full' });
    const reference = await hostPath(a, 4, 1e-3, 0.5, false);
    const resident = await residentPath(b, 4, 1e-3, 0.5, false);
    const before = small.weights;
    expect(maxRelativeDifference(resident, reference)).toBeLessThanOrEqual(1e-6);
    // The parameters moved, and the loaded model (the KL reference) did not.
    expect(maxRelativeDifference(resident, new Map([...before].map(([n, t]) => [n, t.data])))).toBeGreaterThan(1e-4);
    // Scoring reads the trainer's resident parameters.
    const [lpA] = await a.logprobs([SEQS[0]!]);
    const [lpB] = await b.logprobs([SEQS[0]!]);
    lpA!.forEach((x, i) => expect(lpB![i]).toBeCloseTo(x, 4));
    await a.close();
    await b.close();
  }, 120_000);

  it('LoRA with the entropy term: same adapter after 3 steps (≤ 1e-6 relative)', async () => {
    const lora = { rank: 2, alpha: 4, targetModules: ['q_proj', 'v_proj', 'down_proj'] as const };
    const a = await Policy.create(small, { adapter: LoraAdapter.create(small.config, lora, { seed: 7, initB: 'random' }) });
    const b = await Policy.create(small, { adapter: LoraAdapter.create(small.config, lora, { seed: 7, initB: 'random' }) });
    const reference = await hostPath(a, 3, 5e-3, 1.0, true);
    const resident = await residentPath(b, 3, 5e-3, 1.0, true);
    expect(maxRelativeDifference(resident, reference)).toBeLessThanOrEqual(1e-6);
    // On CPU the adapter's own tensors follow the trainer (its save() writes the trained values).
    expect(maxRelativeDifference(new Map([...b.adapter!.weights].map(([n, t]) => [n, t.data])), resident)).toBe(0);
    await a.close();
    await b.close();
  }, 120_000);

  it('a checkpoint round trip of parameters and moments continues bit-identically', async () => {
    const a = await Policy.create(small, { train: 'full' });
    const ta = await a.createTrainer(CFG);
    await ta.accumulate(SEQS, weightsFor(SEQS, 1));
    await ta.step(1e-3, 1);
    const saved = { params: await ta.readParameters(), state: await ta.exportState() };
    const b = await Policy.create(small, { train: 'full' });
    const tb = await b.createTrainer(CFG);
    await tb.loadParameters(new Map([...saved.params].map(([n, t]) => [n, t.data])));
    tb.importState(saved.state);
    for (const t of [ta, tb]) {
      await t.accumulate(SEQS, weightsFor(SEQS, 2));
      await t.step(1e-3, 1);
    }
    const [pa, pb] = [await ta.readParameters(), await tb.readParameters()];
    for (const [n, t] of pa) expect(Buffer.from(pb.get(n)!.data.buffer).equals(Buffer.from(t.data.buffer))).toBe(true);
    expect(tb.stepCount).toBe(2);
    await a.close();
    await b.close();
  }, 120_000);
});

describe('resident LM engine', () => {
  /** Host bytes fed per decode step (weights and the KV cache are resident; only the new tokens' inputs cross). */
  async function decodeFeedBytes(model: LanguageModel, batch: number): Promise<{ perStep: number; steps: number; residentFeeds: number }> {
    const engine = await ModelEngine.create(model);
    try {
      const prompts = Array.from({ length: batch }, (_, b) => [5 + b, 9, 14, 3]);
      await generateTokens(engine, new RopeCache(model.config), prompts, { maxTokens: 6, temperature: 0, stopTokenIds: [] });
      // On CPU decoding reads the prompt's cache as a fixed prefix (engine.graph, kind 'decode', prefix 'per-row').
      const { stats } = (await engine.graph({ kind: 'decode', sampler: false, prefix: 'per-row' })).session;
      return { perStep: stats.feedBytes / stats.runs, steps: stats.runs, residentFeeds: stats.residentFeeds / stats.runs };
    } finally {
      await engine.close();
    }
  }

  it('a decode step feeds only the new tokens\' inputs: the same bytes for a 1-layer and a 3-layer model', async () => {
    const s = await decodeFeedBytes(small, 2);
    const l = await decodeFeedBytes(large, 2);
    expect(s.steps).toBe(5);
    expect(l.steps).toBe(5);
    // ids + cos + sin + attention bias: independent of layers, width and vocabulary size…
    expect(s.perStep).toBe(l.perStep);
    // …and small: int64 ids (2·8 B) + cos/sin (2·2·D·4 B) + bias over ≤ 10 positions (2·10·4 B).
    expect(s.perStep).toBeLessThan(2 * 8 + 2 * 2 * 16 * 4 + 2 * 10 * 4 + 1);
    // Every weight, the per-layer cache and the per-layer prompt prefix were fed from resident tensors.
    expect(l.residentFeeds).toBe(large.weights.size + 2 * 3 + 2 * 3);
    expect(s.residentFeeds).toBe(small.weights.size + 2 * 1 + 2 * 1);
  }, 120_000);
});
