import type { Rng } from '../../base/rng.js';

/** How the next token is chosen from the model's distribution. */
export interface SamplingOptions {
  /** 0 picks the most likely token (greedy); higher flattens the distribution. Default 1. */
  readonly temperature?: number;
  /** Keep only the k most likely tokens (0 or absent: all). */
  readonly topK?: number;
  /** Keep the smallest set of most likely tokens whose probability reaches p (1 or absent: all). */
  readonly topP?: number;
}

/**
 * Log-softmax of a logits row, computed in float64 for stability.
 *
 * @example
 * logSoftmax(new Float32Array([0, 0])); // [-0.693…, -0.693…]
 */
export function logSoftmax(logits: ArrayLike<number>): Float64Array {
  const logZ = logNormaliser(logits);
  const out = new Float64Array(logits.length);
  for (let i = 0; i < logits.length; i++) out[i] = logits[i]! - logZ;
  return out;
}

/** log Σ exp(values), shifted by the maximum for stability: the normaliser of every log-softmax here. */
function logNormaliser(values: ArrayLike<number>): number {
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += Math.exp(values[i]! - max);
  return max + Math.log(sum);
}

/**
 * Index of the largest value (the lowest index among ties).
 *
 * @example
 * argmax([1, 3, 3]); // 1
 */
export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

/**
 * Draws the next token id from one row of logits with temperature, top-k and top-p
 * (applied in that order, as Hugging Face does). Temperature 0 is greedy and uses no
 * randomness.
 *
 * @example
 * sampleToken(logits, { temperature: 0.7, topP: 0.9 }, new Rng(1));
 */
export function sampleToken(logits: ArrayLike<number>, options: SamplingOptions, rng: Rng): number {
  const temperature = options.temperature ?? 1;
  if (temperature <= 0) return argmax(logits);
  const n = logits.length;
  if (!truncates(options, n)) return drawFull(logits, temperature, rng, new Float64Array(n), new Float64Array(n)).token;
  return drawTruncated(logits, options, temperature, rng).token;
}

/** Whether top-k or top-p leave out part of a vocabulary of n tokens. */
function truncates(options: SamplingOptions, n: number): boolean {
  const topK = options.topK ?? 0;
  return (topK > 0 && topK < n) || (options.topP ?? 1) < 1;
}

/**
 * A draw from the tokens top-k and top-p keep at `temperature`, with its log-probability under
 * that renormalised distribution: log-softmax over the kept tokens, the distribution sampled.
 */
function drawTruncated(logits: ArrayLike<number>, options: SamplingOptions, temperature: number, rng: Rng): { token: number; logprob: number } {
  const n = logits.length;
  const topK = options.topK ?? 0;
  const topP = options.topP ?? 1;
  const scaled = new Float64Array(n);
  for (let i = 0; i < n; i++) scaled[i] = logits[i]! / temperature;
  let order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => scaled[b]! - scaled[a]! || a - b);
  if (topK > 0 && topK < n) order = order.slice(0, topK);
  const logp = logSoftmax(order.map((i) => scaled[i]!));
  let keep = order.length;
  if (topP < 1) {
    let cumulative = 0;
    for (let j = 0; j < order.length; j++) {
      cumulative += Math.exp(logp[j]!);
      if (cumulative >= topP) {
        keep = j + 1;
        break;
      }
    }
  }
  let total = 0;
  for (let j = 0; j < keep; j++) total += Math.exp(logp[j]!);
  const logTotal = Math.log(total);
  let u = rng.float() * total;
  for (let j = 0; j < keep; j++) {
    u -= Math.exp(logp[j]!);
    if (u <= 0) return { token: order[j]!, logprob: logp[j]! - logTotal };
  }
  return { token: order[keep - 1]!, logprob: logp[keep - 1]! - logTotal };
}

/**
 * A draw from the whole distribution at `temperature` (no top-k/top-p), with the arithmetic of
 * {@link logSoftmax} and the inverse-CDF walk of {@link sampleToken}: the scaled logits' log-softmax,
 * their probabilities summed in vocabulary order, a walk down from `u · total`. Each probability
 * is computed once, into `exps`, and read again by the walk (the same values, so the same token
 * for the same random number). Also returns `logZ`, the log-normaliser of the scaled logits.
 */
function drawFull(logits: ArrayLike<number>, temperature: number, rng: Rng, scaled: Float64Array, exps: Float64Array): { token: number; logZ: number } {
  const n = logits.length;
  for (let i = 0; i < n; i++) scaled[i] = logits[i]! / temperature;
  const logZ = logNormaliser(n === scaled.length ? scaled : scaled.subarray(0, n));
  let total = 0;
  for (let j = 0; j < n; j++) {
    const p = Math.exp(scaled[j]! - logZ);
    exps[j] = p;
    total += p;
  }
  let u = rng.float() * total;
  for (let j = 0; j < n; j++) {
    u -= exps[j]!;
    if (u <= 0) return { token: j, logZ };
  }
  return { token: n - 1, logZ };
}

/**
 * log-softmax(logits / temperature)[token], computed as {@link logSoftmax} computes it, without the
 * other entries (temperature 1: the logits as they are; x / 1 is exact).
 */
function logProbability(logits: ArrayLike<number>, token: number, temperature: number, scratch: Float64Array): number {
  if (temperature === 1) return logits[token]! - logNormaliser(logits);
  const n = logits.length;
  const scaled = n <= scratch.length ? scratch.subarray(0, n) : new Float64Array(n);
  for (let i = 0; i < n; i++) scaled[i] = logits[i]! / temperature;
  return scaled[token]! - logNormaliser(scaled);
}

/**
 * Draws tokens as {@link sampleToken} does (the same token for the same random state) and
 * returns each with its log-probability under the distribution it was drawn from, log q: the
 * logits at the temperature, log-softmax(logits / T)[token], renormalised over the tokens top-k
 * and top-p keep (a trainer compares it with the policy's log-prob at T to weigh the token;
 * greedy decoding, T = 0, reports log-softmax(logits)[token]). Made once per
 * generation call: it keeps its scratch buffers, and without top-k/top-p the draw's own
 * normaliser is the log-probability's, so each row costs two passes of `exp` over the vocabulary
 * (a decode step runs it for every row).
 *
 * @example
 * const sampler = new TokenSampler(vocabSize);
 * const { token, logprob } = sampler.draw(rowLogits, { temperature: 0.8 }, rng);
 */
export class TokenSampler {
  private readonly scaled: Float64Array;
  private readonly exps: Float64Array;

  constructor(vocabSize: number) {
    this.scaled = new Float64Array(vocabSize);
    this.exps = new Float64Array(vocabSize);
  }

  /** The next token from one row of logits, and its log-probability under the distribution sampled (T = 1 when greedy). */
  draw(logits: ArrayLike<number>, options: SamplingOptions, rng: Rng): { token: number; logprob: number } {
    const temperature = options.temperature ?? 1;
    const n = logits.length;
    if (temperature > 0 && truncates(options, n)) return drawTruncated(logits, options, temperature, rng);
    if (temperature <= 0 || n > this.scaled.length) {
      const token = sampleToken(logits, options, rng);
      return { token, logprob: logProbability(logits, token, temperature > 0 ? temperature : 1, this.scaled) };
    }
    const { token, logZ } = drawFull(logits, temperature, rng, this.scaled, this.exps);
    return { token, logprob: this.scaled[token]! - logZ };
  }
}
