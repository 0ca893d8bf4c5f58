/**
 * ResidentOptimizer: gradients summed into resident accumulators over micro-batches, then one
 * apply graph (clip + non-finite guard + AdamW). Checked step for step against the TypeScript
 * reference, and for what it keeps resident (session stats).
 */
import { describe, expect, it } from 'vitest';
import { Graph, ResidentOptimizer, Runtime, adamw, adamwReferenceStep, appendGradientAccumulation, clipReference, grad, hostTensor, nextName, accumulatorName } from './onnx-api.js';

/** Gradient graph of loss = Σ (x·w − y)² · s for x [n, 2], w [2] (s scales the loss: ∞ makes it non-finite). */
async function gradientSession(rt: Runtime) {
  const g = new Graph('quad');
  const x = g.input('x', 'float32', ['n', 2]);
  const y = g.input('y', 'float32', ['n']);
  const s = g.input('s', 'float32', []);
  const w = g.input('w', 'float32', [2]);
  const err = x.matmul(w.unsqueeze([1])).squeeze([1]).sub(y);
  const loss = err.mul(err).sum().mul(s);
  g.output(loss, 'loss');
  appendGradientAccumulation(g, [['w', grad(loss, [w]).get(w)!]]);
  return rt.session(g);
}

function referenceGrad(x: number[][], y: number[], w: Float32Array, s: number): Float64Array {
  const out = new Float64Array(2);
  x.forEach((row, i) => {
    const r = row[0]! * w[0]! + row[1]! * w[1]! - y[i]!;
    row.forEach((v, j) => (out[j] = out[j]! + 2 * r * v * s));
  });
  return out;
}

const X1 = [[1, 2], [3, -1]];
const Y1 = [1, -2];
const X2 = [[0.5, 4]];
const Y2 = [3];
const feedsOf = (x: number[][], y: number[], s = 1) => ({
  x: hostTensor('float32', [x.length, 2], Float32Array.from(x.flat())),
  y: hostTensor('float32', [y.length], Float32Array.from(y)),
  s: hostTensor('float32', [], Float32Array.of(s)),
});

describe('ResidentOptimizer', () => {
  it('accumulates micro-batches, clips and steps AdamW like the reference, keeping state resident', async () => {
    const rt = await Runtime.create({ provider: 'cpu' });
    const session = await gradientSession(rt);
    const cfg = { beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0.05 };
    const opt = await ResidentOptimizer.create(rt, [{ name: 'w', dims: [2], data: Float32Array.of(0.3, -0.2) }], adamw(cfg));
    const p = Float32Array.of(0.3, -0.2);
    const [m, v] = [new Float32Array(2), new Float32Array(2)];
    for (let t = 1; t <= 5; t++) {
      for (const [x, y] of [[X1, Y1], [X2, Y2]] as const) {
        const { feeds, into } = opt.accumulation();
        const out = await session.run({ ...feedsOf(x, y), ...feeds, w: opt.parameter('w') }, { outputs: [nextName(accumulatorName('w'))], ...(into ? { into } : {}) });
        opt.accumulated(out);
      }
      const g = referenceGrad(X1, Y1, p, 1);
      referenceGrad(X2, Y2, p, 1).forEach((gi, i) => (g[i] = g[i]! + gi));
      const norm = clipReference([g], 2);
      const r = await opt.step(0.05, 2);
      expect(r.nonFinite).toEqual([]);
      expect(r.gradNorm).toBeCloseTo(norm, 3);
      adamwReferenceStep(p, g, m, v, t, 0.05, cfg);
      const got = await opt.read('w');
      got.forEach((val, i) => expect(Math.abs(val - p[i]!)).toBeLessThan(1e-6 * Math.max(1, Math.abs(p[i]!))));
    }
    expect(opt.stepCount).toBe(5);
    // Parameters, moments and accumulators were fed from resident buffers: nothing but the
    // three scalars crossed into the apply graph, and only Σg² of the one parameter came back.
    expect(opt.stats.feedBytes).toBe(5 * 3 * 4);
    expect(opt.stats.fetchBytes).toBe(0);
    expect(opt.normStats.feedBytes).toBe(0);
    expect(opt.normStats.fetchBytes).toBe(5 * 4);
    const state = await opt.exportState();
    state.state.get('m')!.get('w')!.forEach((val, i) => expect(Math.abs(val - m[i]!)).toBeLessThan(1e-6 * Math.abs(m[i]!)));
    opt.close();
    await rt.close();
  });

  it('skips the update and names the parameter when a gradient is not finite', async () => {
    const rt = await Runtime.create({ provider: 'cpu' });
    const session = await gradientSession(rt);
    const opt = await ResidentOptimizer.create(rt, [{ name: 'w', dims: [2], data: Float32Array.of(0.3, -0.2) }], adamw());
    const { feeds, into } = opt.accumulation();
    opt.accumulated(await session.run({ ...feedsOf(X1, Y1, Number.POSITIVE_INFINITY), ...feeds, w: opt.parameter('w') }, { outputs: [nextName(accumulatorName('w'))], ...(into ? { into } : {}) }));
    const r = await opt.step(0.1, 1);
    expect(r.nonFinite).toEqual(['w']);
    expect(Number.isNaN(r.gradNorm)).toBe(true);
    expect(opt.stepCount).toBe(0);
    expect([...(await opt.read('w'))]).toEqual([Math.fround(0.3), Math.fround(-0.2)]);
    // The accumulators were reset: the next finite step is the first AdamW step.
    const a = opt.accumulation();
    opt.accumulated(await session.run({ ...feedsOf(X1, Y1), ...a.feeds, w: opt.parameter('w') }, { outputs: [nextName(accumulatorName('w'))], ...(a.into ? { into: a.into } : {}) }));
    expect((await opt.step(0.1, 0)).nonFinite).toEqual([]);
    expect(opt.stepCount).toBe(1);
    const state = await opt.exportState();
    expect(state.step).toBe(1);
    expect(() => opt.importState({ step: 1, state: new Map([['m', new Map([['w', new Float32Array(3)]])]]) })).toThrow(/another model/);
    opt.close();
    await rt.close();
  });
});
