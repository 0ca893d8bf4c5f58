import { describe, expect, it } from 'vitest';
import { resolveTrainConfig } from '../../src/train/config/load-config.js';
import type { TrainConfig } from '../../src/train/config/schema.js';
import { grpoUpdate } from '../../src/train/grpo/grpo-update.js';
import { cappedWeight, samplerCorrectionWeights } from '../../src/train/math/sampler-correction.js';
import { policyLoss } from '../../src/train/math/policy-loss.js';
import type { AdamWState, OptimizerStepReport, PolicyOptimizer } from '../../src/train/optim/policy-optimizer.js';
import type { ChatCodec, GenerateResult, ParameterValue, TokenScores, TrainablePolicy } from '../../src/train/policy/trainable-policy.js';
import type { Episode } from '../../src/train/rollout/episode.js';

describe('samplerCorrectionWeights', () => {
  const seq = { oldLogprobs: [0, -1, -2, 0], samplingLogprobs: [0, -0.5, -3, 0], mask: [0, 1, 1, 0] };

  it('weighs every trained token of a sequence by π(sequence)/q(sequence) at the sequence level', () => {
    const r = samplerCorrectionWeights([seq], { mode: 'truncate', level: 'sequence', cap: 10 });
    // log π − log q = −0.5 + 1 = 0.5 over the trained tokens.
    expect([...r.weights[0]!]).toEqual([1, Math.exp(0.5), Math.exp(0.5), 1]);
    expect(r.metrics.logpDifferenceMean).toBeCloseTo(0.75, 12);
    expect(r.metrics.logpDifferenceMax).toBeCloseTo(1, 12);
    expect(r.metrics.correctedShare).toBe(0);
    expect(r.metrics.tokens).toBe(2);
  });

  it('weighs each token by its own ratio at the token level, truncating at C or masking outside [1/C, C]', () => {
    const truncated = samplerCorrectionWeights([seq], { mode: 'truncate', level: 'token', cap: 2 });
    expect([...truncated.weights[0]!]).toEqual([1, Math.exp(-0.5), 2, 1]);
    expect(truncated.metrics.correctedShare).toBe(0.5);
    expect(truncated.metrics.weightMax).toBe(2);
    const masked = samplerCorrectionWeights([seq], { mode: 'mask', level: 'token', cap: 2 });
    expect([...masked.weights[0]!]).toEqual([1, Math.exp(-0.5), 0, 1]);
    expect(samplerCorrectionWeights([seq], { mode: 'mask', level: 'token', cap: 1.5 }).weights[0]![1]).toBe(0); // e^−0.5 < 1/1.5
  });

  it("leaves every weight 1 under 'none' and for sequences without sampling log-probs, and still measures the gap", () => {
    const r = samplerCorrectionWeights([seq, { oldLogprobs: [0, -1], mask: [0, 1] }], { mode: 'none', level: 'token', cap: 3 });
    expect(r.weights.flatMap((w) => [...w])).toEqual([1, 1, 1, 1, 1, 1]);
    expect(r.metrics.logpDifferenceMax).toBeCloseTo(1, 12);
    expect(r.metrics.tokens).toBe(2);
  });

  it('rejects a cap that is not above 1, and mismatched lengths', () => {
    expect(() => samplerCorrectionWeights([seq], { mode: 'truncate', level: 'token', cap: 1 })).toThrow(/must be > 1/);
    expect(() => samplerCorrectionWeights([{ ...seq, samplingLogprobs: [0] }], { mode: 'truncate', level: 'token', cap: 3 })).toThrow(/equal lengths/);
    expect(cappedWeight(Infinity, 'truncate', 3)).toEqual({ weight: 3, corrected: true });
  });

  it('policyLoss multiplies each surrogate term and its gradient by the sampler weight', () => {
    const base = { logprobs: [-1, -2], oldLogprobs: [-1, -2], mask: [1, 1], advantage: 2 };
    const r = policyLoss([{ ...base, samplerWeights: [0.5, 3] }]);
    expect(r.loss).toBeCloseTo(-(0.5 * 2 + 3 * 2) / 2, 12);
    expect([...r.logprobGrads[0]!]).toEqual([-0.5, -3]);
    expect(() => policyLoss([{ ...base, samplerWeights: [1] }])).toThrow(/samplerWeights/);
  });
});

/**
 * A two-step policy over V tokens, small enough to enumerate: after the prompt token the first
 * token is drawn from softmax(θ₁ / T), the second from softmax(θ₂[y₁] / T). The parameters are the
 * logits themselves; gradients are analytic and kept in float64.
 */
const V = 3;
const PROMPT = V; // the prompt's one token, outside the action vocabulary

class TwoStepPolicy implements TrainablePolicy {
  readonly theta = new Float64Array(V + V * V);
  readonly grad = new Float64Array(V + V * V);
  readonly codec: ChatCodec = {
    encodeStart: () => [PROMPT],
    encodeToolResponses: () => [],
    decode: (tokens) => tokens.join(' '),
    encodeAssistantTurn: () => [],
  };

  constructor(values: readonly number[]) {
    this.theta.set(values);
  }

  /** Offset of the logits row that position t of `seq` is drawn from. */
  private row(seq: readonly number[], t: number): number {
    return t === 1 ? 0 : V + seq[1]! * V;
  }

  probs(offset: number, temperature: number, bias: readonly number[] = [0, 0, 0]): Float64Array {
    const z = Array.from({ length: V }, (_, j) => (this.theta[offset + j]! + bias[j]!) / temperature);
    const m = Math.max(...z);
    const e = z.map((x) => Math.exp(x - m));
    const s = e.reduce((a, b) => a + b, 0);
    return Float64Array.from(e, (x) => x / s);
  }

  async generate(): Promise<GenerateResult[]> {
    throw new Error('TwoStepPolicy is enumerated, never sampled');
  }

  async score(sequences: readonly (readonly number[])[], options: { temperature?: number } = {}): Promise<TokenScores[]> {
    return sequences.map((seq) => {
      const logprobs = new Float32Array(seq.length);
      for (let t = 1; t < seq.length; t++) logprobs[t] = Math.log(this.probs(this.row(seq, t), options.temperature ?? 1)[seq[t]!]!);
      return { logprobs };
    });
  }

  async backward(sequences: readonly (readonly number[])[], weights: readonly Float64Array[], _e?: readonly Float64Array[], options: { temperature?: number } = {}): Promise<void> {
    const T = options.temperature ?? 1;
    sequences.forEach((seq, i) => {
      for (let t = 1; t < seq.length; t++) {
        const w = weights[i]![t]!;
        if (w === 0) continue;
        const offset = this.row(seq, t);
        const p = this.probs(offset, T);
        // ∂ log softmax(z / T)[y] / ∂z_j = (1[j = y] − p_j) / T
        for (let j = 0; j < V; j++) this.grad[offset + j]! += (w * ((j === seq[t] ? 1 : 0) - p[j]!)) / T;
      }
    });
  }

  async createOptimizer(): Promise<PolicyOptimizer> {
    const grad = this.grad;
    return {
      stepCount: 0,
      zeroGrad: () => grad.fill(0),
      // The test reads the accumulated gradient; the parameters stay where they are.
      step: async (): Promise<OptimizerStepReport> => ({ gradNorm: Math.hypot(...grad), nonFinite: [] }),
      exportState: async (): Promise<AdamWState> => ({ step: 0, m: new Map(), v: new Map() }),
      importState: () => {},
    };
  }

  parameterCount(): number {
    return this.theta.length;
  }
  async readParameters(): Promise<Map<string, ParameterValue>> {
    return new Map([['theta', { shape: [this.theta.length], data: Float32Array.from(this.theta) }]]);
  }
  async loadParameters(): Promise<void> {}
  async freezeReference(): Promise<void> {}
  async dispose(): Promise<void> {}
}

describe('GRPO update under a sampler that is not the policy (enumerated exactly)', () => {
  const T = 0.7;
  const theta = [0.3, -0.4, 0.9, 0.2, 0.5, -1.1, -0.6, 0.8, 0.1, 1.2, -0.3, 0.4];
  // A decoding guide's fixed logit biases: a nudge towards token 2 first, then towards token 0.
  const bias1 = [0, 0, 1.5];
  const bias2 = [1.0, 0, -0.5];
  const advantage = (y1: number, y2: number) => [[1, -0.5, 0.3], [-1, 0.8, 0.2], [0.6, -0.2, -1.4]][y1]![y2]!;
  const sequences = Array.from({ length: V * V }, (_, k) => [Math.floor(k / V), k % V] as const);

  const config = (loss: Record<string, unknown>): TrainConfig =>
    resolveTrainConfig({
      rollout: { temperature: T, topP: 1, guidedDecoding: 'always', maxTurns: 1, maxNewTokensPerTurn: 2 },
      grpo: { loss: { beta: 0, aggregation: 'sequence_mean', ...loss }, muIterations: 1 },
      optim: { maxGradNorm: 0 },
    });

  const episodeOf = (policy: TwoStepPolicy, y1: number, y2: number): { episode: Episode; q: number } => {
    const q1 = policy.probs(0, T, bias1)[y1]!;
    const q2 = policy.probs(V + y1 * V, T, bias2)[y2]!;
    return {
      q: q1 * q2,
      episode: {
        group: 0,
        question: 'enumerated',
        tokens: [PROMPT, y1, y2],
        mask: [0, 1, 1],
        samplingLogprobs: [0, Math.log(q1), Math.log(q2)],
        promptLength: 1,
        turns: [{ text: `${y1} ${y2}`, tokenSpan: [1, 3], action: '', result: '', reward: advantage(y1, y2), repairs: [], parsedToolCall: true, malformedCall: false }],
        rewardComponents: {},
        finished: true,
        truncatedByTokens: false,
        correct: false,
        generatedTokens: 2,
      },
    };
  };

  /** Σ over every sequence y of q(y) × the update's gradient on the batch {y}. */
  const expectedUpdateGradient = async (cfg: TrainConfig): Promise<Float64Array> => {
    const policy = new TwoStepPolicy(theta);
    const optimizer = await policy.createOptimizer();
    const total = new Float64Array(policy.grad.length);
    for (const [y1, y2] of sequences) {
      const { episode, q } = episodeOf(policy, y1, y2);
      await grpoUpdate(policy, optimizer, [episode], new Map([[episode, advantage(y1, y2)]]), cfg, 0);
      policy.grad.forEach((g, i) => (total[i]! += q * g));
    }
    return total;
  };

  /** J(θ) = E_{y ~ π_θ at T}[A(y)], the objective of the unguided policy that is evaluated. */
  const objective = (values: readonly number[]): number => {
    const policy = new TwoStepPolicy(values);
    return sequences.reduce((sum, [y1, y2]) => sum + policy.probs(0, T)[y1]! * policy.probs(V + y1 * V, T)[y2]! * advantage(y1, y2), 0);
  };

  /** ∇J by central differences: independent of the trainer's and the fixture's derivatives. */
  const objectiveGradient = (): Float64Array => {
    const h = 1e-6;
    return Float64Array.from(theta, (_, i) => {
      const up = [...theta];
      const down = [...theta];
      up[i]! += h;
      down[i]! -= h;
      return (objective(up) - objective(down)) / (2 * h);
    });
  };

  // sequence_mean over a batch of one 2-token episode: loss = −½ Σ_t w ρ_t A, so E[∇loss] = −½ ∇J.
  const target = () => Float64Array.from(objectiveGradient(), (g) => -0.5 * g);
  const maxDiff = (a: Float64Array, b: Float64Array) => Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));

  it('with sequence-level weights (cap not binding), the expected update is the exact gradient of the unguided objective', async () => {
    const expected = await expectedUpdateGradient(config({ samplerCorrection: 'truncate', samplerCorrectionLevel: 'sequence', samplerCap: 1e6 }));
    expect(maxDiff(expected, target())).toBeLessThan(1e-6);
    const masked = await expectedUpdateGradient(config({ samplerCorrection: 'mask', samplerCorrectionLevel: 'sequence', samplerCap: 1e6 }));
    expect(maxDiff(masked, target())).toBeLessThan(1e-6);
  });

  it("without correction (the update before sampler correction existed) it is not: it follows the guide's distribution", async () => {
    const uncorrected = await expectedUpdateGradient(config({ samplerCorrection: 'none' }));
    expect(maxDiff(uncorrected, target())).toBeGreaterThan(1e-2);
  });

  it('token-level weights are biased when the guide nudges more than one position (documented trade-off)', async () => {
    const tokenLevel = await expectedUpdateGradient(config({ samplerCorrection: 'truncate', samplerCorrectionLevel: 'token', samplerCap: 1e6 }));
    expect(maxDiff(tokenLevel, target())).toBeGreaterThan(1e-3);
  });

  it('reports the gap between π and q and the share the cap corrected', async () => {
    const policy = new TwoStepPolicy(theta);
    // The guide favours token 2 first (π/q < 1/1.05 there: masked).
    const { episode } = episodeOf(policy, 2, 0);
    const r = await grpoUpdate(policy, await policy.createOptimizer(), [episode], new Map([[episode, 1]]), config({ samplerCorrection: 'mask', samplerCorrectionLevel: 'token', samplerCap: 1.05 }), 0);
    expect(r.metrics['sampling/sampling_logp_difference/max']).toBeGreaterThan(0.1);
    expect(r.metrics['sampling/corrected_share']).toBeGreaterThan(0);
    expect(r.metrics['sampling/importance_sampling_ratio/max']).toBeLessThanOrEqual(1.05);
  });
});

