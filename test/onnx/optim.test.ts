import { describe, expect, it } from 'vitest';
import { Graph, OnnxSession, adamw, adamwReferenceStep, clipByGlobalNorm, clipReference, hostTensor, sgd, sgdReferenceStep, type Optimizer } from './onnx-api.js';

/** Run `steps` updates of `opt` on a float64 vector through onnxruntime; returns p after each step. */
async function runOptimizer(opt: Optimizer, p0: number[], grads: number[][], lr: number): Promise<number[][]> {
  const g = new Graph('opt');
  const n = p0.length;
  const p = g.input('p', 'float64', [n]);
  const gr = g.input('g', 'float64', [n]);
  const state = opt.stateNames.map((s) => g.input(s, 'float64', [n]));
  const step = g.input('step', 'float64', []);
  const lrT = g.input('lr', 'float64', []);
  const out = opt.update({ param: p, grad: gr, state, step, lr: lrT });
  g.output(out.param, 'p_next');
  out.state.forEach((t, i) => g.output(t, `${opt.stateNames[i]}_next`));
  const s = await OnnxSession.create(g, { optimization: 'basic' });
  let cur: Float64Array = Float64Array.from(p0);
  let st: Float64Array[] = opt.stateNames.map(() => new Float64Array(n));
  const history: number[][] = [];
  for (let t = 0; t < grads.length; t++) {
    const feeds = {
      p: hostTensor('float64', [n], cur),
      g: hostTensor('float64', [n], Float64Array.from(grads[t]!)),
      step: hostTensor('float64', [], Float64Array.of(t + 1)),
      lr: hostTensor('float64', [], Float64Array.of(lr)),
      ...Object.fromEntries(opt.stateNames.map((name, i) => [name, hostTensor('float64', [n], st[i]!)])),
    };
    const r = await s.run(feeds);
    cur = r['p_next']!.data as Float64Array;
    st = opt.stateNames.map((name) => r[`${name}_next`]!.data as Float64Array);
    history.push([...cur]);
  }
  await s.close();
  return history;
}

describe('optimizers as ONNX graphs', () => {
  it('AdamW first step matches the hand-computed value', async () => {
    // p=1, g=0.5, lr=0.1, wd=0.01: decay → 0.999; m̂ = 0.5, v̂ = 0.25; step = 0.1·0.5/(0.5+1e-8).
    const [[p]] = (await runOptimizer(adamw({ weightDecay: 0.01 }), [1], [[0.5]], 0.1)) as [[number]];
    expect(p).toBeCloseTo(0.999 - 0.05 / (0.5 + 1e-8), 14);
    expect(p).toBeCloseTo(0.899, 6);
  });

  it('AdamW over several steps equals the TypeScript reference', async () => {
    const cfg = { beta1: 0.8, beta2: 0.95, eps: 1e-6, weightDecay: 0.1 };
    const grads = [[0.3, -1, 2], [0.1, 0.5, -0.2], [-0.4, 0.0, 1.5], [1, 1, 1]];
    const got = await runOptimizer(adamw(cfg), [0.5, -0.25, 2], grads, 0.05);
    const p = Float64Array.of(0.5, -0.25, 2);
    const [m, v] = [new Float64Array(3), new Float64Array(3)];
    grads.forEach((gr, t) => {
      adamwReferenceStep(p, gr, m, v, t + 1, 0.05, cfg);
      got[t]!.forEach((x, i) => expect(x).toBeCloseTo(p[i]!, 12));
    });
  });

  it('SGD with momentum: hand-computed two steps, then the reference (nesterov, decay)', async () => {
    const two = await runOptimizer(sgd({ momentum: 0.9 }), [1], [[0.5], [0.5]], 0.1);
    expect(two[0]![0]).toBeCloseTo(0.95, 14); // buf = 0.5
    expect(two[1]![0]).toBeCloseTo(0.855, 14); // buf = 0.95
    const cfg = { momentum: 0.8, weightDecay: 0.01, nesterov: true };
    const grads = [[1, -2], [0.5, 0.5], [-1, 3]];
    const got = await runOptimizer(sgd(cfg), [0.2, 0.4], grads, 0.3);
    const p = Float64Array.of(0.2, 0.4);
    const buf = new Float64Array(2);
    grads.forEach((gr, t) => {
      sgdReferenceStep(p, gr, buf, 0.3, cfg);
      got[t]!.forEach((x, i) => expect(x).toBeCloseTo(p[i]!, 12));
    });
  });

  it('plain SGD has no state', async () => {
    expect(sgd().stateNames).toEqual([]);
    const [[p]] = (await runOptimizer(sgd(), [1], [[2]], 0.25)) as [[number]];
    expect(p).toBe(0.5);
  });

  it('global-norm clipping: [3, 4] with max 1 becomes [0.6, 0.8]; below the max unchanged', async () => {
    const g = new Graph('clip');
    const a = g.input('a', 'float64', [2]);
    const b = g.input('b', 'float64', [1]);
    for (const [suffix, limit] of [['big', 1], ['small', 10]] as const) {
      const { grads, norm } = clipByGlobalNorm([a, b], limit);
      g.output(grads[0]!, `a_${suffix}`);
      g.output(grads[1]!, `b_${suffix}`);
      g.output(norm, `norm_${suffix}`);
    }
    const s = await OnnxSession.create(g, { optimization: 'basic' });
    const r = await s.run({
      a: hostTensor('float64', [2], Float64Array.of(3, 0)),
      b: hostTensor('float64', [1], Float64Array.of(4)),
    });
    expect(r['norm_big']!.data[0]).toBe(5);
    expect([...(r['a_big']!.data as Float64Array), ...(r['b_big']!.data as Float64Array)].map((x) => +x.toFixed(6))).toEqual([0.6, 0, 0.8]);
    expect([...(r['a_small']!.data as Float64Array)]).toEqual([3, 0]);
    const ref = [Float64Array.of(3, 0), Float64Array.of(4)];
    expect(clipReference(ref, 1)).toBe(5);
    expect(ref[1]![0]).toBeCloseTo((r['b_big']!.data as Float64Array)[0]!, 15);
    await s.close();
  });
});
