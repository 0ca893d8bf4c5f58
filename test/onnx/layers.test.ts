import { describe, expect, it } from 'vitest';
import { checkGradients } from './gradcheck.js';
import {
  Graph, OnnxSession, add, attend, logProbsAndEntropy, silu, attention, causalMask, concat, grad, hostTensor, layerNorm, matmul, mul, reduceSum, rmsNorm, rope, ropeTables, setNodeGradient, softmax,
  softmaxCrossEntropy, split, tokenLogProbs, transpose, type Feeds, type Tensor,
} from './onnx-api.js';

async function run(g: Graph, feeds: Feeds = {}): Promise<Record<string, number[]>> {
  const s = await OnnxSession.create(g, { optimization: 'basic' });
  const out = await s.run(feeds);
  await s.close();
  return Object.fromEntries(Object.entries(out).map(([k, t]) => [k, Array.from(t.data as ArrayLike<number>, Number)]));
}

describe('composite layers: values', () => {
  it('softmaxCrossEntropy ignores masked positions and matches a hand computation', async () => {
    const g = new Graph();
    const logits = g.constant('float64', [0, 0, Math.log(3), 2, 0, 0, 5, 5, 5], [3, 3]);
    const targets = g.constant('int64', [2, 0, -100], [3]);
    g.output(softmaxCrossEntropy(logits, targets, { ignoreIndex: -100 }), 'mean');
    g.output(softmaxCrossEntropy(logits, targets, { ignoreIndex: -100, reduction: 'none' }), 'each');
    g.output(softmaxCrossEntropy(logits, g.constant('int64', [2, 0, 1], [3]), { mask: g.constant('bool', [1, 0, 1], [3]), reduction: 'sum' }), 'masked');
    const r = await run(g);
    const nll0 = -Math.log(3 / 5); // softmax([0, 0, ln 3])[2] = 3/5
    const nll1 = -(2 - Math.log(Math.exp(2) + 2));
    expect(r['each']![0]).toBeCloseTo(nll0, 12);
    expect(r['each']![1]).toBeCloseTo(nll1, 12);
    expect(r['each']![2]).toBe(0);
    expect(r['mean']![0]).toBeCloseTo((nll0 + nll1) / 2, 12);
    expect(r['masked']![0]).toBeCloseTo(nll0 + Math.log(3), 12);
  });

  it('tokenLogProbs are log-softmax values at the targets', async () => {
    const g = new Graph();
    g.output(tokenLogProbs(g.constant('float64', [1, 2, 3, 1, 1, 1], [2, 3]), g.constant('int64', [2, 1], [2])), 'lp');
    const r = await run(g);
    expect(r['lp']![0]).toBeCloseTo(3 - Math.log(Math.exp(1) + Math.exp(2) + Math.exp(3)), 12);
    expect(r['lp']![1]).toBeCloseTo(-Math.log(3), 12);
  });

  it('causalMask: static and run-time shapes agree, including a KV-cache offset', async () => {
    const g = new Graph();
    const scores = g.input('s', 'float32', ['H', 'T', 'S']);
    g.output(causalMask(scores), 'dyn');
    g.output(causalMask(g.constant('float32', new Array(6).fill(0), [2, 3])), 'static');
    const r = await run(g, { s: hostTensor('float32', [1, 2, 3], new Float32Array(6)) });
    // Query i sits at position S − T + i = 1 + i: row 0 sees keys 0..1, row 1 sees 0..2.
    expect(r['static']).toEqual([1, 1, 0, 1, 1, 1]);
    expect(r['dyn']).toEqual(r['static']);
  });

  it('rope leaves position 0 unchanged and rotates pairs (i, i + d/2) by p·θ^(−2i/d)', async () => {
    const T = 3;
    const d = 4;
    const { cos, sin } = ropeTables(T, d, 100);
    const g = new Graph();
    const x = g.constant('float64', [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4], [T, d]);
    g.output(rope(x, g.constant('float64', cos, [T, d]), g.constant('float64', sin, [T, d])), 'y');
    const y = (await run(g))['y']!;
    expect(y.slice(0, 4).map((v) => +v.toFixed(12))).toEqual([1, 2, 3, 4]);
    const p = 2;
    const a0 = p; // pair 0: θ^0
    const a1 = p * 100 ** (-2 / d); // pair 1
    expect(y[8]).toBeCloseTo(1 * Math.cos(a0) - 3 * Math.sin(a0), 12);
    expect(y[10]).toBeCloseTo(3 * Math.cos(a0) + 1 * Math.sin(a0), 12);
    expect(y[9]).toBeCloseTo(2 * Math.cos(a1) - 4 * Math.sin(a1), 12);
  });

  it('rmsNorm normalises the last axis by its root mean square', async () => {
    const g = new Graph();
    g.output(rmsNorm(g.constant('float64', [3, 4], [1, 2]), g.constant('float64', [1, 2], [2]), 0), 'y');
    const rms = Math.sqrt((9 + 16) / 2);
    const y = (await run(g))['y']!;
    expect(y[0]).toBeCloseTo(3 / rms, 12);
    expect(y[1]).toBeCloseTo((2 * 4) / rms, 12);
  });
});

describe('composite layers: gradients (float64)', () => {
  it('rmsNorm', () => checkGradients([{ shape: [2, 4] }, { shape: [4] }], (_, [x, w]) => rmsNorm(x!, w!, 1e-6)));
  it('layerNorm', () => checkGradients([{ shape: [2, 4] }, { shape: [4] }, { shape: [4] }], (_, [x, w, b]) => layerNorm(x!, w!, b!)));
  it('rope', () =>
    checkGradients([{ shape: [2, 3, 4] }], (g, [x]) => {
      const { cos, sin } = ropeTables(3, 4);
      return rope(x!, g.constant('float64', cos, [3, 4]), g.constant('float64', sin, [3, 4]));
    }));
  it('rope, with gradients for the tables too', () =>
    checkGradients([{ shape: [2, 3, 4] }, { shape: [3, 4] }, { shape: [3, 4] }], (_, [x, cos, sin]) => rope(x!, cos!, sin!)));
  it('token log-probs and entropy from one log-softmax (both differentiated)', () =>
    checkGradients([{ shape: [2, 3, 5] }], (g, [logits]) => {
      const { logprobs, entropy } = logProbsAndEntropy(logits!, g.constant('int64', [0, 4, 2, 2, 1, 3], [2, 3]));
      return add(logprobs, mul(entropy, 0.3));
    }));
  it('tokenLogProbs with a target repeated across positions', () =>
    checkGradients([{ shape: [4, 3] }], (g, [logits]) => tokenLogProbs(logits!, g.constant('int64', [1, 1, 0, 2], [4]))));
  it('silu', () => checkGradients([{ shape: [3, 5] }], (_, [x]) => silu(x!)));
  it('causal attention in query blocks (3 uneven blocks; keys with a cache offset)', () =>
    checkGradients([{ shape: [2, 5, 4] }, { shape: [2, 7, 4] }, { shape: [2, 7, 4] }], (_, [q, k, v]) => attention(q!, k!, v!, { queryBlocks: 3 })));
  it('causal attention (q, k, v)', () =>
    checkGradients([{ shape: [2, 3, 4] }, { shape: [2, 3, 4] }, { shape: [2, 3, 4] }], (_, [q, k, v]) => attention(q!, k!, v!)));
  it('attend over two value blocks, with a mask (the Σ dO·O identity in the weights\' gradient)', () =>
    checkGradients([{ shape: [2, 3, 4] }, { shape: [2, 2, 4] }, { shape: [2, 3, 4] }, { shape: [2, 2, 4] }, { shape: [2, 3, 4] }], (g, [q, k1, k2, v1, v2]) => {
      const scores = matmul(q!, transpose(concat([k1!, k2!], 1), [0, 2, 1]));
      const bias = g.constant('float64', [0, -1e9, 0, 0, 0, 0, 0, 0, -1e9, 0, 0, 0, 0, 0, 0], [3, 5]);
      return attend(add(scores, bias), (p) => {
        const [p1, p2] = split(p, -1, [2, 3]);
        return add(matmul(p1!, v1!), matmul(p2!, v2!));
      });
    }));
  it('cross-entropy with ignore index and mask', () =>
    checkGradients([{ shape: [4, 5] }], (g, [logits]) =>
      softmaxCrossEntropy(logits!, g.constant('int64', [1, -100, 4, 0], [4]), { ignoreIndex: -100, mask: g.constant('float64', [1, 1, 0.5, 2], [4]) })));
});

describe('attention in query blocks', () => {
  it('gives the values of one block', async () => {
    const g = new Graph();
    const q = g.input('q', 'float32', [1, 2, 8, 4]);
    const k = g.input('k', 'float32', [1, 2, 10, 4]);
    const v = g.input('v', 'float32', [1, 2, 10, 4]);
    g.output(attention(q, k, v, { queryBlocks: 1 }), 'one');
    g.output(attention(q, k, v, { queryBlocks: 3 }), 'three');
    const fill = (n: number, s: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * s));
    const out = await run(g, { q: hostTensor('float32', [1, 2, 8, 4], fill(64, 0.7)), k: hostTensor('float32', [1, 2, 10, 4], fill(80, 1.3)), v: hostTensor('float32', [1, 2, 10, 4], fill(80, 0.4)) });
    out['three']!.forEach((x, i) => expect(x).toBeCloseTo(out['one']![i]!, 6));
    // Each block scores only the keys up to its last query (query i sits at position 2 + i).
    const scoreShapes = g.nodes.filter((n) => n.opType === 'Softmax').map((n) => n.outputs[0]!.shape.slice(-2).join('×'));
    expect(scoreShapes).toEqual(['8×10', '2×4', '3×7', '3×10']);
  });
});

describe('attend: the weights\' gradient', () => {
  const scoresOf = (g: Graph): { q: Tensor; k: Tensor; v: Tensor; s: Tensor } => {
    const q = g.input('q', 'float32', [2, 16, 8]);
    const k = g.input('k', 'float32', [2, 16, 8]);
    const v = g.input('v', 'float32', [2, 16, 8]);
    return { q, k, v, s: matmul(q, transpose(k, [0, 2, 1])) };
  };
  /** Reductions over the last axis of [2, 16, 16] tensors (the weights) in the whole graph. */
  const weightReductions = (g: Graph): number =>
    g.nodes.filter((n) => n.opType === 'ReduceSum' && n.inputs[0]!.shape.join(',') === '2,16,16').length;

  it('reduces over the [T, D] output, never over the [T, S] weights', () => {
    const g = new Graph();
    const { q, k, v, s } = scoresOf(g);
    const loss = reduceSum(mul(attend(s, (p) => matmul(p, v)), 1.5));
    grad(loss, [q, k, v]);
    expect(weightReductions(g)).toBe(0);
    // The plain softmax rule, for contrast, reduces over the weights once.
    const h = new Graph();
    const plain = scoresOf(h);
    grad(reduceSum(mul(matmul(softmax(plain.s, -1), plain.v), 1.5)), [plain.q, plain.k, plain.v]);
    expect(weightReductions(h)).toBe(1);
  });

  it('refuses an output that does not keep the scores\' leading axes', () => {
    const g = new Graph();
    const { v, s } = scoresOf(g);
    expect(() => attend(s, (p) => transpose(matmul(p, v), [1, 0, 2]))).toThrow(/leading axes/);
  });

  it('gradOf refuses tensors computed before the node being differentiated', () => {
    const g = new Graph();
    const x = g.input('x', 'float32', [3]);
    const early = mul(x, 2);
    const y = mul(early, 3);
    setNodeGradient(y, ({ gradOf }) => [gradOf(early), undefined]);
    expect(() => grad(reduceSum(y), [x])).toThrow(/only tensors computed after/);
  });
});
