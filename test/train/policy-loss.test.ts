import { describe, expect, it } from 'vitest';
import { klEstimate } from '../../src/train/math/kl.js';
import { policyLoss, PolicyLossInputError, sftLoss, type LossSequence, type PolicyLossOptions } from '../../src/train/math/policy-loss.js';
import { Rng } from '../../src/base/rng.js';

const ln = Math.log;

describe('klEstimate', () => {
  it('matches k1, k2, k3 by hand', () => {
    const d = ln(0.5) - ln(0.25); // ln 2
    expect(klEstimate(d, 'k1').value).toBeCloseTo(Math.LN2, 12);
    expect(klEstimate(d, 'k2').value).toBeCloseTo((Math.LN2 * Math.LN2) / 2, 12);
    expect(klEstimate(d, 'k3').value).toBeCloseTo(0.5 + Math.LN2 - 1, 12);
    expect(klEstimate(d, 'k3').grad).toBeCloseTo(0.5, 12);
    expect(klEstimate(-3, 'k3').value).toBeGreaterThan(0);
    expect(klEstimate(0, 'k3')).toEqual({ value: 0, grad: 0 });
  });
});

describe('policyLoss — hand-computed cases', () => {
  it('on-policy (ratio 1) loss is −A per token, gradient −A·w', () => {
    const r = policyLoss([{ logprobs: [-1, -2], oldLogprobs: [-1, -2], mask: [1, 1], advantage: 1 }]);
    expect(r.loss).toBeCloseTo(-1, 12);
    expect([...r.logprobGrads[0]!]).toEqual([-0.5, -0.5]);
    expect(r.metrics.clipRatioRegion).toBe(0);
  });

  it('clips a ratio above 1+ε for a positive advantage (no gradient, clip_high counted)', () => {
    const r = policyLoss([{ logprobs: [ln(1.5)], oldLogprobs: [0], mask: [1], advantage: 1 }], { epsilonLow: 0.2, epsilonHigh: 0.2 });
    expect(r.loss).toBeCloseTo(-1.2, 12);
    expect(r.logprobGrads[0]![0]).toBe(0);
    expect(r.metrics.clipRatioHigh).toBe(1);
    expect(r.metrics.clipRatioLow).toBe(0);
  });

  it('clip-higher: ε_high = 0.28 lets the same ratio through', () => {
    const r = policyLoss([{ logprobs: [ln(1.25)], oldLogprobs: [0], mask: [1], advantage: 1 }], { epsilonHigh: 0.28 });
    expect(r.loss).toBeCloseTo(-1.25, 12);
    expect(r.logprobGrads[0]![0]).toBeCloseTo(-1.25, 12);
  });

  it('clips a ratio below 1−ε for a negative advantage', () => {
    const r = policyLoss([{ logprobs: [ln(0.5)], oldLogprobs: [0], mask: [1], advantage: -1 }]);
    expect(r.loss).toBeCloseTo(0.8, 12);
    expect(r.logprobGrads[0]![0]).toBe(0);
    expect(r.metrics.clipRatioLow).toBe(1);
  });

  it('does not clip a large ratio with a negative advantage (pessimistic bound)', () => {
    const r = policyLoss([{ logprobs: [ln(1.5)], oldLogprobs: [0], mask: [1], advantage: -1 }]);
    expect(r.loss).toBeCloseTo(1.5, 12);
    expect(r.logprobGrads[0]![0]).toBeCloseTo(1.5, 12);
  });

  it('masked tokens contribute nothing', () => {
    const r = policyLoss([{ logprobs: [-5, -1], oldLogprobs: [-1, -1], mask: [0, 1], advantage: 2 }]);
    expect(r.loss).toBeCloseTo(-2, 12);
    expect(r.logprobGrads[0]![0]).toBe(0);
    expect(r.metrics.tokens).toBe(1);
  });

  const twoSeqs: LossSequence[] = [
    { logprobs: [0], oldLogprobs: [0], mask: [1], advantage: 1 },
    { logprobs: [0, 0, 0], oldLogprobs: [0, 0, 0], mask: [1, 1, 1], advantage: 1 },
  ];

  it('token_mean weighs every token equally', () => {
    const r = policyLoss(twoSeqs, { aggregation: 'token_mean' });
    expect(r.loss).toBeCloseTo(-1, 12);
    expect(r.logprobGrads[0]![0]).toBeCloseTo(-0.25, 12);
    expect(r.logprobGrads[1]![2]).toBeCloseTo(-0.25, 12);
  });

  it('sequence_mean weighs every sequence equally', () => {
    const r = policyLoss(twoSeqs, { aggregation: 'sequence_mean' });
    expect(r.loss).toBeCloseTo(-1, 12);
    expect(r.logprobGrads[0]![0]).toBeCloseTo(-0.5, 12);
    expect(r.logprobGrads[1]![0]).toBeCloseTo(-1 / 6, 12);
  });

  it('constant (Dr. GRPO) divides by G × L_max', () => {
    const r = policyLoss(twoSeqs, { aggregation: 'constant', maxCompletionTokens: 4 });
    expect(r.loss).toBeCloseTo(-0.5, 12);
    expect(r.logprobGrads[1]![1]).toBeCloseTo(-1 / 8, 12);
    expect(() => policyLoss(twoSeqs, { aggregation: 'constant' })).toThrow(PolicyLossInputError);
  });

  it('adds β·k3 KL and reports its mean', () => {
    const d = Math.LN2;
    const r = policyLoss([{ logprobs: [d], oldLogprobs: [d], refLogprobs: [0], mask: [1], advantage: 0 }], { beta: 0.1 });
    const k3 = Math.exp(-d) + d - 1;
    expect(r.loss).toBeCloseTo(0.1 * k3, 12);
    expect(r.metrics.kl).toBeCloseTo(k3, 12);
    expect(r.logprobGrads[0]![0]).toBeCloseTo(0.1 * (1 - Math.exp(-d)), 12);
  });

  it('needs reference log-probs when β > 0', () => {
    expect(() => policyLoss([{ logprobs: [0], oldLogprobs: [0], mask: [1], advantage: 1 }], { beta: 0.04 })).toThrow(/refLogprobs/);
  });

  it('subtracts the entropy bonus and hands its gradient to the backend', () => {
    const r = policyLoss([{ logprobs: [0, 0], oldLogprobs: [0, 0], entropies: [1, 3], mask: [1, 1], advantage: 0 }], { entropyCoef: 0.01 });
    expect(r.loss).toBeCloseTo(-0.01 * 2, 12);
    expect(r.metrics.entropy).toBeCloseTo(2, 12);
    expect([...r.entropyGrads[0]!]).toEqual([-0.005, -0.005]);
  });

  it('GSPO uses one sequence ratio exp(mean log-ratio)', () => {
    const r = policyLoss([{ logprobs: [ln(1.1), ln(1.0)], oldLogprobs: [0, 0], mask: [1, 1], advantage: 1 }], { importanceLevel: 'sequence' });
    const s = Math.sqrt(1.1);
    expect(r.loss).toBeCloseTo(-s, 12);
    expect(r.metrics.ratioMean).toBeCloseTo(s, 12);
  });
});

describe('policyLoss — per-token advantages (turn-level credit)', () => {
  it('a constant per-token array gives exactly the scalar result', () => {
    const seq = { logprobs: [-1, ln(1.5) - 1, -2], oldLogprobs: [-1, -1, -2.1], refLogprobs: [-1.2, -1, -2], mask: [0, 1, 1] };
    const scalar = policyLoss([{ ...seq, advantage: 0.7 }], { beta: 0.04 });
    const array = policyLoss([{ ...seq, advantage: [0.7, 0.7, 0.7] }], { beta: 0.04 });
    expect(array.loss).toBe(scalar.loss);
    expect([...array.logprobGrads[0]!]).toEqual([...scalar.logprobGrads[0]!]);
  });

  it('each token is pushed in the direction of its own advantage', () => {
    const r = policyLoss([{ logprobs: [0, 0], oldLogprobs: [0, 0], mask: [1, 1], advantage: [2, -1] }]);
    expect([...r.logprobGrads[0]!]).toEqual([-1, 0.5]);
  });

  it('refuses per-token advantages of the wrong length', () => {
    expect(() => policyLoss([{ logprobs: [0, 0], oldLogprobs: [0, 0], mask: [1, 1], advantage: [1] }])).toThrow(PolicyLossInputError);
  });
});

describe('policyLoss — gradients match central differences', () => {
  const rng = new Rng(7);
  function randomBatch(perTokenAdvantages = false): LossSequence[] {
    return Array.from({ length: 3 }, (_, i) => {
      const n = 2 + i;
      const old = Array.from({ length: n }, () => -0.5 - 2 * rng.float());
      return {
        // small perturbations keep ratios inside the trust region or clearly outside it
        logprobs: old.map((o) => o + 0.3 * (rng.float() - 0.5)),
        oldLogprobs: old,
        refLogprobs: old.map((o) => o - 0.2 * rng.float()),
        mask: Array.from({ length: n }, (_, t) => (t === 0 ? 0 : 1)),
        advantage: perTokenAdvantages ? Array.from({ length: n }, () => rng.float() * 2 - 1) : rng.float() * 2 - 1,
      };
    });
  }
  const configs: PolicyLossOptions[] = [
    { aggregation: 'token_mean', beta: 0.04, klEstimator: 'k3' },
    { aggregation: 'sequence_mean', beta: 0.1, klEstimator: 'k2', epsilonHigh: 0.28 },
    { aggregation: 'constant', maxCompletionTokens: 6, beta: 0.05, klEstimator: 'k1' },
    { aggregation: 'token_mean', importanceLevel: 'sequence', beta: 0.02 },
    { aggregation: 'sequence_mean', importanceLevel: 'sequence', epsilonLow: 0.05, epsilonHigh: 0.05 },
  ];
  for (const [options, perToken] of [...configs.map((c) => [c, false] as const), [configs[0]!, true] as const, [configs[3]!, true] as const]) {
    it(`${JSON.stringify(options)}${perToken ? ', per-token advantages' : ''}`, () => {
      const batch = randomBatch(perToken);
      const base = policyLoss(batch, options);
      const h = 1e-6;
      batch.forEach((seq, i) => {
        for (let t = 0; t < seq.logprobs.length; t++) {
          const bump = (delta: number) =>
            policyLoss(batch.map((s, j) => (j !== i ? s : { ...s, logprobs: Array.from(s.logprobs, (v, u) => (u === t ? v + delta : v)) })), options).loss;
          const numeric = (bump(h) - bump(-h)) / (2 * h);
          expect(base.logprobGrads[i]![t]).toBeCloseTo(numeric, 5);
        }
      });
    });
  }
});

describe('sftLoss', () => {
  it('is the mean negative log-likelihood of masked tokens', () => {
    const r = sftLoss([{ logprobs: [-1, -3], mask: [0, 1] }, { logprobs: [-1], mask: [1] }]);
    expect(r.loss).toBeCloseTo(2, 12);
    expect(r.tokens).toBe(2);
    expect([...r.logprobGrads[0]!]).toEqual([0, -0.5]);
  });
});
