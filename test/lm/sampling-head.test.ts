import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import { logSoftmax } from '../../src/lm/compute/sampling.js';
import { SAMPLING_IO, appendSamplingHead } from '../../src/lm/graph/sampling-head.js';
import { Graph, OnnxSession, hostTensor } from '../../src/onnx/index.js';

/** The host's inverse CDF in float64: the first token whose running sum of exp((l − max)/T) reaches u · total. */
function hostInverseCdf(row: Float32Array, temperature: number, u: number): { token: number; margin: number } {
  let max = -Infinity;
  for (const v of row) max = Math.max(max, v);
  const weights = Array.from(row, (v) => Math.exp((v - max) / temperature));
  const total = weights.reduce((a, b) => a + b, 0);
  const target = u * total;
  let running = 0;
  for (let j = 0; j < weights.length; j++) {
    running += weights[j]!;
    // margin: how far the target is from this token's edges, relative to the total (rounding decides near 0).
    if (running >= target) return { token: j, margin: Math.min(running - target, target - (running - weights[j]!)) / total };
  }
  return { token: weights.length - 1, margin: 0 };
}

async function runHead(vocab: number, logits: Float32Array, uniform: Float32Array, temperature: number): Promise<Record<string, number[]>> {
  const rows = uniform.length;
  const g = new Graph('head');
  appendSamplingHead(g, g.input('logits', 'float32', ['batch', vocab]), vocab);
  const session = await OnnxSession.create(g, { provider: 'cpu' });
  try {
    const out = await session.run({
      logits: hostTensor('float32', [rows, vocab], logits),
      [SAMPLING_IO.uniform]: hostTensor('float32', [rows], uniform),
      [SAMPLING_IO.inverseTemperature]: hostTensor('float32', [1], new Float32Array([1 / temperature])),
    });
    return Object.fromEntries(Object.entries(out).map(([k, t]) => [k, Array.from(t.data as ArrayLike<number | bigint>, Number)]));
  } finally {
    await session.close();
  }
}

describe('the sampling head (next-token draws inside the step graph)', () => {
  // 1000 needs a padded last block (blocks of 32, 32 blocks, 24 zero weights); 961 = 31² needs none;
  // 151,936 is Qwen3's vocabulary (blocks of 390).
  for (const vocab of [1000, 961, 151_936]) {
    it(`draws the host's inverse-CDF token for the same uniform number (vocabulary ${vocab})`, async () => {
      const rng = new Rng(vocab);
      const rows = 64;
      const logits = new Float32Array(rows * vocab);
      // Peaked rows (a few likely tokens, as a trained model gives) and flat ones (random weights).
      for (let b = 0; b < rows; b++) for (let j = 0; j < vocab; j++) logits[b * vocab + j] = rng.normal() * (b % 2 === 0 ? 6 : 0.5);
      const uniform = Float32Array.from({ length: rows }, () => rng.float());
      const temperature = 0.85;
      const out = await runHead(vocab, logits, uniform, temperature);
      let decided = 0;
      for (let b = 0; b < rows; b++) {
        const row = logits.subarray(b * vocab, (b + 1) * vocab);
        const host = hostInverseCdf(row, temperature, uniform[b]!);
        const exact = logSoftmax(Float64Array.from(row, (x) => x / temperature));
        // The drawn token's log-probability is at the sampling temperature, whichever token was drawn.
        expect(out[SAMPLING_IO.logprob]![b]!).toBeCloseTo(exact[out[SAMPLING_IO.token]![b]!]!, 4);
        // float32 running sums: only a target within 1e-5 of a token's edge may land on a neighbour.
        if (host.margin < 1e-5) continue;
        decided++;
        expect(out[SAMPLING_IO.token]![b]).toBe(host.token);
      }
      // At 151,936 tokens a flat row's tokens are each narrower than that margin: only peaked rows decide.
      expect(decided).toBeGreaterThan(rows * (vocab > 10_000 ? 0.45 : 0.9));
    });
  }

  it('gives the most likely token and its log-probability as the greedy outputs', async () => {
    const vocab = 1000;
    const rng = new Rng(3);
    const logits = Float32Array.from({ length: 4 * vocab }, () => rng.normal() * 3);
    const out = await runHead(vocab, logits, new Float32Array(4), 1);
    for (let b = 0; b < 4; b++) {
      const row = logits.subarray(b * vocab, (b + 1) * vocab);
      let best = 0;
      for (let j = 1; j < vocab; j++) if (row[j]! > row[best]!) best = j;
      expect(out[SAMPLING_IO.greedyToken]![b]).toBe(best);
      expect(out[SAMPLING_IO.greedyLogprob]![b]!).toBeCloseTo(logSoftmax(row)[best]!, 4);
    }
  });

  it('never draws a padded position or a token past the vocabulary, even at u just below 1', async () => {
    const vocab = 1000;
    const logits = new Float32Array(3 * vocab); // flat rows: every token equally likely
    const out = await runHead(vocab, logits, new Float32Array([0.9999999, 0.99999994, 0.5]), 1);
    expect(out[SAMPLING_IO.token]![0]).toBe(vocab - 1);
    expect(out[SAMPLING_IO.token]![1]).toBe(vocab - 1);
    expect(out[SAMPLING_IO.token]![2]).toBeGreaterThanOrEqual(499);
    expect(out[SAMPLING_IO.token]![2]).toBeLessThanOrEqual(500);
  });
});
