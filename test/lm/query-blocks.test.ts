import { describe, expect, it } from 'vitest';
import { causalBlocks, causalQueryBlocks, groupedQueryAttention } from '../../src/lm/graph/layers.js';
import { Graph, OnnxSession, grad, hostTensor, ops } from '../../src/onnx/index.js';

const dims = { numHeads: 4, numKvHeads: 2, headDim: 8 };

/** Whole-sequence attention in 3 and 4 query blocks against one block, at run-time lengths from 1 (one block holds all) to 257. */
describe('causalQueryBlocks', () => {
  it('gives the values and gradients of one block, with left padding, at any length', async () => {
    const g = new Graph();
    const q = g.input('q', 'float32', [2, 4, 'T', 8]);
    const k = g.input('k', 'float32', [2, 2, 'T', 8]);
    const v = g.input('v', 'float32', [2, 2, 'T', 8]);
    const bias = g.input('bias', 'float32', [2, 1, 'T', 'T']);
    const r = g.input('r', 'float32', [2, 4, 'T', 8]);
    for (const [name, blocks] of [['one', 1], ['three', 3], ['four', 4]] as const) {
      const out = blocks === 1 ? groupedQueryAttention(q, k, v, bias, dims) : causalQueryBlocks(q, k, v, causalBlocks(bias, blocks), dims);
      g.output(out, `${name}.out`);
      const grads = grad(ops.reduceSum(ops.mul(out, r)), [q, k, v]);
      for (const [t, n] of [[q, 'q'], [k, 'k'], [v, 'v']] as const) g.output(grads.get(t)!, `${name}.d${n}`);
    }
    const s = await OnnxSession.create(g, { optimization: 'all' });
    try {
      for (const T of [1, 5, 64, 70, 130, 257]) {
        const fill = (n: number, f: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * f + T));
        // Row 0 unpadded; row 1 left-padded by one position (its first key hidden from every query).
        const b = new Float32Array(2 * T * T);
        for (let row = 0; row < 2; row++) for (let i = 0; i < T; i++) for (let j = 0; j < T; j++) b[row * T * T + i * T + j] = j > i || (row === 1 && j === 0 && i > 0) ? -1e9 : 0;
        const out = await s.run({
          q: hostTensor('float32', [2, 4, T, 8], fill(64 * T, 0.37)),
          k: hostTensor('float32', [2, 2, T, 8], fill(32 * T, 0.71)),
          v: hostTensor('float32', [2, 2, T, 8], fill(32 * T, 1.3)),
          bias: hostTensor('float32', [2, 1, T, T], b),
          r: hostTensor('float32', [2, 4, T, 8], fill(64 * T, 0.53)),
        });
        for (const n of ['out', 'dq', 'dk', 'dv']) {
          const one = out[`one.${n}`]!.data as Float32Array;
          for (const blocked of ['three', 'four']) {
            const got = out[`${blocked}.${n}`]!.data as Float32Array;
            expect(got.length, `${n} at T = ${T}`).toBe(one.length);
            got.forEach((x, i) => expect(x, `${blocked}: ${n}[${i}] at T = ${T}`).toBeCloseTo(one[i]!, 5));
          }
        }
      }
    } finally {
      await s.close();
    }
  });
});
