import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import { argmax, logSoftmax, sampleToken } from '../../src/lm/index.js';
import { MASKED, attentionBias, packLeft, positionsFromMask } from '../../src/lm/compute/batch.js';
import { TokenSampler } from '../../src/lm/compute/sampling.js';

describe('sampling', () => {
  const logits = new Float32Array([1, 3, 2, 0.5]);

  it('is greedy at temperature 0 and with top-k 1', () => {
    expect(sampleToken(logits, { temperature: 0 }, new Rng(1))).toBe(1);
    for (let s = 0; s < 20; s++) expect(sampleToken(logits, { temperature: 1, topK: 1 }, new Rng(s))).toBe(1);
    expect(argmax([2, 5, 5])).toBe(1);
  });

  it('keeps only the top-p nucleus', () => {
    // p(1) ≈ 0.61 and p(2) ≈ 0.23: top-p 0.7 keeps exactly tokens 1 and 2.
    const seen = new Set<number>();
    const rng = new Rng(7);
    for (let i = 0; i < 300; i++) seen.add(sampleToken(logits, { topP: 0.7 }, rng));
    expect([...seen].sort()).toEqual([1, 2]);
  });

  it('matches the softmax distribution and is reproducible from a seed', () => {
    const rng = new Rng(3);
    const counts = [0, 0, 0, 0];
    const n = 4000;
    for (let i = 0; i < n; i++) counts[sampleToken(logits, { temperature: 1 }, rng)]!++;
    const p = [...logSoftmax(logits)].map(Math.exp);
    counts.forEach((c, i) => expect(Math.abs(c / n - p[i]!)).toBeLessThan(0.03));
    const draw = (seed: number): number[] => {
      const r = new Rng(seed);
      return Array.from({ length: 10 }, () => sampleToken(logits, { temperature: 1.5 }, r));
    };
    expect(draw(11)).toEqual(draw(11));
  });

  it('TokenSampler draws the tokens sampleToken draws and the exact log-prob at the sampling temperature, at every setting', () => {
    const gen = new Rng(5);
    const vocab = 2048;
    const sampler = new TokenSampler(vocab);
    const settings = [{ temperature: 1 }, {}, { temperature: 0.7 }, { temperature: 1.3, topP: 1, topK: 0 }, { temperature: 0 }, { temperature: 1, topP: 0.9 }, { temperature: 0.8, topK: 5 }];
    for (const options of settings) {
      const a = new Rng(99);
      const b = new Rng(99);
      for (let i = 0; i < 50; i++) {
        const logits = Float32Array.from({ length: vocab }, () => (gen.float() - 0.5) * 12);
        const { token, logprob } = sampler.draw(logits, options, a);
        expect(token).toBe(sampleToken(logits, options, b));
        // log q: log-softmax(logits / T) at the draw's temperature (T = 1 when greedy), renormalised
        // over the tokens top-k/top-p keep — the distribution the token was drawn from.
        const t = (options.temperature ?? 1) > 0 ? (options.temperature ?? 1) : 1;
        const full = logSoftmax(t === 1 ? logits : Float64Array.from(logits, (x) => x / t));
        const kept = (options.temperature ?? 1) > 0 ? keptTokens(full, options) : undefined;
        if (!kept) expect(logprob).toBe(full[token]);
        else {
          expect(kept.has(token)).toBe(true);
          const mass = [...kept].reduce((a, i) => a + Math.exp(full[i]!), 0);
          expect(logprob).toBeCloseTo(full[token]! - Math.log(mass), 10);
        }
      }
    }
  });

  it('computes a normalised log-softmax', () => {
    const lp = logSoftmax([1000, 1000]);
    expect(lp[0]).toBeCloseTo(-Math.log(2), 12);
  });
});

describe('batch packing', () => {
  it('left-pads, counts positions from the mask and masks causally', () => {
    const packed = packLeft([[5, 6, 7], [8]], 0);
    expect([...packed.ids].map(Number)).toEqual([5, 6, 7, 0, 0, 8]);
    expect([...packed.mask]).toEqual([1, 1, 1, 0, 0, 1]);
    expect(packed.padding).toEqual([0, 2]);
    expect([...positionsFromMask(packed.mask, 2, 3)]).toEqual([0, 1, 2, 0, 0, 0]);
    const bias = attentionBias(packed.mask, 2, 3, 0);
    // Row 0, query 1 sees keys 0 and 1 only.
    expect([...bias.slice(3, 6)]).toEqual([0, 0, MASKED]);
    // Row 1, query 2 (the real token) sees only itself.
    expect([...bias.slice(15, 18)]).toEqual([MASKED, MASKED, 0]);
    // One decode step after 3 cached positions sees all real keys.
    expect([...attentionBias(new Uint8Array([0, 1, 1, 1]), 1, 1, 3)]).toEqual([MASKED, 0, 0, 0]);
  });
});

/** The tokens top-k then top-p keep from a log-distribution, or undefined when both keep all. */
function keptTokens(logp: Float64Array, options: { topK?: number; topP?: number }): Set<number> | undefined {
  const topK = options.topK ?? 0;
  const topP = options.topP ?? 1;
  if (!((topK > 0 && topK < logp.length) || topP < 1)) return undefined;
  let order = Array.from(logp.keys()).sort((a, b) => logp[b]! - logp[a]! || a - b);
  if (topK > 0) order = order.slice(0, topK);
  const mass = order.reduce((a, i) => a + Math.exp(logp[i]!), 0);
  const kept = new Set<number>();
  let cumulative = 0;
  for (const i of order) {
    kept.add(i);
    cumulative += Math.exp(logp[i]!) / mass;
    if (cumulative >= topP) break;
  }
  return kept;
}
