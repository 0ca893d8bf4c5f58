import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import { finiteDifferenceCheck } from './gradcheck.js';
import { Graph, Runtime, TrainStep, adamw, decoderLM, hostTensor, initDecoderWeights, softmaxCrossEntropy } from './onnx-api.js';

describe('whole decoder transformer', () => {
  it('gradients of every parameter match central differences (float64)', async () => {
    const g = new Graph('decoder-gradcheck');
    const cfg = { vocab: 7, dim: 8, layers: 1, heads: 2, hidden: 8, seqLen: 4, batch: 2, dtype: 'float64' as const };
    const m = decoderLM(g, cfg);
    const targets = g.input('targets', 'int64', [2, 4]);
    const loss = softmaxCrossEntropy(m.logits, targets, { ignoreIndex: -100 });
    const rng = new Rng(3);
    // Larger init than training uses so that attention and norms are far from linear.
    const values = m.params.map((p) => {
      const n = (p.shape as number[]).reduce((a, b) => a * b, 1);
      return Float64Array.from({ length: n }, () => (p.rank === 1 ? 1 + 0.3 * rng.normal() : 0.5 * rng.normal()));
    });
    const feeds = {
      ids: hostTensor('int64', [2, 4], BigInt64Array.from([1, 3, 3, 6, 0, 2, 5, 1].map(BigInt))),
      targets: hostTensor('int64', [2, 4], BigInt64Array.from([3, 3, 6, -100, 2, 5, 1, 4].map(BigInt))),
    };
    const worst = await finiteDifferenceCheck(g, loss, m.params, values, feeds, { tol: 1e-6 });
    expect(worst).toBeLessThan(1e-6);
  });

  it('a small transformer trains through the runtime: the loss falls', async () => {
    const rt = await Runtime.create({ provider: 'cpu' });
    try {
      const B = 4;
      const T = 8;
      const V = 16;
      const g = new Graph('train');
      const m = decoderLM(g, { vocab: V, dim: 32, layers: 1, heads: 2, seqLen: T, batch: B });
      const targets = g.input('targets', 'int64', [B, T]);
      const loss = softmaxCrossEntropy(m.logits, targets);
      const rng = new Rng(11);
      const step = await TrainStep.create(rt, {
        graph: g, loss, params: m.params, optimizer: adamw({ weightDecay: 0.01 }), clipNorm: 1,
        initial: initDecoderWeights(m.shapes, 'float32', () => rng.normal()),
      });
      // Task: each token is followed by (token + 3) mod V — learnable from the current token alone.
      const batch = () => {
        const ids = new BigInt64Array(B * T);
        const tg = new BigInt64Array(B * T);
        for (let b = 0; b < B; b++) {
          let tok = rng.int(V);
          for (let t = 0; t < T; t++) {
            ids[b * T + t] = BigInt(tok);
            tok = (tok + 3) % V;
            tg[b * T + t] = BigInt(tok);
          }
        }
        return { ids: hostTensor('int64', [B, T], ids), targets: hostTensor('int64', [B, T], tg) };
      };
      const losses: number[] = [];
      for (let i = 0; i < 40; i++) losses.push((await step.step(batch(), 1e-2)).loss);
      expect(losses[0]).toBeGreaterThan(Math.log(V) - 0.3);
      expect(losses[39]!).toBeLessThan(0.5 * losses[0]!);
      expect(step.stepCount).toBe(40);
      const params = await step.parameters();
      expect(Object.keys(params)).toContain('lm_head');
      expect(Number.isFinite(params['wte']![0] as number)).toBe(true);
      step.close();
    } finally {
      await rt.close();
    }
  });
});
