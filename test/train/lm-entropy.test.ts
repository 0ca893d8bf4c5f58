/**
 * The entropy bonus with the real (ONNX) policy: `LmTrainablePolicy.score` returns the entropy
 * of the full next-token distribution, and `backward` with entropy weights differentiates it
 * (checked against central differences on a tiny model).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoraAdapter, Policy, createTinyModel, loadModel, type LanguageModel } from '../../src/lm/index.js';
import { LmTrainablePolicy } from '../../src/train/policy/lm-policy-adapter.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const root = useTempDirs('lm-entropy-')();
let model: LanguageModel;
let policy: LmTrainablePolicy;
let lora: LmTrainablePolicy;
/** The LM policies behind the adapters: their trainers hold the accumulated gradients. */
let fullLm: Policy;
let loraLm: Policy;
let vocab = 0;

beforeAll(async () => {
  await createTinyModel(join(root, 'tiny'), { arch: 'qwen3', layers: 1, hidden: 32, heads: 2, kvHeads: 1, vocabSize: 300, seed: 11, initStd: 0.3 });
  model = await loadModel(join(root, 'tiny'));
  vocab = model.config.vocabSize;
  fullLm = await Policy.create(model, { train: 'full', intraOpThreads: 1 });
  policy = new LmTrainablePolicy(fullLm);
  const adapter = LoraAdapter.create(model.config, { rank: 2, alpha: 4, targetModules: ['q_proj', 'down_proj'] }, { seed: 3, initB: 'random' });
  loraLm = await Policy.create(model, { adapter, intraOpThreads: 1 });
  lora = new LmTrainablePolicy(loraLm);
  const adam = { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 };
  await policy.createOptimizer(adam);
  await lora.createOptimizer(adam);
});
afterAll(async () => {
  await policy?.dispose();
  await lora?.dispose();
});

const seqA = [3, 17, 42, 99, 7, 250];
const seqB = [11, 5, 200, 64];

describe('LmTrainablePolicy entropies', () => {
  it('score({ entropy: true }) returns −Σ p log p of the full next-token distribution, aligned with the log-probs', async () => {
    const [scores] = await policy.score([seqA], { entropy: true });
    expect(scores!.entropies).toBeDefined();
    expect(scores!.entropies!).toHaveLength(seqA.length);
    expect(scores!.entropies![0]).toBe(0);
    // Entry t is the entropy of p(· | seqA[..t−1]): score every possible token at position t.
    for (const t of [1, 4]) {
      const prefix = seqA.slice(0, t);
      const all = await policy.score(Array.from({ length: vocab }, (_, v) => [...prefix, v]));
      let h = 0, total = 0;
      for (const s of all) {
        const lp = s.logprobs[t]!;
        h -= Math.exp(lp) * lp;
        total += Math.exp(lp);
      }
      expect(total).toBeCloseTo(1, 4);
      expect(scores!.entropies![t]!).toBeCloseTo(h, 4);
      expect(scores!.entropies![t]!).toBeGreaterThan(0);
    }
    // Without the flag no entropies are computed; the log-probs are the same either way.
    const [plain] = await policy.score([seqA]);
    expect(plain!.entropies).toBeUndefined();
    for (let t = 0; t < seqA.length; t++) expect(plain!.logprobs[t]).toBeCloseTo(scores!.logprobs[t]!, 5);
  });

  /** backward's accumulated gradient, read from the LM policy's resident trainer, and the live parameter views. */
  async function accumulated(target: LmTrainablePolicy, lm: Policy, seqs: number[][], w: Float64Array[], u?: Float64Array[]) {
    lm.activeTrainer!.zeroGrad();
    await target.backward(seqs, w, u);
    return { grads: await lm.activeTrainer!.readGradients(), values: lm.trainableParameters() };
  }

  const gradientCases: [string, () => [LmTrainablePolicy, Policy], string[]][] = [
    ['full tuning', () => [policy, fullLm], ['model.layers.0.mlp.down_proj.weight', 'model.embed_tokens.weight']],
    ['LoRA', () => [lora, loraLm], ['base_model.model.model.layers.0.mlp.down_proj.lora_A.weight', 'base_model.model.model.layers.0.self_attn.q_proj.lora_B.weight']],
  ];
  for (const [label, get, names] of gradientCases) {
    it(`backward differentiates Σ w·log p + Σ u·H (central differences, ${label})`, async () => {
      const [target, lm] = get();
      const seqs = [seqA, seqB];
      const w = seqs.map((s) => Float64Array.from(s, (_, t) => (t === 0 ? 0 : 0.3 - 0.1 * t)));
      const u = seqs.map((s) => Float64Array.from(s, (_, t) => (t === 0 ? 0 : 0.5 + 0.25 * t)));
      const objective = async (withLogprob: boolean): Promise<number> => {
        const scores = await target.score(seqs, { entropy: true });
        let sum = 0;
        scores.forEach((s, i) => {
          for (let t = 1; t < seqs[i]!.length; t++) sum += (withLogprob ? w[i]![t]! * s.logprobs[t]! : 0) + u[i]![t]! * s.entropies![t]!;
        });
        return sum;
      };
      const check = async (withLogprob: boolean): Promise<void> => {
        const { grads, values } = await accumulated(target, lm, seqs, withLogprob ? w : seqs.map((s) => new Float64Array(s.length)), u);
        for (const name of names) {
          const g = grads.get(name)?.data;
          expect(g, `${name} among ${[...grads.keys()].join(', ')}`).toBeDefined();
          // The largest-gradient entry: a central difference in float32 resolves it well.
          const i = Array.from(g!).reduce((best, v, k) => (Math.abs(v) > Math.abs(g![best]!) ? k : best), 0);
          const analytic = g![i]!;
          expect(Math.abs(analytic)).toBeGreaterThan(1e-3);
          const h = 1e-2;
          // On CPU the views are the trainer's resident buffers: scoring reads these writes.
          const value = values.get(name)!.data;
          const original = value[i]!;
          value[i] = original + h;
          const plus = await objective(withLogprob);
          value[i] = original - h;
          const minus = await objective(withLogprob);
          value[i] = original;
          const numeric = (plus - minus) / (2 * h);
          expect(Math.abs(numeric - analytic), `${name}[${i}] analytic ${analytic} numeric ${numeric}`).toBeLessThan(0.02 * Math.abs(analytic) + 1e-3);
        }
      };
      await check(false); // the entropy term alone
      await check(true); // entropy and log-prob terms together
    });
  }

  it('without entropy weights the gradient is the plain Σ w·log p one', async () => {
    const w = [Float64Array.from(seqA, (_, t) => (t === 0 ? 0 : -1))];
    const grads = async (entropy?: Float64Array[]): Promise<Float32Array[]> => [...(await accumulated(policy, fullLm, [seqA], w, entropy)).grads.values()].map((g) => g.data);
    const plain = await grads();
    const zeros = await grads([new Float64Array(seqA.length)]);
    plain.forEach((g, k) => expect(Array.from(zeros[k]!)).toEqual(Array.from(g)));
    const bonus = await grads([Float64Array.from(seqA, (_, t) => (t === 0 ? 0 : -0.1))]);
    expect(bonus.some((g, k) => g.some((v, j) => Math.abs(v - plain[k]![j]!) > 1e-6))).toBe(true);
  });
});
