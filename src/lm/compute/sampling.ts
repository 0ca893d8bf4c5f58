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
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i]! > max) max = logits[i]!;
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i]! - max);
  const logZ = max + Math.log(sum);
  const out = new Float64Array(logits.length);
  for (let i = 0; i < logits.length; i++) out[i] = logits[i]! - logZ;
  return out;
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
  const scaled = new Float64Array(n);
  for (let i = 0; i < n; i++) scaled[i] = logits[i]! / temperature;
  const topK = options.topK ?? 0;
  const topP = options.topP ?? 1;
  if (!((topK > 0 && topK < n) || topP < 1)) {
    // The whole distribution in vocabulary order: the same arithmetic as below without the
    // index arrays (this runs for every row of every decode step).
    const logp = logSoftmax(scaled);
    let total = 0;
    for (let j = 0; j < n; j++) total += Math.exp(logp[j]!);
    let u = rng.float() * total;
    for (let j = 0; j < n; j++) {
      u -= Math.exp(logp[j]!);
      if (u <= 0) return j;
    }
    return n - 1;
  }
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
  let u = rng.float() * total;
  for (let j = 0; j < keep; j++) {
    u -= Math.exp(logp[j]!);
    if (u <= 0) return order[j]!;
  }
  return order[keep - 1]!;
}
