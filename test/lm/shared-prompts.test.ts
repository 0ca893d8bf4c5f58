/**
 * Shared prompts: rows that begin with the same prompt compute it once — scoring (log-probs and
 * entropies) and training (the continuations' key/value gradients summed into one prefix
 * backward) — and give what the unshared path gives, to float rounding.
 */
import { describe, expect, it } from 'vitest';
import { useTinyModel } from './tiny-model-fixture.js';
import { Rng } from '../../src/base/rng.js';
import { planSharedPrompts } from '../../src/lm/compute/shared-prompts.js';
import { LoraAdapter, Policy } from '../../src/lm/index.js';

const tinyModel = useTinyModel({ arch: 'qwen3', layers: 2, hidden: 32, heads: 4, kvHeads: 2, vocabSize: 300, seed: 8, initStd: 0.3 });

const rng = new Rng(21);
const tokens = (n: number) => Array.from({ length: n }, () => 1 + rng.int(298));
const promptA = tokens(12);
const promptB = tokens(7);
/** Two groups of different prompt lengths and continuation lengths, a row alone, a row whose prompt is all of it. */
const sequences = [
  [...promptA, ...tokens(5)],
  [...promptB, ...tokens(9)],
  [...promptA, ...tokens(1)],
  tokens(10),
  [...promptA, ...tokens(8)],
  [...promptB, ...tokens(3)],
  [...promptA],
];
const promptLengths = [12, 7, 12, 4, 12, 7, 12];
/**
 * The trainer's layout: groups of one size (3 rows each, interleaved in the input: the graph
 * reads each group's prefix once, `past: 'per-group'`), of different prompt and continuation
 * lengths, and a row alone.
 */
const sameSize = {
  sequences: [[...promptA, ...tokens(4)], [...promptB, ...tokens(6)], [...promptA, ...tokens(2)], tokens(9), [...promptB, ...tokens(1)], [...promptA, ...tokens(7)], [...promptB, ...tokens(3)]],
  promptLengths: [12, 7, 12, 3, 7, 12, 7],
};
const datasets = [
  { layout: 'groups of different sizes', sequences, promptLengths },
  { layout: 'groups of one size', ...sameSize },
] as const;

function expectClose(a: ArrayLike<number>, b: ArrayLike<number>, relative: number): void {
  expect(a.length).toBe(b.length);
  let scale = 0;
  for (let i = 0; i < b.length; i++) scale = Math.max(scale, Math.abs(b[i]!));
  for (let i = 0; i < b.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThanOrEqual(relative * scale + 1e-7);
}

describe('planSharedPrompts', () => {
  it('groups rows by their whole prompt; single rows and sub-2-token prompts stay alone', () => {
    expect(planSharedPrompts([[1, 2, 3, 9], [1, 2, 3, 8, 7], [4, 5, 6]], [3, 3, 2])).toEqual({ groups: [{ rows: [0, 1], split: 2 }], alone: [2] });
    // Same leading tokens but different prompt lengths are different prompts.
    expect(planSharedPrompts([[1, 2, 3, 9], [1, 2, 3, 8]], [3, 2]).groups).toEqual([]);
    expect(planSharedPrompts([[1, 9], [1, 8]], [1, 1])).toEqual({ groups: [], alone: [0, 1] });
    expect(() => planSharedPrompts([[1, 2]], [3])).toThrow(RangeError);
    expect(() => planSharedPrompts([[1, 2]], [])).toThrow(RangeError);
  });
});

describe('scoring with shared prompts', () => {
  for (const { layout, sequences, promptLengths } of datasets) it(`gives the unshared log-probs and entropies (LoRA policy and its reference; ${layout})`, async () => {
    const adapter = LoraAdapter.create(tinyModel().config, { rank: 2, alpha: 4, targetModules: ['q_proj', 'k_proj', 'v_proj', 'down_proj'] }, { seed: 2, initB: 'random' });
    const policy = await Policy.create(tinyModel(), { adapter, intraOpThreads: 1 });
    try {
      for (const reference of [false, true]) {
        const plain = await policy.score(sequences, { entropy: true, reference });
        const shared = await policy.score(sequences, { entropy: true, reference, promptLengths });
        sequences.forEach((_, b) => {
          expectClose(shared.logprobs[b]!, plain.logprobs[b]!, 1e-5);
          expectClose(shared.entropies![b]!, plain.entropies![b]!, 1e-5);
        });
        // completionOnly: the same completion entries, every prompt entry 0 (shared rows and the row alone).
        const completions = await policy.score(sequences, { entropy: true, reference, promptLengths, completionOnly: true });
        sequences.forEach((_, b) => {
          const p = promptLengths[b]!;
          expectClose(completions.logprobs[b]!.subarray(p), plain.logprobs[b]!.subarray(p), 1e-5);
          expectClose(completions.entropies![b]!.subarray(p), plain.entropies![b]!.subarray(p), 1e-5);
          expect(Array.from(completions.logprobs[b]!.subarray(0, p)).every((v) => v === 0)).toBe(true);
          expect(Array.from(completions.entropies![b]!.subarray(0, p)).every((v) => v === 0)).toBe(true);
        });
      }
    } finally {
      await policy.close();
    }
  });
});

describe('training with shared prompts', () => {
  for (const { layout, sequences, promptLengths } of datasets) {
  const weighted = sequences.map((s) => Float32Array.from(s, () => rng.float() * 2 - 1));
  // GRPO's case: the prompt's tokens carry no weight, so the prefix backward runs without the LM head.
  const masked = weighted.map((w, b) => w.map((v, t) => (t < promptLengths[b]! ? 0 : v)));

  for (const [train, promptWeights] of [['full', 'weighted'], ['lora', 'weighted'], ['full', 'zero'], ['lora', 'zero']] as const) {
    it(`accumulates the unshared gradient (${train}, prompt tokens ${promptWeights}; ${layout}) and reports the unshared scores`, async () => {
      const weights = promptWeights === 'weighted' ? weighted : masked;
      const make = () =>
        Policy.create(tinyModel(), {
          intraOpThreads: 1,
          ...(train === 'lora' ? { adapter: LoraAdapter.create(tinyModel().config, { rank: 2, alpha: 4, targetModules: ['q_proj', 'v_proj', 'up_proj'] }, { seed: 4, initB: 'random' }) } : { train: 'full' as const }),
        });
      const a = await make();
      const b = await make();
      try {
        const ta = await a.createTrainer({});
        const tb = await b.createTrainer({});
        const plain = await ta.accumulate(sequences, weights, { scores: { entropy: true } });
        const shared = await tb.accumulate(sequences, weights, { scores: { entropy: true }, promptLengths });
        expect(shared.objective).toBeCloseTo(plain.objective, 4);
        sequences.forEach((_, i) => {
          expectClose(shared.logprobs![i]!, plain.logprobs![i]!, 1e-5);
          expectClose(shared.entropies![i]!, plain.entropies![i]!, 1e-5);
        });
        // Without scores asked for, and with completionOnly, the same gradient is accumulated (twice more).
        await ta.accumulate(sequences, weights);
        await tb.accumulate(sequences, weights, { promptLengths });
        await ta.accumulate(sequences, weights);
        const completions = await tb.accumulate(sequences, weights, { promptLengths, completionOnly: true, scores: { entropy: true } });
        sequences.forEach((_, i) => {
          const p = promptLengths[i]!;
          expectClose(completions.logprobs![i]!.subarray(p), plain.logprobs![i]!.subarray(p), 1e-5);
          expect(Array.from(completions.entropies![i]!.subarray(0, p)).every((v) => v === 0)).toBe(true);
        });
        const ga = await ta.readGradients();
        const gb = await tb.readGradients();
        expect(gb.size).toBe(ga.size);
        let nonzero = 0;
        for (const [name, g] of ga) {
          expectClose(gb.get(name)!.data, g.data, 1e-5);
          if (g.data.some((v) => v !== 0)) nonzero++;
        }
        expect(nonzero).toBe(ga.size);
      } finally {
        await a.close();
        await b.close();
      }
    });
  }
  }
});
