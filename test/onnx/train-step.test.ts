import { describe, expect, it } from 'vitest';
import { Graph, Runtime, TrainStep, adamw, type Tensor, adamwReferenceStep, clipReference, hostTensor, sgd, sgdReferenceStep } from './onnx-api.js';

/** loss = mean((x·w − y)²) for x [n, k], w [k]: gradient (2/n)·xᵀ(xw − y). */
function linearGrad(x: number[][], y: number[], w: Float64Array): Float64Array {
  const n = x.length;
  const g = new Float64Array(w.length);
  x.forEach((row, i) => {
    const r = row.reduce((s, v, j) => s + v * w[j]!, 0) - y[i]!;
    row.forEach((v, j) => (g[j] = g[j]! + (2 / n) * r * v));
  });
  return g;
}

function regression(): { graph: Graph; loss: Tensor; w: Tensor; pred: Tensor } {
  const graph = new Graph('regression');
  const x = graph.input('x', 'float64', [3, 2]);
  const y = graph.input('y', 'float64', [3]);
  const w = graph.input('w', 'float64', [2]);
  const pred = x.matmul(w.unsqueeze([1])).squeeze([1]);
  const err = pred.sub(y);
  return { graph, loss: err.mul(err).mean(), w, pred };
}

const X = [[1, 2], [3, -1], [0.5, 4]];
const Y = [1, -2, 3];
const batch = { x: hostTensor('float64', [3, 2], Float64Array.from(X.flat())), y: hostTensor('float64', [3], Float64Array.from(Y)) };

describe('TrainStep (fused forward + backward + clip + update, state resident between steps)', () => {
  it('AdamW with clipping follows the TypeScript reference step for step', async () => {
    const rt = await Runtime.create({ provider: 'cpu', optimization: 'basic' });
    const { graph, loss, w } = regression();
    const cfg = { weightDecay: 0.05, beta2: 0.99 };
    const ts = await TrainStep.create(rt, { graph, loss, params: [w], optimizer: adamw(cfg), clipNorm: 0.5, initial: { w: Float64Array.of(0.3, -0.2) } });
    const p = Float64Array.of(0.3, -0.2);
    const [m, v] = [new Float64Array(2), new Float64Array(2)];
    for (let t = 1; t <= 4; t++) {
      const g = linearGrad(X, Y, p);
      const norm = clipReference([g], 0.5);
      const r = await ts.step(batch, 0.1);
      expect(r.gradNorm).toBeCloseTo(norm, 10);
      adamwReferenceStep(p, g, m, v, t, 0.1, cfg);
      const got = (await ts.parameters())['w'] as Float64Array;
      got.forEach((val, i) => expect(val).toBeCloseTo(p[i]!, 12));
    }
    ts.close();
    await rt.close();
  });

  it('SGD with momentum follows the reference and the loss falls', async () => {
    const rt = await Runtime.create({ provider: 'cpu', optimization: 'basic' });
    const { graph, loss, w, pred } = regression();
    const ts = await TrainStep.create(rt, {
      graph, loss, params: [w], optimizer: sgd({ momentum: 0.5 }), initial: { w: Float64Array.of(0, 0) }, extraOutputs: { pred },
    });
    const p = new Float64Array(2);
    const buf = new Float64Array(2);
    const losses: number[] = [];
    for (let t = 1; t <= 5; t++) {
      const g = linearGrad(X, Y, p);
      const r = await ts.step(batch, 0.02);
      losses.push(r.loss);
      // Extra outputs are computed with the parameters before this step's update.
      const expected = X.map((row) => row[0]! * p[0]! + row[1]! * p[1]!);
      Array.from(r.extra['pred']!.data as Float64Array).forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 12));
      sgdReferenceStep(p, g, buf, 0.02, { momentum: 0.5 });
    }
    const got = (await ts.parameters())['w'] as Float64Array;
    got.forEach((val, i) => expect(val).toBeCloseTo(p[i]!, 12));
    expect(losses[4]!).toBeLessThan(losses[0]!);
    expect(ts.stats.runs).toBe(5);
    ts.close();
    await rt.close();
  });
});
