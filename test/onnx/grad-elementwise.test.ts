import { describe, it } from 'vitest';
import { checkGradients } from './gradcheck.js';
import * as o from './onnx-api.js';

const S = [2, 3] as const;
const pos = { shape: S, range: [0.5, 2] as const };

describe('gradient rules: elementwise (float64, central differences)', () => {
  it('Add broadcasts and unbroadcasts', () => checkGradients([{ shape: [2, 3] }, { shape: [3] }], (_, [a, b]) => o.add(a!, b!)));
  it('Sub with a [2,1] operand', () => checkGradients([{ shape: [2, 3] }, { shape: [2, 1] }], (_, [a, b]) => o.sub(a!, b!)));
  it('Mul with a leading broadcast', () => checkGradients([{ shape: [4, 2, 3] }, { shape: [1, 3] }], (_, [a, b]) => o.mul(a!, b!)));
  it('Div', () => checkGradients([{ shape: S }, pos], (_, [a, b]) => o.div(a!, b!)));
  it('Pow (base and exponent)', () => checkGradients([pos, { shape: [3] }], (_, [a, b]) => o.pow(a!, b!)));
  it('Min / Max', () =>
    checkGradients([{ shape: S }, { shape: S }], (_, [a, b]) => o.add(o.minimum(a!, b!), o.mul(o.maximum(a!, b!), 3))));
  it('Neg, Exp', () => checkGradients([{ shape: S }], (_, [a]) => o.exp(o.neg(a!))));
  it('Log', () => checkGradients([pos], (_, [a]) => o.log(a!)));
  it('Sqrt', () => checkGradients([pos], (_, [a]) => o.sqrt(a!)));
  it('Reciprocal', () => checkGradients([pos], (_, [a]) => o.reciprocal(a!)));
  it('Abs', () => checkGradients([{ shape: S, values: [-2, -1, -0.5, 0.5, 1, 2] }], (_, [a]) => o.abs(a!)));
  it('Sigmoid', () => checkGradients([{ shape: S }], (_, [a]) => o.sigmoid(a!)));
  it('Tanh', () => checkGradients([{ shape: S }], (_, [a]) => o.tanh(a!)));
  it('Relu', () => checkGradients([{ shape: S, values: [-2, -1, -0.5, 0.5, 1, 2] }], (_, [a]) => o.relu(a!)));
  // onnxruntime has no float64 Erf kernel: check it in float32 with a matching step and tolerance.
  it('Erf (float32 kernel)', () =>
    checkGradients([{ shape: S }], (_, [a]) => o.cast(o.erf(o.cast(a!, 'float32')), 'float64'), { eps: 1e-2, tol: 1e-3 }));
  it('Clip', () => checkGradients([{ shape: S, values: [-2, -0.7, -0.2, 0.3, 0.8, 2] }], (_, [a]) => o.clip(a!, -0.5, 0.5)));
  it('Where (both branches, broadcast)', () =>
    checkGradients([{ shape: S }, { shape: [3] }], (g, [a, b]) => o.where(g.constant('bool', [1, 0, 1, 0, 0, 1], [2, 3]), a!, b!)));
  it('Cast round trip through float32', () =>
    checkGradients([{ shape: S }], (_, [a]) => o.mul(o.cast(o.cast(a!, 'float32'), 'float64'), a!), { eps: 1e-3, tol: 1e-3 }));
  it('fan-out: a tensor used three times accumulates', () =>
    checkGradients([{ shape: S }], (_, [a]) => o.mul(o.add(a!, o.tanh(a!)), a!)));
  it('SiLU composite', () => checkGradients([{ shape: S }], (_, [a]) => o.silu(a!)));
});
