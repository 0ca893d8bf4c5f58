import { expect, it } from 'vitest';
import { Graph, Runtime, grad, hostTensor } from './onnx-api.js';

// The first example of docs/onnx.md, verbatim apart from the assertions.
it('the docs/onnx.md quick-start example runs and its gradient is right', async () => {
  const g = new Graph('mlp');
  const x = g.input('x', 'float32', ['batch', 4]);
  const w = g.input('w', 'float32', [4, 2]);
  const loss = x.matmul(w).tanh().mul(x.matmul(w)).mean();
  const dw = grad(loss, [w]).get(w)!;
  g.output(loss, 'loss');
  g.output(dw, 'dw');

  const rt = await Runtime.create({ provider: 'auto', log: () => {} });
  const session = await rt.session(g);
  const out = await session.run({
    x: hostTensor('float32', [3, 4], new Float32Array(12).fill(1)),
    w: hostTensor('float32', [4, 2], new Float32Array(8).fill(0.1)),
  });
  // Every row of x·w is 0.4: loss = 0.4·tanh(0.4); d/dz [z·tanh z] = tanh z + z·sech² z, spread over
  // 6 outputs (mean) and summed over 3 rows with x = 1 → each dw = 3·(…)/6.
  const z = 0.4;
  expect(out['loss']!.data[0]).toBeCloseTo(z * Math.tanh(z), 6);
  const dz = Math.tanh(z) + z * (1 - Math.tanh(z) ** 2);
  for (const v of out['dw']!.data as Float32Array) expect(v).toBeCloseTo((3 * dz) / 6, 6);
  await rt.close();
});
